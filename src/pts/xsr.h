// pts/xsr.h — the Cross Stimulus Recovery procedure (PTS-E 1.1 §12): purge, no WIPC, then
// the Access Groups in turn (large SEQ writes, small RND writes, large SEQ writes), one sample
// per Round, each group until its duration is spent. Findings: each group's throughput at its
// end (last sample), ART and MRT peaks (the peers' group table), group 1's mean MB/s (the
// recovery reference) and the recovery time of group 3 by model::xsr_recovery_rule(), or
// "not recovered" — a finding about the drive, never a failure of the run. May use: core,
// model, pts.
#pragma once

#include <vector>

#include "model/plan.h"
#include "model/run_record.h"
#include "pts/procedure.h"

namespace pts::runner {

class XsrProcedure final : public Procedure {
 public:
  core::Result<StepOutcome> run_subtest(RunContext& ctx, size_t subtest) const override;
};

/// The group whose turn it is after the samples of `rec` (index into plan.groups), or
/// groups.size() when every group has had its time. A group's time counts its samples'
/// measured seconds.
size_t xsr_current_group(const model::XsrPlan& plan, const model::SubTestRecord& rec);

/// The group table and the recovery time, from every sample of `rec` in order.
std::vector<model::Finding> xsr_findings(const model::XsrPlan& plan, const model::SubTestRecord& rec);

}  // namespace pts::runner
