// config/resolved_plan.h — what plan resolution produces: the plan ready to run, what in it
// departs from the spec, and the notes `plan` and the report print beside it. May use: model.
#pragma once

#include <string>
#include <vector>

#include "model/plan.h"
#include "model/run_record.h"

namespace pts::config {

/// A plan ready to run, and what in it departs from the spec.
struct ResolvedPlan {
  model::TestPlan plan;
  std::vector<model::Deviation> deviations;
  /// Plain-words notes that are not deviations (e.g. "TC/QD: PTS-E 1.1 leaves it to the
  /// operator; ptsuite default TC 4 / QD 32"). Shown by `plan` and on the report.
  std::vector<std::string> notes;
};

}  // namespace pts::config
