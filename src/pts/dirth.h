// pts/dirth.h — the Demand Intensity / Response Time Histogram procedure (PTS-E 1.1 §13), also
// run by ECW (§14) with its composite workload. Sub-test "precondition" and the sweep run as
// steady Rounds (the sweep's Round: a pre-write, then every TC × QD point; TC = threads, QD =
// outstanding I/Os per thread). When the sweep ends, MaxIOPS / MidIOPS / MinIOPS are chosen
// from its Measurement Window means and stored as findings; each histogram sub-test then runs
// a pre-write and a capture at its point's TC/QD (or is skipped, with the reason, when the
// sweep found no such point). May use: core, model, pts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/plan.h"
#include "model/run_record.h"
#include "pts/procedure.h"

namespace pts::runner {

class DirthProcedure final : public Procedure {
 public:
  core::Result<StepOutcome> run_subtest(RunContext& ctx, size_t subtest) const override;
};

/// One sweep point as measured over the sweep's Measurement Window.
struct DemandPoint {
  std::string cell_id;
  uint32_t threads = 0;      ///< TC
  uint32_t queue_depth = 0;  ///< QD per thread
  double iops = 0;
  double art_ns = 0;
};

/// MaxIOPS, MidIOPS, MinIOPS and why one is missing.
struct DemandSelection {
  std::optional<DemandPoint> max, mid, min;
  std::string max_why, mid_why, min_why;  ///< set when the point is missing
};

/// Chooses the three points from the grid: MaxIOPS = highest IOPS with ART ≤ the ceiling
/// (ties: the lower total OIO); MinIOPS = the lowest TC at the lowest QD; MidIOPS = the point
/// (under the ceiling for "closest-to-midpoint-under-ceiling") whose IOPS is closest to
/// (MaxIOPS + MinIOPS) / 2 (ties: the lower total OIO).
DemandSelection select_demand_points(const model::DirthPlan& plan, const std::vector<DemandPoint>& grid);

/// The sweep points of sub-test `sweep` of `record` with their window means.
std::vector<DemandPoint> demand_points(const model::RunRecord& record, size_t sweep,
                                       const std::vector<model::CellWindowResult>& window);

/// Findings for a selection ("max_iops", "max_tc", "max_qd", "max_art_ms", … for max, mid, min).
std::vector<model::Finding> selection_findings(const model::DirthPlan& plan, const DemandSelection& s);

}  // namespace pts::runner
