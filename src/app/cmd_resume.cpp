// app/cmd_resume.cpp — `ptsuite resume RUNDIR [--format LIST] [--no-report] [--quiet]`:
// rebuilds the run from RUNDIR/journal.jsonl (a torn last line from kill -9 is dropped),
// re-checks that the target is the same drive (serial, firmware), records the time lost as a
// "resume-gap" deviation and continues at the next cell of the round in flight.
// May use: every module.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "app/commands.h"
#include "app/run_session.h"
#include "app/target_open.h"
#include "device/target_device.h"
#include "engine/io_engine.h"
#include "engine/io_target.h"
#include "pts/runner.h"
#include "results/journal.h"
#include "sim/target.h"

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

  auto loaded = results::load_journal(dir);
  if (!loaded.ok()) return fail(loaded.error());
  const model::RunRecord& rec = loaded->record;
  if (loaded->torn_tail && !session.quiet)
    std::fprintf(stderr, "ptsuite resume: journal: %s\n", loaded->torn_detail.c_str());
  if (rec.state == model::RunState::Complete) {
    std::printf("ptsuite resume: %s is already complete; nothing to do (`ptsuite report %s` re-renders it)\n",
                dir.c_str(), dir.c_str());
    return 0;
  }
  if (!session.quiet)
    std::fprintf(stderr, "ptsuite resume: %s on %s, %s\n", rec.plan.title.c_str(), rec.device.path.c_str(),
                 runner::describe_position(rec).c_str());

  engine::TargetInfo info;
  if (!is_simulated(rec.device.path)) {
    auto ti = engine::inspect_target(rec.device.path, /*need_write=*/true);
    if (!ti.ok()) return fail(ti.error());
    if (!ti->exists) return fail({"TARGET " + rec.device.path + ": no longer exists"}, 2);
    info = *ti;
  }
  if (is_simulated(rec.device.path)) {  // never make a new drive in place of the run's
    auto t = sim::parse_sim_target(rec.device.path);
    if (!t.ok()) return fail(t.error());
    std::error_code ec;
    if (!std::filesystem::exists(t->state_path, ec))
      return fail({"TARGET " + rec.device.path + ": the simulated drive's state file " + t->state_path +
                   " no longer exists"}, 2);
  }
  auto opened = open_device_target(rec.device.path, /*writable=*/true);
  if (!opened.ok()) return fail(opened.error());
  opened->io = info.target;
  auto eng = open_engine(*opened, /*writable=*/true);
  if (!eng.ok()) return fail(eng.error());
  auto sink = results::JournalSink::reopen(dir, *loaded);
  if (!sink.ok()) return fail(sink.error());

  int code = run_session("resume", dir, **eng, *opened->device, *opened->clock, **sink, rec.plan, session,
                         [&](runner::RunEnv& env) { return runner::resume_run(env, rec); });
  if (!close_target(*opened, "resume") && code == 0) code = core::exit_code(core::ErrorKind::Internal);
  return code;
}

}  // namespace pts::app
