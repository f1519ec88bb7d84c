// pts/sweep.h — the Iometer-style sweep (not a SNIA PTS test), run side. After the review
// preconditioning (when planned), the "sweep-steps" sub-test runs its cells once each as one
// journaled Round: every step's ramp (which no figure uses), then its measured interval. The
// findings: per step IOPS, mean and 99th-percentile latency, CPU and Little's law (IOPS × mean
// latency against workers × outstanding I/Os), whether every step keeps Little's law, and per
// read share with writes the depth where writes stop climbing (the first doubling of the total
// depth that gains less than the plan's percentage). May use: core, model, pts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/run_record.h"
#include "pts/procedure.h"

namespace pts::runner {

class SweepProcedure final : public Procedure {
 public:
  core::Result<StepOutcome> run_subtest(RunContext& ctx, size_t subtest) const override;
};

/// One measured step as recorded.
struct SweepStep {
  std::string cell_id;
  uint32_t read_pct = 0;
  uint32_t workers = 0;      ///< TC
  uint32_t outstanding = 0;  ///< QD per worker
  double iops = 0;
  double mean_latency_ns = 0;
  uint64_t p99_latency_ns = 0;
  double cpu_pct = 0;        ///< user + system, 100 = one core
  double littles_oio = 0;    ///< IOPS × mean latency
  uint64_t total_depth() const { return uint64_t{workers} * outstanding; }
};

/// The measured steps of a recorded Round (ramps left out), in run order.
std::vector<SweepStep> sweep_steps(const model::RoundRecord& round);

/// The findings of a finished sweep.
std::vector<model::Finding> sweep_findings(const model::SweepPlan& plan, const std::vector<SweepStep>& steps);

}  // namespace pts::runner
