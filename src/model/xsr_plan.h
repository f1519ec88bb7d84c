// model/xsr_plan.h — the Cross Stimulus Recovery procedure's own plan (pts/xsr.cpp runs it,
// config/xsr.cpp resolves it from a definition's [xsr] table).
// Durations are already multiplied by TestPlan::time_scale; the spec_* fields keep the unscaled
// values so a report can say what was shortened. May use: core.
#pragma once

#include <string>
#include <vector>

namespace pts::model {

/// One XSR Access Group: the cell it runs (in the sub-test's cells) and for how long.
struct XsrGroup {
  std::string cell_id;
  double seconds = 0;
  double spec_seconds = 0;
};

/// XSR (PTS-E 1.1 §12): Access Groups in turn, 1-minute samples.
struct XsrPlan {
  std::vector<XsrGroup> groups;
  /// Group 3 has recovered at its first sample whose throughput reaches this reference:
  /// "group1-mean" (the mean MB/s of every group 1 sample).
  std::string recovery_reference = "group1-mean";
  /// ... or comes within this fraction below it (0.05: 95 % of the reference). Group 1's mean
  /// holds its FOB samples, which a drive's steady sequential rate never reaches again.
  double recovery_tolerance = 0.05;
};

}  // namespace pts::model
