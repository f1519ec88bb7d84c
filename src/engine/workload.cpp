// engine/workload.cpp — see workload.h.
#include "engine/workload.h"

#include <thread>
#include <string>

namespace pts::engine {

uint64_t active_range_bytes(const model::AccessSpec& spec, const IoTarget& target) {
  const uint64_t lbs = target.logical_block_bytes ? target.logical_block_bytes : 512;
  const long double bytes = static_cast<long double>(target.size_bytes) * spec.active_range_pct / 100.0L;
  const uint64_t whole = static_cast<uint64_t>(bytes);
  return whole / lbs * lbs;
}

static std::vector<model::BlockSizeShare> shares_of(const model::AccessSpec& spec) {
  if (!spec.bs_split.empty()) return spec.bs_split;
  return {model::BlockSizeShare{spec.block_bytes, 100}};
}

core::Result<std::vector<WorkerPlan>> plan_workers(const model::AccessSpec& spec, const IoTarget& target) {
  std::vector<std::string> errors;
  const uint32_t lbs = target.logical_block_bytes ? target.logical_block_bytes : 512;
  const auto shares = shares_of(spec);
  uint32_t percent_sum = 0;
  for (const auto& s : shares) {
    percent_sum += s.percent;
    if (s.bytes == 0 || s.bytes % lbs != 0)
      errors.push_back("block size " + std::to_string(s.bytes) + " B is not a multiple of the target's logical block size (" +
                       std::to_string(lbs) + " B)");
  }
  if (percent_sum != 100) errors.push_back("block-size shares sum to " + std::to_string(percent_sum) + "%, not 100%");
  if (spec.threads == 0) errors.push_back("threads must be at least 1");
  if (spec.queue_depth == 0) errors.push_back("queue depth must be at least 1");
  if (spec.read_pct > 100) errors.push_back("read percentage above 100");
  if (spec.active_range_pct <= 0 || spec.active_range_pct > 100) errors.push_back("ActiveRange must be in (0, 100] %");
  if (!errors.empty()) return core::Error(core::ErrorKind::BadInput, errors);

  const uint32_t max_bs = model::max_block_bytes(spec);
  const uint64_t range = active_range_bytes(spec, target);
  const bool sequential = spec.pattern == model::AccessPattern::Sequential;
  // Sequential workers each own a contiguous slice, aligned to the largest block size.
  const uint64_t slice = sequential ? range / spec.threads / max_bs * max_bs : range;
  if (range < max_bs)
    errors.push_back("ActiveRange (" + std::to_string(range) + " B) is smaller than one " + std::to_string(max_bs) + " B block");
  else if (slice < max_bs)
    errors.push_back("ActiveRange too small for " + std::to_string(spec.threads) + " sequential streams of " +
                     std::to_string(max_bs) + " B blocks");
  if (spec.seed == 0) errors.push_back("internal: plan_workers needs a seed");
  if (!errors.empty()) return core::Error(core::ErrorKind::BadInput, errors);

  std::vector<WorkerPlan> plans(spec.threads);
  const uint64_t budget_each = spec.bytes_limit ? spec.bytes_limit / spec.threads : UINT64_MAX;
  for (uint32_t w = 0; w < spec.threads; ++w) {
    WorkerPlan& p = plans[w];
    p.worker_index = w;
    p.queue_depth = spec.queue_depth;
    p.sequential = sequential;
    p.region_start = sequential ? slice * w : 0;
    p.region_bytes = slice;
    p.max_block_bytes = max_bs;
    size_t at = 0;
    for (const auto& s : shares)
      for (uint32_t k = 0; k < s.percent && at < p.block_table.size(); ++k)
        p.block_table[at++] = BlockChoice{s.bytes, slice / s.bytes};
    p.read_threshold = (uint64_t{spec.read_pct} << 32) / 100;
    if (spec.read_pct == 100) p.read_threshold = uint64_t{1} << 32;
    p.byte_budget = budget_each;
    if (spec.bytes_limit && w == 0) p.byte_budget += spec.bytes_limit % spec.threads;
    p.rate_iops = spec.rate_iops ? static_cast<double>(spec.rate_iops) / spec.threads : 0.0;
    p.seed = spec.seed;
    p.completion_poll_ns = completion_poll_ns_for(spec, std::thread::hardware_concurrency());
  }
  return plans;
}

uint64_t completion_poll_ns_for(const model::AccessSpec& spec, unsigned cpus) {
  const bool low_depth = spec.queue_depth <= kLowDepthMaxQd && spec.rate_iops == 0;
  return low_depth && spec.threads < cpus ? kLowDepthPollNs : 0;
}

}  // namespace pts::engine
