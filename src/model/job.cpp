// model/job.cpp — see job.h.
#include "model/job.h"

#include <algorithm>
#include <set>

namespace pts::model {

uint64_t job_range_bytes(const JobSpec& job, const JobTargetSize& target) {
  if (job.offset_bytes >= target.size_bytes) return 0;
  const uint64_t rest = target.size_bytes - job.offset_bytes;
  return job.size_bytes == 0 ? rest : (job.size_bytes < rest ? job.size_bytes : rest);
}

std::vector<std::string> job_problems(const std::vector<JobSpec>& jobs, const std::vector<JobTargetSize>& targets,
                                      bool allow_overlap) {
  std::vector<std::string> e;
  std::set<std::string> ids;
  if (jobs.empty()) e.push_back("a multi-job cell needs at least one job");
  for (const JobSpec& j : jobs) {
    const std::string name = "job " + (j.id.empty() ? std::string("(unnamed)") : "\"" + j.id + "\"");
    if (j.id.empty()) e.push_back(name + ": needs an id");
    else if (!ids.insert(j.id).second) e.push_back(name + ": the id is used twice");
    if (j.target >= targets.size()) {
      e.push_back(name + ": target " + std::to_string(j.target + 1) + " is not one of the cell's " +
                  std::to_string(targets.size()) + " target(s)");
      continue;
    }
    const JobTargetSize& t = targets[j.target];
    const uint32_t lbs = t.logical_block_bytes ? t.logical_block_bytes : 512;
    if (j.offset_bytes % lbs || j.size_bytes % lbs)
      e.push_back(name + ": its range (offset " + std::to_string(j.offset_bytes) + " B, size " +
                  std::to_string(j.size_bytes) + " B) is not in whole logical blocks of " + std::to_string(lbs) + " B");
    if (j.offset_bytes >= t.size_bytes || (j.size_bytes && j.offset_bytes + j.size_bytes > t.size_bytes))
      e.push_back(name + ": its range (offset " + std::to_string(j.offset_bytes) + " B, size " +
                  std::to_string(j.size_bytes) + " B) does not lie inside target " + std::to_string(j.target + 1) +
                  " (" + std::to_string(t.size_bytes) + " B)");
    if ((j.spec.bytes_limit != 0) != (jobs.front().spec.bytes_limit != 0))
      e.push_back(name + ": the cell's jobs are either all timed or all byte-limited (a fill), not mixed");
    else if (!j.spec.bytes_limit && j.spec.seconds != jobs.front().spec.seconds)
      e.push_back(name + ": runs " + std::to_string(j.spec.seconds) + " s, but the cell's jobs run over one interval (" +
                  std::to_string(jobs.front().spec.seconds) + " s)");
  }
  if (!allow_overlap)
    for (size_t a = 0; a < jobs.size(); ++a)
      for (size_t b = a + 1; b < jobs.size(); ++b) {
        const JobSpec &x = jobs[a], &y = jobs[b];
        if (x.target != y.target || x.target >= targets.size()) continue;
        if (x.spec.read_pct == 100 && y.spec.read_pct == 100) continue;  // two readers disturb no data
        const uint64_t xe = x.offset_bytes + job_range_bytes(x, targets[x.target]);
        const uint64_t ye = y.offset_bytes + job_range_bytes(y, targets[y.target]);
        if (x.offset_bytes < ye && y.offset_bytes < xe)
          e.push_back("jobs \"" + x.id + "\" and \"" + y.id + "\" overlap on target " + std::to_string(x.target + 1) +
                      " (bytes " + std::to_string(std::max(x.offset_bytes, y.offset_bytes)) + " to " +
                      std::to_string(std::min(xe, ye)) + ") and one of them writes: give them separate ranges, or "
                      "--allow-overlap");
      }
  return e;
}

double max_issue_rate_iops(const AccessSpec& spec, double min_io_ns) {
  if (!(min_io_ns > 0)) return 0;
  return static_cast<double>(spec.threads) * spec.queue_depth * 1e9 / min_io_ns;
}

}  // namespace pts::model
