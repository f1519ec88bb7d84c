// pts/phases.cpp — see phases.h.
#include "pts/phases.h"

namespace pts::runner {

const char* write_cache_name(model::WriteCacheState s) {
  switch (s) {
    case model::WriteCacheState::NotPresent: return "no volatile write cache";
    case model::WriteCacheState::Enabled: return "enabled";
    case model::WriteCacheState::Disabled: return "disabled";
    case model::WriteCacheState::Unknown: break;
  }
  return "unknown";
}

std::pair<model::WriteCacheState, std::string> apply_write_cache(device::TargetDevice& dev,
                                                                 const model::TestPlan& plan) {
  const auto want = plan.write_cache_enabled ? model::WriteCacheState::Enabled : model::WriteCacheState::Disabled;
  const std::string want_text = plan.write_cache_enabled ? "enabled (WCE)" : "disabled (WCD)";
  auto cur = dev.write_cache();
  if (!cur.ok())
    return {model::WriteCacheState::Unknown,
            "the write cache state could not be read (" + cur.error().message() + "); the plan requires it " + want_text};
  if (*cur == model::WriteCacheState::NotPresent) {
    if (plan.write_cache_enabled)
      return {*cur, "the target has no volatile write cache; the plan asks for it enabled (WCE)"};
    return {*cur, ""};
  }
  if (*cur == want) return {*cur, ""};
  auto set = dev.set_write_cache(plan.write_cache_enabled);
  if (!set.ok())
    return {*cur, std::string("the write cache is ") + write_cache_name(*cur) + " and could not be set " + want_text +
                      " (" + set.error().message() + ")"};
  if (*set != want)
    return {*set, std::string("the write cache stayed ") + write_cache_name(*set) + "; the plan requires it " + want_text};
  return {*set, ""};
}

bool purge_pending(const model::RunRecord& record, size_t i) {
  const auto& s = record.subtests[i];
  if (!s.rounds.empty() || s.wipc) return false;  // the sub-test already stands on its purge
  return !s.purge || !model::purge_settled(*s.purge);
}

namespace {

bool purge_wanted(const model::TestPlan& plan, const model::SubTestPlan& sub) {
  if (!sub.purge) return false;
  return plan.purge_auto || plan.purge_method != model::PurgeMethod::None;
}

std::string check_text(const model::PurgeVerification& v) {
  if (!v.performed) return "; no " + v.method;
  return "; " + v.method + (v.passed ? " passed" : " FAILED") + " (" + std::to_string(v.sampled_blocks) +
         " LBAs sampled, " + std::to_string(v.blocks_still_holding_pattern) + " still holding the pattern; expected " +
         v.expectation + ")";
}

}  // namespace

core::Status purge_step(RunContext& ctx, size_t i) {
  const auto& plan = ctx.record().plan;
  const auto& sub = plan.subtests[i];
  if (!purge_wanted(plan, sub)) return ctx.transition("Purge", i, 0, "skipped (purge none)");
  auto st = ctx.check_identity("the purge of sub-test " + sub.id);
  if (!st.ok()) return st;
  std::string how = plan.purge_auto ? "method auto" : std::string("method ") + model::purge_method_name(plan.purge_method);
  if (const auto& prev = ctx.record().subtests[i].purge; prev && !model::purge_settled(*prev))
    how += "; again, the earlier attempt did not settle (" + prev->status_text + check_text(prev->verification) + ")";
  st = ctx.transition("Purge", i, 0, how);
  if (!st.ok()) return st;
  device::PurgeRequest req;
  if (!plan.purge_auto) req.method = plan.purge_method;
  req.verify = true;
  req.accept_failure = plan.accept_purge_failure;
  model::PurgeRecord sent;
  req.record_out = &sent;
  auto done = ctx.env().device.purge(req);
  if (!done.ok()) {
    core::Error e = done.take_error();
    if (sent.started_wall_ns != 0) {  // the command went out: keep its record; resume purges again
      auto kept = ctx.purge(i, sent);
      if (!kept.ok()) return kept;
    }
    e.messages.insert(e.messages.begin(), "purge of sub-test " + sub.id + " failed:");
    return e;
  }
  const model::PurgeRecord& rec = *done;
  st = ctx.purge(i, rec);  // its deviations are derived from the record (RecordBuilder)
  if (!st.ok()) return st;
  st = ctx.transition("VerifyPurge", i, 0,
                      model::purge_method_name(rec.method) + (rec.success ? " succeeded" : " failed") +
                          check_text(rec.verification));
  if (!st.ok()) return st;
  return check_write_cache(ctx, i, 0, "after the purge of sub-test " + sub.id);
}

core::Status check_write_cache(RunContext& ctx, size_t i, uint32_t round, const std::string& where) {
  auto& dev = ctx.env().device;
  const auto established = ctx.record().write_cache;
  auto now = dev.write_cache();
  if (!now.ok())
    return ctx.deviation_once("write-cache-unknown", "the write cache state could not be read back " + where + " (" +
                                                         now.error().message() + ")");
  if (*now == established) return core::ok_status();
  auto [fixed, problem] = apply_write_cache(dev, ctx.record().plan);
  std::string text = std::string("the write cache was found ") + write_cache_name(*now) + " " + where +
                     " (the run had it " + write_cache_name(established) + ")";
  text += problem.empty() ? std::string("; set back to ") + write_cache_name(fixed) : "; " + problem;
  auto st = ctx.transition("WriteCache", i, round, std::string(write_cache_name(fixed)) + " (" + text + ")");
  if (!st.ok()) return st;
  return ctx.deviation("write-cache-changed", text);
}

}  // namespace pts::runner
