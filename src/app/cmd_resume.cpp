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

#include "app/commands.h"
#include "app/guarded_target.h"
#include "app/run_session.h"
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

namespace pts::app {

namespace {

int fail(const std::vector<std::string>& messages, int code) {
  for (const auto& m : messages) std::fprintf(stderr, "ptsuite resume: %s\n", m.c_str());
  return code;
}

int fail(const core::Error& e) { return fail(e.messages, core::exit_code(e.kind)); }

}  // namespace

int cmd_resume(const Args& raw_args) {
  std::vector<std::string> args(raw_args.begin(), raw_args.end());
  std::vector<std::string> errors;
  SessionOptions session;
  take_session_options(args, session, errors);
  std::vector<std::string> positional;
  std::optional<std::string> confirm;
  bool force_signatures = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::printf("usage: ptsuite resume RUNDIR [--confirm WHAT] [--force-signatures] [--format xlsx,json,csv]\n"
                  "                      [--no-report] [--quiet]\n"
                  "Continues an interrupted or killed run from RUNDIR/journal.jsonl. The target goes through the\n"
                  "guard again and the confirmation is asked again (--confirm, or typed at a prompt; a file the\n"
                  "run created needs none). It must be the same drive: serial, firmware, model, NSID,\n"
                  "NGUID/EUI-64/WWID, capacity and LBA format are re-checked, and a path that now names another\n"
                  "device is refused (exit 3). The run continues at the next cell of the Round in flight and the\n"
                  "time lost is recorded as a deviation (resume-gap).\n");
      return 0;
    }
    if (a == "--force-signatures") force_signatures = true;
    else if (a == "--confirm" || a.rfind("--confirm=", 0) == 0) {
      if (a != "--confirm") confirm = a.substr(10);
      else if (i + 1 < args.size()) confirm = args[++i];
      else errors.push_back("--confirm: needs a value");
    } else if (a.rfind("--", 0) == 0) {
      errors.push_back(a + ": unknown option (see ptsuite resume --help)");
    } else {
      positional.push_back(a);
    }
  }
  if (positional.size() != 1) errors.push_back("RUNDIR: exactly one run directory expected");
  if (!errors.empty()) return fail(errors, 2);
  const std::string dir = positional[0];

  if (auto trusted = results::check_run_dir_trusted(dir); !trusted.ok()) return fail(trusted.error());
  auto taken = results::JournalSink::resume(dir);  // locked before it is read
  if (!taken.ok()) return fail(taken.error());
  const results::LoadedJournal* loaded = &taken->loaded;
  const model::RunRecord& rec = loaded->record;
  if (loaded->torn_tail && !session.quiet)
    std::fprintf(stderr, "ptsuite resume: journal: %s\n", loaded->torn_detail.c_str());
  auto rebuilt = results::rebuild_run_json_if_behind(dir, rec);
  if (!rebuilt.ok()) return fail(rebuilt.error());
  if (*rebuilt && !session.quiet)
    std::fprintf(stderr, "ptsuite resume: run.json was behind the journal; rebuilt it from %s\n", results::kJournal);
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

  auto info = engine::inspect_target(rec.device.path, /*need_write=*/true);
  if (!info.ok()) return fail(info.error());
  if (!info->exists) return fail({"TARGET " + rec.device.path + ": no longer exists"}, 2);
  // The one guard entry point, and the confirmation asked again.
  const bool created = rec.consent.method == "created-by-ptsuite" && rec.device.kind == model::TargetKind::File;
  auto held = device::acquire_target(rec.device.path, writing_options(confirm, force_signatures, created));
  if (!held.ok()) return fail(held.error());
  if (auto same = device::check_identity_unchanged(rec.device, (*held)->identity()); !same.ok()) {
    core::Error e = same.error();
    e.messages.insert(e.messages.begin(), "resume refused: " + rec.device.path +
                                              " now resolves to another device than the one this run started on");
    return fail(e);
  }
  if (!session.quiet) std::fprintf(stderr, "ptsuite resume: %s\n", consent_line(**held).c_str());
  auto eng = engine::open_uring_engine(
      engine_target(**held, info->target.path, info->target.size_bytes, info->target.logical_block_bytes), true);
  if (!eng.ok()) return fail(eng.error());
  return run_session("resume", dir, **eng, (*held)->device(), *taken->sink, rec.plan, session,
                     [&](runner::RunEnv& env) { return runner::resume_run(env, rec); });
}

}  // namespace pts::app
