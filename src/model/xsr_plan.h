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

/// The recovery rule as the record and the report state it (recovery_reference "group1-mean").
inline const char* xsr_recovery_rule() {
  return "Access Group 3 has recovered at its first sample whose MB/s reaches the mean MB/s of every Access "
         "Group 1 sample; the recovery time runs from the start of group 3 to the end of that sample; "
         "\"not recovered\" when no sample of group 3 reaches it";
}

/// XSR (PTS-E 1.1 §12): Access Groups in turn, 1-minute samples.
struct XsrPlan {
  std::vector<XsrGroup> groups;
  /// Group 3 has recovered at its first sample whose throughput reaches this reference:
  /// "group1-mean" (the mean MB/s of every group 1 sample; ADATA's XSR, the one implementation).
  /// No tolerance: a sample below the reference has not recovered.
  std::string recovery_reference = "group1-mean";
};

}  // namespace pts::model
