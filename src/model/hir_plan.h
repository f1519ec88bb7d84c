// model/hir_plan.h — the Host Idle Recovery procedure's own plan (pts/hir.cpp runs it,
// config/hir.cpp resolves it from a definition's [hir] table).
// Durations are already multiplied by TestPlan::time_scale; the spec_* fields keep the unscaled
// values so a report can say what was shortened. May use: core.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pts::model {

/// HIR (PTS-E 1.1 §11): after preconditioning to steady state, per wait state
/// repetitions × (Access A writes + Access B host idle), then Access C: access_c_samples
/// samples of access_c_sample_seconds back to back, no idle (the return to baseline).
struct HirPlan {
  double access_a_seconds = 5;
  double spec_access_a_seconds = 5;
  uint32_t repetitions = 360;
  double access_c_sample_seconds = 5;
  double spec_access_c_sample_seconds = 5;
  uint32_t access_c_samples = 360;
  std::vector<double> wait_seconds;       ///< Access B idle per wait state (scaled)
  std::vector<double> spec_wait_seconds;  ///< 5, 10, 15, 25, 50
  /// What recovery is measured against: "precondition" (the steady-state window average of
  /// the preconditioning) or "preceding-return" (the mean of the Access C before this wait
  /// state; the preconditioning's for the first).
  std::string baseline = "precondition";
};

}  // namespace pts::model
