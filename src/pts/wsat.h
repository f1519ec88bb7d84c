// pts/wsat.h — the Write Saturation procedure (PTS-E 1.1 §10): purge, no WIPC, then samples of
// the stimulus back to back (one cell per record Round) until the stop rule — 4 × user capacity
// written or the test period of stimulus, whichever first (or, with the option on, steady state:
// judged on Rounds of ss_interval_samples samples, each tracked on its last sample, as
// CloudHarmony and ADATA do; docs/pts-rules.md). At the end it states the FOB plateau, the write
// cliff and the steady plateau as findings, so the report marks them without recomputing.
// May use: core, model, steady, pts.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/cell.h"
#include "model/plan.h"
#include "model/verdict.h"
#include "pts/procedure.h"

namespace pts::runner {

class WsatProcedure final : public Procedure {
 public:
  core::Result<StepOutcome> run_subtest(RunContext& ctx, size_t subtest) const override;
};

/// The steady-state verdict (the option) after steady-state Round `round` — samples
/// (round − 1)·N + 1 … round·N with N = ss_interval_samples — over the window of Rounds
/// round − window_rounds + 1 … round, each Round's value its last sample's Tracking Variable.
/// The verdict's and its windows' round numbers count these Rounds, not samples. nullopt when
/// round < window_rounds, `samples` are too few or the sub-test tracks nothing.
std::optional<model::SteadyStateVerdict> wsat_interval_verdict(const model::TestPlan& plan,
                                                              const model::SubTestPlan& sub,
                                                              const std::vector<model::CellResult>& samples,
                                                              size_t round);

/// The findings that state a steady-state verdict (the option): window average, excursions.
std::vector<model::Finding> wsat_steady_findings(const model::WsatPlan& plan, const model::SteadyStateVerdict& v);

/// Why the samples so far end WSAT ("" = run another): `samples` > 0 and the bytes they wrote
/// ≥ stop_bytes, or their stimulus seconds ≥ max_seconds, or (stop_at_steady) the last
/// sample's window was steady.
std::string wsat_stop_reason(const model::WsatPlan& plan, size_t samples, uint64_t bytes_written,
                             double stimulus_seconds, bool last_window_steady);

/// The findings of a finished WSAT: samples, bytes, drive fills, FOB plateau, cliff, steady
/// plateau (with its ART, 5 nines and MRT) and their ratio, and the stop reason.
std::vector<model::Finding> wsat_findings(const model::WsatPlan& plan, const std::vector<model::CellResult>& samples,
                                          uint64_t capacity_bytes, const std::string& stop_reason);

}  // namespace pts::runner
