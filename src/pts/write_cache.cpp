// pts/write_cache.cpp — see write_cache.h.
#include "pts/write_cache.h"

#include "pts/phases.h"

namespace pts::runner {

namespace {

bool known(model::WriteCacheState s) {
  return s == model::WriteCacheState::Enabled || s == model::WriteCacheState::Disabled;
}

bool is_on(model::WriteCacheState s) { return s == model::WriteCacheState::Enabled; }

}  // namespace

model::WriteCacheSetting read_write_cache_setting(device::TargetDevice& dev) {
  auto s = dev.write_cache_setting();
  if (!s.ok()) return {};
  return *s;
}

std::string write_cache_setting_text(const model::WriteCacheSetting& s) {
  std::string t = write_cache_name(s.current);
  if (!known(s.current)) return t;
  if (s.saveable) return t + ", saved " + write_cache_name(s.saved);
  return t + " (the drive keeps no saved setting)";
}

WriteCacheRestore restore_write_cache(device::TargetDevice& dev, const model::RunRecord& record) {
  WriteCacheRestore out;
  const auto& orig = record.write_cache_original;
  if (!known(orig.current)) {
    if (!known(record.write_cache)) return out;  // no cache the run could have changed
    out.attempted = true;
    out.text = "the write cache setting before the run was not recorded (a record from an older ptsuite, or it "
               "could not be read); it is left as the run set it (" + std::string(write_cache_name(record.write_cache)) +
               ")";
    return out;
  }
  out.attempted = true;
  const std::string want = write_cache_setting_text(orig);
  auto fail = [&](const std::string& why) {
    out.text = "FAILED to set the write cache back to the operator's setting (" + want + "): " + why;
    return out;
  };
  auto now = dev.write_cache_setting();
  if (!now.ok()) return fail("it could not be read (" + now.error().message() + ")");
  // SV = 1 sets the saved value and the current one; the current one is then put right.
  if (orig.saveable && now->saveable && known(orig.saved) && now->saved != orig.saved) {
    auto set = dev.set_write_cache(is_on(orig.saved), model::WriteCacheScope::CurrentAndSaved);
    if (!set.ok()) return fail(set.error().message());
    now = dev.write_cache_setting();
    if (!now.ok()) return fail("it could not be read back (" + now.error().message() + ")");
  }
  if (now->current != orig.current) {
    auto set = dev.set_write_cache(is_on(orig.current), model::WriteCacheScope::CurrentOnly);
    if (!set.ok()) return fail(set.error().message());
    now = dev.write_cache_setting();
    if (!now.ok()) return fail("it could not be read back (" + now.error().message() + ")");
  }
  if (now->current != orig.current || (orig.saveable && now->saveable && now->saved != orig.saved))
    return fail("it reads back " + write_cache_setting_text(*now));
  out.ok = true;
  out.text = "back to the operator's setting from before the run: " + want;
  return out;
}

core::Status restore_write_cache_step(RunContext& ctx) {
  const auto done = restore_write_cache(ctx.env().device, ctx.record());
  if (!done.attempted) return core::ok_status();
  return ctx.transition("WriteCacheRestored", 0, 0, done.text);
}

}  // namespace pts::runner
