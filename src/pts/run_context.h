// pts/run_context.h — the state machine's working state and the few primitives every
// procedure uses: journal-then-apply record updates (each event reaches the RecordSink
// before the in-memory record changes), identity re-checks, and running one access spec on
// the engine while measuring the drive's idle gap since the previous run's last completion.
// May use: core, model, engine, device, results (RecordBuilder).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "model/run_record.h"
#include "pts/run_env.h"
#include "results/record_builder.h"

namespace pts::runner {

/// Why a procedure returned without an error.
enum class StepOutcome { Done, Interrupted };

/// One engine run as the state machine saw it.
struct EngineRun {
  model::CellResult result;
  /// The tool's gap before this run: its first submission minus the previous run's last
  /// completion, less the host idle the procedure asked for in between (see run_engine()).
  std::optional<uint64_t> gap_before_ns;
  bool stopped_early = false;             ///< an abort flag was set while it ran
};

class RunContext {
 public:
  RunContext(RunEnv& env, model::RunRecord record);

  const model::RunRecord& record() const { return state_.record(); }
  RunEnv& env() { return env_; }
  uint64_t wall_ns() { return env_.clock.wall_ns(); }

  /// True once the operator asked to stop (first Ctrl-C).
  bool stop_requested() const;

  // Record updates: journal first (durable), then the in-memory record. A journal failure
  // is an Internal error and ends the run.
  core::Status transition(const std::string& state, size_t subtest, uint32_t round, const std::string& detail);
  core::Status deviation(const std::string& code, const std::string& text);
  /// Adds the deviation unless one with the same code and text is already recorded.
  core::Status deviation_once(const std::string& code, const std::string& text);
  core::Status purge(size_t subtest, const model::PurgeRecord& record);
  core::Status precondition(size_t subtest, const model::PreconditionRecord& record);
  core::Status cell(size_t subtest, uint32_t round, const model::CellResult& result);
  core::Status round_end(size_t subtest, const model::RoundRecord& summary);
  core::Status subtest_end(size_t subtest, const model::SubTestRecord& summary);
  /// Journals the end state and writes the final record (run.json).
  core::Status finish(model::RunState state, const std::string& failure);

  /// Re-reads the target's identity and fails (Device) when serial or firmware changed.
  core::Status check_identity(const std::string& before_what);

  /// Runs `spec` on the engine. `abort_on_stop` makes the first Ctrl-C abort the run (WIPC);
  /// cells only abort on the second. The gap before it is measured unless this is the first
  /// run of this process: the time the drive sat idle between the previous run's last
  /// completion and this run's first submission (the engine's IoPhase, on the run's monotonic
  /// clock), so the engine's own set-up and drain count, less the host idle the procedure
  /// itself asked for in between (procedure_idle()). A sequential spec without stream starts
  /// continues where the sub-test's last sequential run left its streams (stream_positions.h).
  core::Result<EngineRun> run_engine(const model::AccessSpec& spec, bool abort_on_stop, const CellPosition& pos);

  /// Runs a multi-job cell (model/job.h) on the engine (IoEngine::run_jobs) with the same gap
  /// measurement as run_engine(); the first Ctrl-C aborts it only when `abort_on_stop`.
  core::Result<EngineRun> run_engine_jobs(const std::vector<model::JobSpec>& jobs, bool allow_overlap,
                                          bool abort_on_stop, const CellPosition& pos);

  /// The procedure idled the host for `measured_ns` (HIR's Access B, kept as the Round's
  /// idle_after): the next run's gap leaves it out, as it is not the tool's.
  void procedure_idle(uint64_t measured_ns) { procedure_idle_ns_ += measured_ns; }

  /// Gaps measured before the cells of the round in flight (reset by start_round()).
  const std::vector<uint64_t>& round_gaps() const { return round_gaps_; }
  void start_round() { round_gaps_.clear(); }

 private:
  RunEnv& env_;
  results::RecordBuilder state_;
  /// The previous run's last completion (or, when its engine reported no I/O phase, when its
  /// run() returned), on the run's monotonic clock.
  std::optional<uint64_t> last_io_end_ns_;
  uint64_t procedure_idle_ns_ = 0;  ///< host idle the procedure asked for since that run
  std::vector<uint64_t> round_gaps_;
  std::atomic<bool> abort_flag_{false};  ///< what the engine watches
  /// run_engine()'s and run_engine_jobs()' common part: `go` runs the engine with the abort
  /// flag and progress callback, the gap is measured around it.
  core::Result<EngineRun> measured(bool abort_on_stop, const CellPosition& pos,
                                   const std::function<core::Result<model::CellResult>(
                                       const std::atomic<bool>*, const engine::ProgressFn&)>& go);
};

}  // namespace pts::runner
