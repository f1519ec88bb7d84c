// pts/hir.h — the Host Idle Recovery procedure (PTS-E 1.1 §11). Sub-test "precondition" runs
// as steady Rounds (purge, RND 4 KiB writes to steady state). Each wait-state sub-test then
// runs Round r = Access A (the stimulus for access_a_seconds) followed by Access B (host idle
// for the wait state's seconds: nothing is submitted, the engine's counters around it are
// journaled with the Round's end), repetitions times; then access_c_samples Rounds each holding
// one Access C sample of access_c_sample_seconds, back to back with no idle (the return to
// baseline as ADATA runs it: 360 × 5 s). Idle goes through the run's clock, so it is
// real time on a drive and virtual time on a simulated one. Findings: the baseline, the mean
// Access A IOPS, their ratio (the recovery the idle bought), Access C (mean and last sample)
// against the baseline and whether every idle period saw no I/O. May use: core, model, pts.
#pragma once

#include <optional>
#include <vector>

#include "model/run_record.h"
#include "pts/procedure.h"

namespace pts::runner {

class HirProcedure final : public Procedure {
 public:
  core::Result<StepOutcome> run_subtest(RunContext& ctx, size_t subtest) const override;
};

/// The baseline IOPS wait state `w` (role_index) is measured against, from the record so far:
/// the preconditioning's steady-state window average, or (baseline = "preceding-return") the
/// previous wait state's mean Access C IOPS. nullopt when the record does not hold it.
std::optional<double> hir_baseline(const model::RunRecord& record, size_t wait_subtest);

/// The findings of one finished wait state from its Rounds.
std::vector<model::Finding> hir_findings(const model::RunRecord& record, size_t wait_subtest);

}  // namespace pts::runner
