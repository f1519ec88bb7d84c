// config/qos_jobs.h — internal to config/: what the two quality-of-service procedures
// (pressure.cpp, neighbour.cpp; model/qos_plan.h) read alike from their tables — a job role
// (workload, TC, QD, a paced rate, an LBA range), the named preconditioning — and the checks
// they share: a write rate TC × QD cannot issue, and jobs that overlap where one writes.
// Included by config/*.cpp only.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/procedure.h"
#include "config/toml_reader.h"
#include "model/qos_plan.h"

namespace pts::config::detail {

/// One job role of a table: "<prefix>_workload", "_threads", "_queue_depth", "_rate_iops",
/// "_range_pct" ([start, end] % of the target's LBAs).
struct QosRole {
  std::string workload;
  uint32_t threads = 1;
  uint32_t queue_depth = 1;
  uint64_t rate_iops = 0;  ///< 0: unpaced
  double range_start_pct = 0, range_end_pct = 100;
  int line = 0;
};

/// The keys a role reads, for only_keys().
std::vector<std::string> qos_role_keys(const std::string& prefix);
/// Reads role `prefix` from `r` (the workload required).
QosRole read_qos_role(TableReader& r, const std::string& prefix);

/// The named preconditionings ("pts-wipc": SEQ 128 KiB writes of 2 × each target's capacity, all
/// targets at once, after the purge; "none").
std::optional<std::string> read_precondition(TableReader& r);
std::string precondition_words(const std::string& name);

/// The role as a job on target `target` of capacity `capacity` bytes ([start, end] % of it,
/// whole MiB), for one step of `seconds`.
model::JobSpec qos_job(ResolveCtx& c, const QosRole& role, const std::string& id, uint32_t target,
                       uint64_t capacity, double seconds);

/// A write rate (IOPS) above what `role`'s TC × QD can issue when each write takes at least
/// `floor_us`: the message at the definition's line; "" when it can.
std::string rate_problem(const ResolveCtx& c, const QosRole& role, double rate_iops, double floor_us,
                         const std::string& what);

/// The sub-test every QoS plan runs: one cell per step (their combined spec shown), purge
/// as the definition says.
model::SubTestPlan qos_subtest(ResolveCtx& c, const model::QosPlan& plan, const std::string& title);

/// Worst case and `plan` text of that sub-test.
SubtestWorstCase qos_worst_case(const model::TestPlan& plan, const model::SubTestPlan& sub);
SubtestText qos_describe(const model::TestPlan& plan, const model::SubTestPlan& sub);

}  // namespace pts::config::detail
