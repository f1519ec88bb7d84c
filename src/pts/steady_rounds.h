// pts/steady_rounds.h — the generic PTS round procedure (IOPS, Throughput, Latency):
// Purge → VerifyPurge → WIPC → Round(n) → SteadyCheck → … → Done. Cells run back to back;
// each cell is journaled before the next starts; the stop rule is "first round whose
// Measurement Window is steady", else the round cap (unless continue_past_max), and the
// window reported is x−4 … x of that round. May use: core, model, device, steady, pts.
#pragma once

#include <functional>

#include "pts/procedure.h"

namespace pts::runner {

/// Adds what a procedure derives from a finished sub-test (findings) to its summary before
/// the summary is journaled. Empty = nothing to add.
using SummaryHook = std::function<core::Status(RunContext&, size_t subtest, model::SubTestRecord& summary)>;

/// The steady-Rounds procedure for sub-test `i` (purge, WIPC when planned, Rounds until
/// steady or the cap), usable by the other procedures for their preconditioning and
/// sweep sub-tests; `on_finish` runs once the Rounds end.
core::Result<StepOutcome> run_steady_rounds(RunContext& ctx, size_t i, const SummaryHook& on_finish = {});

/// The seed of one cell of one Round, derived from the operator's seed (never repeated per
/// Round, reproducible run to run).
uint64_t cell_seed(uint64_t base, size_t subtest, uint32_t round, size_t cell);

class SteadyRoundsProcedure final : public Procedure {
 public:
  core::Result<StepOutcome> run_subtest(RunContext& ctx, size_t subtest) const override;
};

}  // namespace pts::runner
