// pts/steady_rounds.h — the generic PTS round procedure (IOPS, Throughput, Latency):
// Purge → VerifyPurge → WIPC → Round(n) → SteadyCheck → … → Done. Cells run back to back;
// each cell is journaled before the next starts; the stop rule is "first round whose
// Measurement Window is steady", else the round cap (unless continue_past_max), and the
// window reported is x−4 … x of that round. May use: core, model, device, steady, pts.
#pragma once

#include "pts/procedure.h"

namespace pts::runner {

class SteadyRoundsProcedure final : public Procedure {
 public:
  const char* name() const override { return "steady-rounds"; }
  core::Result<StepOutcome> run_subtest(RunContext& ctx, size_t subtest) const override;
};

}  // namespace pts::runner
