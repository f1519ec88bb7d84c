// model/wsat_plan.h — the Write Saturation procedure's own plan (pts/wsat.cpp runs it,
// config/wsat.cpp resolves it from a definition's [wsat] table).
// Durations are already multiplied by TestPlan::time_scale; the spec_* fields keep the unscaled
// values so a report can say what was shortened. May use: core.
#pragma once

#include <cstdint>
#include <string>

namespace pts::model {

/// WSAT (PTS-E 1.1 §10): samples of the stimulus from FOB until a stop rule.
struct WsatPlan {
  std::string workload;             ///< definition workload id ("write-intensive", "oltp", ...)
  std::string workload_title;
  double max_seconds = 86400;       ///< stop after this much stimulus time (24 h × time_scale)
  double spec_max_seconds = 86400;
  double capacity_multiple = 4;     ///< stop once this many × user capacity has been written
  uint64_t stop_bytes = 0;          ///< capacity_multiple × user capacity
  bool stop_at_steady = false;      ///< also stop at steady state (the option; off by default)
  /// The steady-state option's Round: this many samples, the last of which is tracked (30
  /// samples of the stimulus + 1 steady-state sample; the window is window_rounds such Rounds).
  uint32_t ss_interval_samples = 31;
  uint32_t fob_samples = 5;         ///< FOB plateau = mean IOPS of the first N samples
  double cliff_fraction = 0.5;      ///< cliff = first sample below this fraction of the FOB plateau
  uint32_t plateau_samples = 30;    ///< steady plateau = mean IOPS of the last N samples
};

}  // namespace pts::model
