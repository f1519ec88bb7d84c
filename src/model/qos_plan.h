// model/qos_plan.h — the plan of the quality-of-service procedures under contention, `pressure`
// (reads while writes are paced at rising bandwidth steps) and `neighbour` (reads on quiet
// namespaces while others write), resolved by config/pressure.cpp and config/neighbour.cpp and
// run by pts/qos.cpp. Neither is a SNIA PTS test: their records and reports say so. Each step is
// one multi-job cell (model/job.h), run as one Round. May use: core.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/job.h"
#include "model/review_plan.h"

namespace pts::model {

/// One step: a multi-job cell.
struct QosStep {
  std::string id;                 ///< the cell id, e.g. "w300" or "writers-on"
  std::string label;              ///< "writes paced at 300 MB/s"
  double write_mbps_target = 0;   ///< pressure: the write rate asked for (MB/s, 10^6 B/s); 0 = none
  std::vector<JobSpec> jobs;      ///< targets index QosPlan::namespaces (or the run's one target)
};

struct QosPlan {
  std::string kind;               ///< "pressure" or "neighbour"
  /// The cell's targets: NSIDs of the run target's controller, in order (neighbour); empty =
  /// the run's one target (pressure).
  std::vector<uint32_t> namespaces;
  std::vector<QosStep> steps;
  std::vector<std::string> read_jobs;   ///< ids of the jobs whose read latency is reported
  std::vector<std::string> write_jobs;  ///< ids of the jobs that write
  /// pressure: a step is capped when its achieved write MB/s is below this share of the target
  /// while the test asks for more; the steps after it do not run (the line stops there).
  double cap_fraction = 0.95;
  double write_latency_floor_us = 0;    ///< the bound a write rate is checked against (TC × QD / floor)
  std::string preconditioning;          ///< the named preconditioning, in words
  bool allow_overlap = false;           ///< jobs may share LBAs where one writes (definition key)
  /// Where the test comes from (the definition's `source`): the report names it in its "not a
  /// SNIA PTS test" banner, as it does for the review-lab workloads.
  ProfileSource profile;
};

}  // namespace pts::model
