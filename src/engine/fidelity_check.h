// engine/fidelity_check.h — the per-cell measurement-fidelity checks (did the cell hold its
// queue depth, and does the kernel agree with the engine?) and the deviation text that lists
// the cells that failed them. Pure: works on stored CellResults only, so any engine (the
// io_uring one, a simulated one) and the report see the same verdicts. May use: model.
//
// The checks, per cell:
//   io-count     the kernel's block counters exist and its I/Os (completed + merged, as the
//                host issued them) differ from the engine's by more than 1 %;
//   in-flight    unpaced, the kernel's average requests in flight is below 0.9 × TC×QD — or,
//                when the device is saturated (TC×QD above the most it can hold in flight:
//                nr_requests tags × hardware queues, where the rest wait above the counters),
//                below 0.9 × that limit;
//   littles-law  unpaced, IOPS × mean latency (the engine's own average outstanding I/Os) is
//                below 0.9 × TC×QD.
// Paced cells keep fewer I/Os in flight by design; they skip the two depth checks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/cell.h"

namespace pts::engine {

inline constexpr double kIoCountTolerance = 0.01;  ///< relative
inline constexpr double kDepthFloor = 0.9;         ///< share of TC×QD a cell must hold

/// The failed checks for `cell` (codes above), from its own fields.
std::vector<std::string> fidelity_flags(const model::CellResult& cell);

/// One flagged cell as a procedure saw it.
struct FlaggedCell {
  uint32_t round = 0;  ///< 0: not in a Round (WIPC, a single run)
  const model::CellResult* cell = nullptr;
};

/// Deviation text for the flagged cells of sub-test `subtest_id`, grouped by cell id with
/// their Rounds and the worst figure per check; empty when none is flagged.
std::string fidelity_deviation_text(const std::string& subtest_id, const std::vector<FlaggedCell>& cells);

}  // namespace pts::engine
