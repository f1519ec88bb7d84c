// app/run_session.h — what `run` and `resume` share once the target, engine and journal are
// open: Ctrl-C handling, the progress display, driving the state machine, writing the report
// files (also for a partial run), the summary on stdout and the exit code.
// May use: every module.
#pragma once

#include <functional>
#include <string>

#include "app/command_args.h"
#include "core/clock.h"
#include "model/run_record.h"
#include "pts/runner.h"
#include "report/report.h"
#include "results/journal.h"

namespace pts::app {

struct SessionOptions {
  report::ReportFormats formats;
  bool write_report = true;
  bool quiet = false;
};

/// Runs `go` (start_run or resume_run) on an environment wired to the target's clock (the
/// system clock for a real drive, the virtual clock of a simulated one), the stop flags and a
/// progress display, then reports and prints. Returns the exit code: 0 done (steady or not),
/// 130 interrupted, else the error kind's code.
int run_session(const char* command, const std::string& run_dir, engine::IoEngine& engine,
                device::TargetDevice& device, core::Clock& clock, results::JournalSink& sink,
                const model::TestPlan& plan, const SessionOptions& options,
                const std::function<runner::RunResult(runner::RunEnv&)>& go);

/// After the state machine: the report files (also for a partial run), the summary on stdout
/// and the exit code (as run_session returns it).
int finish_session(const char* command, const std::string& run_dir, runner::RunResult& res,
                   const SessionOptions& options);

/// Host, CPU, memory, OS and kernel of this machine.
model::HostInfo collect_host_info();

/// The session's options from --format / --no-report / --quiet; problems into `errors`.
SessionOptions session_options(const SessionArgs& args, std::vector<std::string>& errors);

}  // namespace pts::app
