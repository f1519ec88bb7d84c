// config/review_common.h — internal to config/: what the review-lab procedures (curve.cpp,
// sweep.cpp) share: the keys of their tables that say where a profile comes from (its source,
// whether it is an approximation built from a description, what the lab's "threads" means as
// TC × QD) and which preconditioning runs first (`review`: the labs' own, or `none`), and the
// review preconditioning sub-test built from them. Included by config/*.cpp only.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "config/procedure.h"
#include "model/review_plan.h"

namespace pts::config::detail {

/// The keys [curve] and [sweep] share.
struct ReviewKeys {
  std::string preconditioning = "none";  ///< "review" or "none"
  double review_seq_minutes = 60;
  double review_random_minutes = 60;
  std::string source;
  bool approximation = false;
  std::string threads_meaning;
  int line = 0;
};

/// Their names, for TableReader::only_keys.
const std::vector<std::string_view>& review_key_names();

/// Reads them from the procedure's table (`source` is required: every profile states it).
void read_review_keys(TableReader& r, ReviewKeys& k);


/// Worst case and `plan` text of the review preconditioning sub-test.
SubtestWorstCase review_worst_case(const model::TestPlan& plan, const model::SubTestPlan& sub);
SubtestText describe_review(const model::TestPlan& plan, const model::SubTestPlan& sub);

/// What both rows do first: the test's name for labels ("CURVE-SQL"), the readings that say it
/// is not a SNIA PTS test and where its profile comes from, and the review preconditioning (its
/// sub-test appended first, when asked for).
struct ReviewStart {
  std::string name;
  model::ProfileSource profile;
  model::ReviewPreconditionPlan review;
};
ReviewStart start_review(ResolveCtx& c, const ReviewKeys& k, const WorkloadDef& w);

}  // namespace pts::config::detail
