// pts/qos.h — the run side of the quality-of-service procedures `pressure` and `neighbour`
// (model/qos_plan.h; config/pressure.cpp, config/neighbour.cpp): purge, the named
// preconditioning (every target filled at once, one multi-job cell with a byte budget per job),
// then one multi-job cell per step, each journaled as its own Round; pressure stops after the
// step where the drive caps out. Findings: per step the write rate achieved and the read jobs'
// latency (mean, 99, 99.9, 99.99, 99.9999 %), the cap; per namespace the readers' figures and
// their average over the quiet namespaces. Neither is a SNIA PTS test.
// May use: core, model, engine (histograms), pts.
#pragma once

#include <vector>

#include "model/qos_plan.h"
#include "model/run_record.h"
#include "pts/procedure.h"

namespace pts::runner {

/// The step index (0-based) at which `rec`'s Rounds capped out: the first whose write jobs
/// achieved less than plan.cap_fraction of the step's target MB/s; nullopt when none did.
std::optional<size_t> qos_cap_step(const model::QosPlan& plan, const model::SubTestRecord& rec);

/// The findings of a finished (or stopped) sub-test.
std::vector<model::Finding> qos_findings(const model::QosPlan& plan, const model::SubTestRecord& rec);

class QosProcedure final : public Procedure {
 public:
  core::Result<StepOutcome> run_subtest(RunContext& ctx, size_t subtest) const override;
};

}  // namespace pts::runner
