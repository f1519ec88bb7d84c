// app/cmd_run.cpp — `ptsuite run TEST [TARGET] [--out RUNDIR] [--confirm WHAT] [options]`: the
// order of a run, each step in its own file. Every input problem that needs no device at once
// (exit 2, run_inputs.h) → the target made ready (run_target.h: a missing file created, the
// demo file afresh) → the one guard entry point with consent (exit 3) → the plan against the
// device's capacity and the engine's limits (exit 2) → the engine → the run directory and
// its journal → the record's header (run_header.h) → the PTS state machine and the report
// (run_session.h). Nothing is written to the target before the plan is resolved, and a file
// or state file made here is removed again on bad input. May use: every module.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "app/command_fail.h"
#include "app/commands.h"
#include "app/guarded_target.h"
#include "app/run_header.h"
#include "app/run_inputs.h"
#include "app/run_session.h"
#include "app/run_target.h"
#include "app/target_open.h"
#include "config/plan_resolver.h"
#include "core/atomic_file.h"
#include "core/units.h"
#include "device/held_target.h"
#include "pts/procedure.h"
#include "pts/runner.h"
#include "results/journal.h"
#include "results/run_store.h"

namespace pts::app {

namespace {

namespace fs = std::filesystem;

int fail(const std::vector<std::string>& messages, int code) { return fail_command("run", messages, code); }

int fail(const core::Error& e) { return fail(e.messages, core::exit_code(e.kind)); }

void print_start(const RunInputs& in, const model::RunRecord& header, const config::ResolvedPlan& resolved) {
  std::fprintf(stderr, "ptsuite run: %s on %s (%s), %zu sub-test(s), cells %g s, max %u rounds -> %s\n",
               header.plan.title.c_str(), in.target_path.c_str(), core::format_bytes(header.device.capacity_bytes).c_str(),
               header.plan.subtests.size(), header.plan.cell_seconds, header.plan.max_rounds, in.out_dir.c_str());
  for (const auto& n : resolved.notes) std::fprintf(stderr, "  note: %s\n", n.c_str());
}

}  // namespace

int cmd_run(const RunArgs& args) {
  if (!args.more_targets.empty()) return cmd_run_multi(args);
  auto checked = check_run_inputs(args);
  if (!checked.ok()) return fail(checked.error().messages, 2);
  RunInputs& in = *checked;

  auto prepared = prepare_run_target(in);
  if (!prepared.ok()) return fail(prepared.error());
  CreatedFile created = *prepared;
  auto held = hold_and_plan(in, created.created());
  if (!held.ok()) {
    created.discard();
    return fail(held.error());
  }
  auto& [target, resolved, eng] = *held;
  auto& device = *target.held;

  std::error_code ec;
  const bool made_dir = !fs::exists(in.out_dir, ec);
  if (auto made = core::create_directories_durable(in.out_dir); !made.ok())  // fsync'd into its parent
    return fail({"--out " + in.out_dir + ": cannot create it (" + made.error().message() + ")"},
                core::exit_code(made.error().kind));
  auto sink = results::JournalSink::create(in.out_dir);
  if (!sink.ok()) return fail(sink.error());

  const model::RunRecord header = run_header(in, target, resolved, *eng, args.words);
  if (!in.session.quiet) print_start(in, header, resolved);
  int code = run_session("run", in.out_dir, *eng, device.device(), *target.clock, **sink, header.plan, in.session,
                         [&](runner::RunEnv& env) { return runner::start_run(env, header); });
  if (!close_target(target, "run") && code == 0) code = core::exit_code(core::ErrorKind::Internal);
  // A run refused before anything was journaled leaves no trace in RUNDIR.
  const auto journal = fs::path(in.out_dir) / results::kJournal;
  if (fs::exists(journal, ec) && fs::file_size(journal, ec) == 0) {
    fs::remove(journal, ec);
    if (made_dir) fs::remove(in.out_dir, ec);
  }
  return code;
}

}  // namespace pts::app
