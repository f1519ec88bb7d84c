// app/cmd_resume.cpp — `ptsuite resume RUNDIR [--format LIST] [--no-report] [--quiet]`:
// refuses a run directory another user owns or group/others may write, takes the journal's
// lock, rebuilds the run from RUNDIR/journal.jsonl (a torn last line from kill -9 is dropped)
// and rewrites run.json when the journal is ahead of it, re-checks that the target is the same
// drive (serial, firmware), records the time lost as a "resume-gap" deviation and continues at
// the next cell of the round in flight (purging again when the purge did not settle, running a
// failed cell again). A complete run is left alone, except that missing report files are
// written.
// May use: every module.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "app/block_access_adapter.h"
#include "app/commands.h"
#include "app/run_session.h"
#include "device/target_device.h"
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
  for (const auto& a : args) {
    if (a == "--help" || a == "-h") {
      std::printf("usage: ptsuite resume RUNDIR [--format xlsx,json,csv] [--no-report] [--quiet]\n"
                  "Continues an interrupted or killed run from RUNDIR/journal.jsonl: the target must be the\n"
                  "same drive (serial and firmware are re-checked); the run continues at the next cell of the\n"
                  "Round in flight and the time lost is recorded as a deviation (resume-gap).\n");
      return 0;
    }
    if (a.rfind("--", 0) == 0) errors.push_back(a + ": unknown option (see ptsuite resume --help)");
    else positional.push_back(a);
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
  auto dev = device::open_target(rec.device.path, make_block_access_factory());
  if (!dev.ok()) return fail(dev.error());
  auto eng = engine::open_uring_engine(info->target, /*writable=*/true);
  if (!eng.ok()) return fail(eng.error());
  return run_session("resume", dir, **eng, **dev, *taken->sink, rec.plan, session,
                     [&](runner::RunEnv& env) { return runner::resume_run(env, rec); });
}

}  // namespace pts::app
