// model/job.h — one job of a multi-job cell: an access spec (TC × QD, rate) on one of the
// cell's targets, over an LBA range of it. A multi-job cell starts every job together and
// measures them over one interval on one clock (engine::IoEngine::run_jobs); each job keeps
// its own CellResult and the cell its combined figures (model/cell.h). Plus the rules a
// set of jobs must keep before any I/O: ranges inside their targets, and no two jobs on
// overlapping ranges of one target when either writes, unless the operator allows it.
// May use: core.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/access_spec.h"

namespace pts::model {

struct JobSpec {
  std::string id;             ///< its name in the cell, unique there ("read", "ns3")
  uint32_t target = 0;        ///< index into the engine's targets
  uint64_t offset_bytes = 0;  ///< start of its range on the target (a multiple of the logical block)
  uint64_t size_bytes = 0;    ///< length of its range; 0 = to the end of the target
  AccessSpec spec;            ///< the ActiveRange is a share of the range, from its start
};

/// What a job set is checked against: each target's size and logical block.
struct JobTargetSize {
  uint64_t size_bytes = 0;
  uint32_t logical_block_bytes = 512;
};

/// The range a job covers on its target: [offset, offset + length), length resolved from
/// size_bytes 0 (to the end).
uint64_t job_range_bytes(const JobSpec& job, const JobTargetSize& target);

/// Every problem of a job set at once, in words: a target index out of range, a range not
/// aligned or outside its target, duplicate or empty ids, timed jobs that do not share one
/// duration (they run over one interval; or every job has a byte budget: a fill, each job
/// stopping at its own), and two jobs whose
/// ranges overlap on one target where either writes, unless `allow_overlap`.
std::vector<std::string> job_problems(const std::vector<JobSpec>& jobs, const std::vector<JobTargetSize>& targets,
                                      bool allow_overlap);

/// The largest write rate (IOPS) a job can issue: TC × QD I/Os in flight, each taking at least
/// `min_io_ns` (0: unknown, no bound). The engines pace a job at spec.rate_iops; a rate the
/// queue cannot carry would be measured as a cap that is the definition's, not the drive's.
double max_issue_rate_iops(const AccessSpec& spec, double min_io_ns);

}  // namespace pts::model
