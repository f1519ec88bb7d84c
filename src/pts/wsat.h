// pts/wsat.h — the Write Saturation procedure (PTS-E 1.1 §10): purge, no WIPC, then samples of
// the stimulus back to back (one cell per Round) until the stop rule — 4 × user capacity
// written or 24 h of stimulus, whichever first (or, as the PTS 2.0 option, the first steady
// window). At the end it states the FOB plateau, the write cliff and the steady plateau as
// findings, so the report marks them without recomputing. May use: core, model, steady, pts.
#pragma once

#include <string>
#include <vector>

#include "model/cell.h"
#include "model/plan.h"
#include "pts/procedure.h"

namespace pts::runner {

class WsatProcedure final : public Procedure {
 public:
  core::Result<StepOutcome> run_subtest(RunContext& ctx, size_t subtest) const override;
};

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
