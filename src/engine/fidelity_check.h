// engine/fidelity_check.h — the per-cell measurement-fidelity checks (did the cell hold its
// queue depth, and does the kernel agree with the engine?) and the deviation text that lists
// the cells that failed them. Pure: works on stored CellResults only, so any engine (the
// io_uring one, a simulated one) and the report see the same verdicts. May use: model.
//
// The checks, per cell:
//   io-count     the kernel's block counters exist and its I/Os (completed + merged, as the
//                host issued them) differ from the engine's by more than 1 %;
//   in-flight    unpaced, the kernel's average requests in flight is below 0.9 × the depth
//                it should see: TC×QD scaled by the kernel's requests ÷ the host's I/Os (the
//                block layer may merge neighbouring sequential I/Os into fewer, larger
//                requests; the engine submits sequential I/Os one at a time so its plug does
//                not, but an I/O scheduler still may) — or, when the
//                device is saturated (more requests than it can hold in flight: nr_requests
//                tags × hardware queues, where the rest wait above the counters), below 0.9 ×
//                that limit;
//   littles-law  unpaced, IOPS × mean latency (the engine's own average outstanding I/Os) is
//                below 0.9 × TC×QD.
// Paced cells keep fewer I/Os in flight by design; they skip the two depth checks. So do cells
// shorter than kMinJudgedCellSeconds: the start of a cell (waking TC workers, the first
// submissions) and its drain (the last I/Os completing with nothing behind them) hold less
// than TC×QD, and on a loaded host a worker's wake-up alone can take milliseconds, several
// per cent of a 50 ms cell; the cell then records which checks it did not judge.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/cell.h"

namespace pts::engine {

inline constexpr double kIoCountTolerance = 0.01;  ///< relative
inline constexpr double kDepthFloor = 0.9;         ///< share of TC×QD a cell must hold
/// Shortest cell whose queue depth is judged: 0.5 s, so that ramp-up and drain (under 1 ms
/// each on an idle host, up to ~10 ms on a loaded one) stay within the 10 % the floor allows.
/// PTS cells run for a minute; only scaled test runs are shorter.
inline constexpr double kMinJudgedCellSeconds = 0.5;

/// The failed checks for `cell` (codes above), from its own fields.
std::vector<std::string> fidelity_flags(const model::CellResult& cell);

/// The depth checks `cell` was not judged on because it ran shorter than
/// kMinJudgedCellSeconds (codes above; empty for a cell long enough, or paced).
std::vector<std::string> fidelity_not_judged(const model::CellResult& cell);

/// The kernel's average in flight `cell` should reach (before the 0.9 floor): TC×QD × the
/// kernel's requests per host I/O, capped at the device's limit when saturated. Needs
/// cell.kernel.
double kernel_depth_target(const model::CellResult& cell);

/// One flagged cell as a procedure saw it.
struct FlaggedCell {
  uint32_t round = 0;  ///< 0: not in a Round (WIPC, a single run)
  const model::CellResult* cell = nullptr;
};

/// Deviation text for the flagged cells of sub-test `subtest_id`, grouped by cell id with
/// their Rounds and the worst figure per check; empty when none is flagged.
std::string fidelity_deviation_text(const std::string& subtest_id, const std::vector<FlaggedCell>& cells);

}  // namespace pts::engine
