// config/advanced_resolver.h — plan resolution for the advanced tests (WSAT, HIR, XSR,
// DIRTH/ECW): their sub-tests and cells from the definition's workloads, the procedure
// parameters scaled by --time-scale, every departure from the spec as a deviation and every
// reading of an unconfirmed detail as an interpretation; plus their worst-case durations and
// plain-words phase descriptions for `ptsuite plan`. Pure. May use: core, model.
#pragma once

#include <string>
#include <vector>

#include "config/definition.h"
#include "config/plan_resolver.h"
#include "config/run_options.h"
#include "model/device.h"
#include "model/plan.h"

namespace pts::config {

/// Fills r.plan's sub-tests and procedure parameters for an advanced definition (after the
/// common settings are resolved into r.plan). Problems go to `errors`.
void resolve_advanced(const TestDefinition& d, const ClassSettings& cs, const RunOptions& o,
                      const model::DeviceIdentity& id, ResolvedPlan& r, std::vector<std::string>& errors);

/// Worst case of one sub-test of an advanced plan.
struct SubtestWorstCase {
  double seconds = 0;
  std::string how;  ///< e.g. "until 4 × capacity is written or 24 h, whichever first"
};
SubtestWorstCase advanced_worst_case(const model::TestPlan& plan, const model::SubTestPlan& sub);

/// What one sub-test of an advanced plan does, one line per phase, for `ptsuite plan`.
std::vector<std::string> describe_advanced_subtest(const model::TestPlan& plan, const model::SubTestPlan& sub);

}  // namespace pts::config
