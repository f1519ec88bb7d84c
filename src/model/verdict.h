// model/verdict.h — the steady-state determination with every number an auditor needs.
// Produced by steady/, stored by results/, drawn by report/. May use: core.
#pragma once

#include <cstdint>
#include <vector>

#include "model/plan.h"

namespace pts::model {

/// One Measurement Window of one series, assessed against the two criteria.
struct WindowAssessment {
  uint32_t first_round = 0;  ///< x − 4 (1-based round numbers)
  uint32_t last_round = 0;   ///< x
  std::vector<double> values;
  double average = 0;
  double slope = 0;          ///< least-squares b in y = b·round + a
  double intercept = 0;      ///< a
  double data_excursion = 0;          ///< max − min
  double slope_excursion = 0;         ///< |b| × (last − first)
  double allowed_data_excursion = 0;  ///< 20 % of average
  double allowed_slope_excursion = 0; ///< 10 % of average
  bool data_ok = false;
  bool slope_ok = false;
  bool steady = false;       ///< data_ok && slope_ok
};

/// The window of one Tracking Variable.
struct TrackingVerdict {
  TrackingVariable variable;
  WindowAssessment window;
};

/// Verdict after a round: steady only if every Tracking Variable passes in the same window.
struct SteadyStateVerdict {
  uint32_t round = 0;
  bool steady = false;
  std::vector<TrackingVerdict> variables;
};

}  // namespace pts::model
