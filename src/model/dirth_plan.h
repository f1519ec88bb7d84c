// model/dirth_plan.h — the Demand Intensity / Response Time Histogram procedure's own plan
// (pts/dirth.cpp runs it, config/dirth.cpp resolves it from a definition's [dirth] table; ECW's
// definition runs this procedure too).
// Durations are already multiplied by TestPlan::time_scale; the spec_* fields keep the unscaled
// values so a report can say what was shortened. May use: core.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pts::model {

/// DIRTH (PTS-E 1.1 §13) and ECW (§14): preconditioning, the TC × QD sweep in steady Rounds,
/// MaxIOPS / MidIOPS / MinIOPS, a response-time histogram at each.
struct DirthPlan {
  std::vector<uint32_t> thread_counts;  ///< TC = worker threads
  std::vector<uint32_t> queue_depths;   ///< QD = outstanding I/Os per thread (never swapped)
  std::string sweep_order = "toio-descending";  ///< or "tc-outer"
  double art_ceiling_ns = 5e6;          ///< MaxIOPS: highest IOPS whose ART is at most this
  double round_prewrite_seconds = 300;  ///< pre-write before each sweep Round (scaled)
  double spec_round_prewrite_seconds = 300;
  double histogram_prewrite_seconds = 3600;
  double spec_histogram_prewrite_seconds = 3600;
  double histogram_seconds = 600;
  double spec_histogram_seconds = 600;
  /// MidIOPS: the point under the ceiling whose IOPS is closest to (MaxIOPS + MinIOPS) / 2.
  std::string mid_rule = "closest-to-midpoint-under-ceiling";
};

}  // namespace pts::model
