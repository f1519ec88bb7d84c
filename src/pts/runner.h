// pts/runner.h — the PTS state machine's entry points: Identify → Guard → WriteCache →
// (per sub-test, by its registered procedure: Purge → VerifyPurge → WIPC → Round(n) →
// SteadyCheck → … → Done) → finish. start_run() begins a new journal; resume_run() continues a
// record rebuilt from one, after re-checking the target's identity, and records the time lost
// as a "resume-gap" deviation. Resume continues at the next cell of the round in flight: every
// journaled cell is a complete measurement, so none is thrown away; a cell cut by the
// interruption was never journaled and is run again. May use: core, model, engine, device,
// steady, results, pts.
#pragma once

#include <optional>

#include "core/result.h"
#include "model/run_record.h"
#include "pts/run_env.h"

namespace pts::runner {

/// How a run ended. `record` is the final (or partial) record; `error` is set when the run
/// failed (its kind gives the exit code); record.state == Interrupted after a stop request.
struct RunResult {
  model::RunRecord record;
  std::optional<core::Error> error;
  /// False when the run failed before anything was journaled (identify, guard): the run
  /// directory then holds nothing.
  bool journaled = false;
};

/// Starts a new run. `header` carries the resolved plan, the identity used to resolve it, the
/// plan's deviations and tool/host information; subtests and transitions may be empty.
RunResult start_run(RunEnv& env, model::RunRecord header);

/// Continues a run rebuilt from its journal (results::load_journal) on a sink that appends to
/// that journal. A complete run is returned unchanged.
RunResult resume_run(RunEnv& env, model::RunRecord loaded);

/// Where a (partial) record stands, in words: "sub-test main, round 3, after cell 12 of 56".
std::string describe_position(const model::RunRecord& record);

}  // namespace pts::runner
