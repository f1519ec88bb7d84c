// pts/xsr.h — the Cross Stimulus Recovery procedure (PTS-E 1.1 §12): purge, no WIPC, then
// the Access Groups in turn (large SEQ writes, small RND writes, large SEQ writes), one sample
// per Round, each group until its duration is spent. Findings: each group's mean MB/s, ART
// and MRT and the recovery time of group 3 (from its start to its first sample reaching
// group 1's mean MB/s). May use: core, model, pts.
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

/// Per-group means and the recovery time, from every sample of `rec` in order.
std::vector<model::Finding> xsr_findings(const model::XsrPlan& plan, const model::SubTestRecord& rec);

}  // namespace pts::runner
