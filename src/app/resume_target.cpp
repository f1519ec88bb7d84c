// app/resume_target.cpp — see resume_target.h.
#include "app/resume_target.h"

#include <cstdio>
#include <filesystem>

#include "app/guarded_target.h"
#include "device/confirm.h"
#include "device/held_target.h"
#include "pts/runner.h"
#include "results/run_dir.h"
#include "results/run_store.h"
#include "sim/target.h"

namespace pts::app {

core::Result<results::ResumableJournal> take_journal(const std::string& dir, bool quiet, const char* command) {
  if (auto trusted = results::check_run_dir_trusted(dir); !trusted.ok()) return trusted.error();
  auto taken = results::JournalSink::resume(dir);  // locked before it is read
  if (!taken.ok()) return taken.error();
  const results::LoadedJournal& loaded = taken->loaded;
  if (loaded.torn_tail && !quiet) std::fprintf(stderr, "ptsuite %s: journal: %s\n", command, loaded.torn_detail.c_str());
  auto rebuilt = results::rebuild_run_json_if_behind(dir, loaded.record);
  if (!rebuilt.ok()) return rebuilt.error();
  if (*rebuilt && !quiet)
    std::fprintf(stderr, "ptsuite %s: run.json was behind the journal; rebuilt it from %s\n", command,
                 results::kJournal);
  return std::move(taken.value());
}

core::Result<ResumedTarget> hold_resumed_target(const model::RunRecord& rec, const std::optional<std::string>& confirm,
                                                bool force_signatures, bool quiet, const char* command,
                                                bool no_engine) {
  ResumedTarget out;
  const bool simulated = is_simulated(rec.device.path);
  if (simulated) {  // never make a new drive in place of the run's
    auto t = sim::parse_sim_target(rec.device.path);
    if (!t.ok()) return t.error();
    std::error_code ec;
    if (!std::filesystem::exists(t->state_path, ec))
      return core::bad_input("TARGET " + rec.device.path + ": the simulated drive's state file " + t->state_path +
                             " no longer exists");
  } else {
    auto ti = engine::inspect_target(rec.device.path, /*need_write=*/true);
    if (!ti.ok()) return ti.error();
    if (!ti->exists) return core::bad_input("TARGET " + rec.device.path + ": no longer exists");
    out.info = *ti;
  }
  // The one guard entry point, and the confirmation asked again (a sim: target: the lock on
  // its state file, app/target_open.h).
  const bool created = rec.consent.method == "created-by-ptsuite" &&
                       (rec.device.kind == model::TargetKind::File || simulated);
  auto writable = acquire_writable(rec.device.path, writing_options(confirm, force_signatures, created));
  if (!writable.ok()) return writable.error();
  out.writable = std::move(writable.value());
  auto& held = out.writable.held;
  if (auto same = device::check_identity_unchanged(rec.device, held->identity()); !same.ok()) {
    core::Error e = same.error();
    e.messages.insert(e.messages.begin(), "resume refused: " + rec.device.path +
                                              " now resolves to another device than the one this run started on");
    return e;
  }
  if (!quiet) std::fprintf(stderr, "ptsuite %s: %s\n", command, consent_line(*held).c_str());
  if (no_engine) return out;
  auto eng = open_plan_engine(out.writable, out.info, rec.plan, confirm, force_signatures);
  if (!eng.ok()) return eng.error();
  out.engine = std::move(eng.value());
  return out;
}

}  // namespace pts::app
