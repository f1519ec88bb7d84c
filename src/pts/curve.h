// pts/curve.h — the latency-vs-load curve (VDbench's `iorate=curve`; not a SNIA PTS test), run
// side. After the review preconditioning (when planned), the "curve-points" sub-test runs its
// cells once each as one journaled Round: the QD 1 reference, the maximum (unpaced), then every
// point paced at its fraction of the IOPS the maximum achieved, with the plan's arrival process;
// each measured run follows its own warm-up run at the same rate, which no figure uses. A point
// whose mean response time passes the plan's stopcurve limit ends the curve. The findings: the
// peak ("peak N IOPS at M µs"), the QD 1 latency, and per point the offered and achieved rate,
// response time (from each I/O's scheduled arrival) and service time (from its submission).
// May use: core, model, pts.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/run_record.h"
#include "pts/procedure.h"

namespace pts::runner {

class CurveProcedure final : public Procedure {
 public:
  core::Result<StepOutcome> run_subtest(RunContext& ctx, size_t subtest) const override;
};

/// One measured point of a curve as recorded.
struct CurvePoint {
  std::string cell_id;
  double fraction_pct = 0;   ///< of the maximum; 0 for the maximum run itself
  double offered_iops = 0;   ///< 0 for the unpaced runs
  double achieved_iops = 0;
  double response_ns = 0;    ///< mean, from the scheduled arrival (= service when unpaced)
  double service_ns = 0;     ///< mean, from submission
  uint64_t response_p99_ns = 0;
  uint64_t service_p99_ns = 0;
};

/// The fraction of the maximum a curve cell stands for (its warm-up too); nullopt for the QD 1
/// reference and the maximum.
std::optional<double> curve_fraction(const model::CurvePlan& plan, const std::string& cell_id);

/// The measured points of a recorded Round (warm-ups left out), in run order.
std::vector<CurvePoint> curve_points(const model::CurvePlan& plan, const model::RoundRecord& round);

/// The findings of a finished curve.
std::vector<model::Finding> curve_findings(const model::CurvePlan& plan, const std::vector<CurvePoint>& points,
                                           const std::string& stopped);

}  // namespace pts::runner
