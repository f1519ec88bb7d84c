// app/cmd_resume.cpp — `ptsuite resume RUNDIR [--confirm WHAT] [--force-signatures]
// [--format LIST] [--no-report] [--quiet]`: refuses a run directory another user owns or
// group/others may write, takes the journal's lock, rebuilds the run from RUNDIR/journal.jsonl
// (a torn last line from kill -9 is dropped) and rewrites run.json when the journal is ahead of
// it, takes the target through the one guard entry point again (examination, exclusive
// descriptor, signatures, and the operator's confirmation asked again: --confirm or a prompt; a
// file the run created needs none), refuses when the path now resolves to another device
// (identity: serial, firmware, model, NSID, NGUID/EUI-64/WWID, capacity, LBA format), records
// the time lost as a "resume-gap" deviation and continues at the next cell of the round in
// flight (purging again when the purge did not settle, running a failed cell again). A
// complete run is left alone, except that missing report files are written.
// May use: every module.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "app/command_fail.h"
#include "app/commands.h"
#include "app/guarded_target.h"
#include "app/multi_session.h"
#include "app/resume_target.h"
#include "app/run_session.h"
#include "app/target_open.h"
#include "device/confirm.h"
#include "device/held_target.h"
#include "engine/io_engine.h"
#include "engine/io_target.h"
#include "pts/runner.h"
#include "results/codec.h"
#include "report/report.h"
#include "results/journal.h"
#include "results/run_dir.h"
#include "results/run_store.h"
#include "sim/target.h"

namespace pts::app {

namespace {

int fail(const std::vector<std::string>& messages, int code) { return fail_command("resume", messages, code); }

int fail(const core::Error& e) { return fail(e.messages, core::exit_code(e.kind)); }

}  // namespace

int cmd_resume(const ResumeArgs& args) {
  std::vector<std::string> errors = args.errors;
  const SessionOptions session = session_options(args.session, errors);
  if (args.run_dir.empty()) errors.push_back("RUNDIR: missing (see ptsuite resume --help)");
  if (!errors.empty()) return fail(errors, 2);
  const std::string& dir = args.run_dir;
  const std::optional<std::string>& confirm = args.confirm;
  const bool force_signatures = args.force_signatures;

  if (std::filesystem::exists(std::filesystem::path(dir) / kLockstepManifest) &&
      !std::filesystem::exists(std::filesystem::path(dir) / results::kJournal))
    return cmd_resume_multi(args);
  auto taken = take_journal(dir, session.quiet, "resume");
  if (!taken.ok()) return fail(taken.error());
  const model::RunRecord& rec = taken->loaded.record;
  if (rec.state == model::RunState::Complete) {
    std::printf("ptsuite resume: %s is already complete; nothing to do (`ptsuite report %s` re-renders it)\n",
                dir.c_str(), dir.c_str());
    const auto& f = session.formats;
    const std::string name = dir + "/" + rec.plan.test_id;
    const bool missing = (f.xlsx && !std::filesystem::exists(name + ".xlsx")) ||
                         (f.json && !std::filesystem::exists(name + ".json")) ||
                         (f.csv && !std::filesystem::exists(dir + "/csv/" + rec.plan.test_id + ".csv"));
    if (session.write_report && missing) {  // killed while the report was written
      report::ReportOptions ropt;
      ropt.formats = f;
      ropt.record_json = results::run_record_to_json_text(rec);
      auto written = report::write_reports(rec, dir, ropt);
      if (!written.ok()) return fail(written.error().messages, 1);
      for (const auto& p : *written) std::printf("ptsuite resume: wrote the missing report %s\n", p.c_str());
    }
    return 0;
  }
  if (!session.quiet)
    std::fprintf(stderr, "ptsuite resume: %s on %s, %s\n", rec.plan.title.c_str(), rec.device.path.c_str(),
                 runner::describe_position(rec).c_str());

  auto held = hold_resumed_target(rec, confirm, force_signatures, session.quiet, "resume");
  if (!held.ok()) return fail(held.error());
  int code = run_session("resume", dir, *held->engine, held->writable.held->device(), *held->writable.clock,
                         *taken->sink, rec.plan, session, [&](runner::RunEnv& env) { return runner::resume_run(env, rec); });
  held->engine.reset();
  if (!close_target(held->writable, "resume") && code == 0) code = core::exit_code(core::ErrorKind::Internal);
  return code;
}

}  // namespace pts::app
