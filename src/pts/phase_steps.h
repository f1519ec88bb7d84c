// pts/phase_steps.h — the steps the procedures with phases of their own (WSAT, HIR, XSR, DIRTH) share: where
// a sub-test's Rounds stand on a fresh or resumed record, running one cell as a journaled
// Round, closing a Round (with the host idle that follows it), host idle itself with the
// engine's counters read around it, and a finished sub-test with its findings.
// May use: core, model, pts/run_context.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "model/run_record.h"
#include "pts/run_context.h"

namespace pts::runner {

/// Where sub-test `i`'s Rounds stand: the next Round to start, or a Round in flight (cells
/// journaled without its round_end), as a crash or a stop left it.
struct RoundCursor {
  uint32_t next_round = 1;      ///< the Round to start when none is in flight
  bool in_flight = false;
  uint32_t round = 0;           ///< the Round in flight
  size_t cells_done = 0;        ///< its journaled cells
};
RoundCursor round_cursor(const RunContext& ctx, size_t i);

/// Copies the gaps measured since start_round() into `round` (with their mean and maximum).
void set_round_gaps(model::RoundRecord& round, const std::vector<uint64_t>& gaps);

/// The plan's cell `cell_id` of sub-test `i` (Internal error when the plan lacks it).
core::Result<const model::CellPlan*> plan_cell(const RunContext& ctx, size_t i, const std::string& cell_id);

/// What one journaled cell run came to.
struct CellRun {
  bool stopped = false;       ///< cut by the operator's abort: not journaled, run again on resume
  model::CellResult result;   ///< journaled (valid when !stopped)
};

/// Runs `spec` as cell `cell.id` of Round `round` of sub-test `i` (seeded per Round and cell
/// like the steady Rounds), journals it and tells the observer. I/O errors become an Io
/// error after the cell is journaled. `pos` is filled in for the progress display.
core::Result<CellRun> run_cell(RunContext& ctx, size_t i, uint32_t round, size_t cell_index,
                               const model::CellPlan& cell, model::AccessSpec spec, CellPosition pos);

/// Journals the end of Round `round` of sub-test `i` (every cell already journaled): its
/// gaps since the last start_round(), the idle after it, and a verdict where the procedure
/// assessed one.
core::Status close_round_plain(RunContext& ctx, size_t i, uint32_t round, std::optional<model::IdleRecord> idle,
                               std::optional<model::SteadyStateVerdict> verdict = std::nullopt);

/// Host idle for `ns`: nothing is submitted to the target. Reads the engine's counters just
/// before and just after; cut short (completed = false) when the operator stops the run. The
/// time idled is left out of the next cell's gap (RunContext::procedure_idle).
model::IdleRecord host_idle(RunContext& ctx, uint64_t ns);

/// Journals sub-test `i` as complete: `summary` as the caller filled it (findings, and a
/// steady-state window where the procedure assessed one) with id and complete set here, then
/// the Done transition with `detail`.
core::Status finish_subtest_summary(RunContext& ctx, size_t i, model::SubTestRecord summary, const std::string& detail);

/// A finding with a value, or without one (undefined) when `value` is empty.
model::Finding finding(std::string key, std::string label, std::optional<double> value, std::string unit,
                       std::string detail = "");

/// A number in findings and transition text: up to six significant digits ("%.6g").
std::string short_number(double v);

}  // namespace pts::runner
