// engine/workload.cpp — see workload.h.
#include "engine/workload.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <thread>

#include "core/units.h"

namespace pts::engine {

uint64_t active_range_bytes(const model::AccessSpec& spec, const IoTarget& target) {
  const uint64_t lbs = target.logical_block_bytes ? target.logical_block_bytes : 512;
  const long double bytes = static_cast<long double>(target.size_bytes) * spec.active_range_pct / 100.0L;
  const uint64_t whole = static_cast<uint64_t>(bytes);
  return whole / lbs * lbs;
}

/// Builds the zone list and draw table of a zoned spec over an I/O space of `range` bytes, or
/// says why a zone cannot hold a block of the largest size. With AR segments (p holds them)
/// zone bounds fall on segment bounds, so each zone is a run of whole segments.
static void plan_zones(const model::AccessSpec& spec, uint64_t range, uint32_t max_bs,
                       const std::vector<uint32_t>& sizes, WorkerPlan& p, std::vector<std::string>& errors) {
  const uint64_t seg = p.segment_bytes;
  const auto bounds = model::zone_bounds(spec.zones, range, seg ? static_cast<uint32_t>(seg) : max_bs);
  size_t at = 0;
  for (size_t z = 0; z < spec.zones.size(); ++z) {
    OffsetZone zone;
    zone.start = bounds[z];
    zone.bytes = bounds[z + 1] - bounds[z];
    if (zone.bytes < std::max<uint64_t>(max_bs, seg)) {
      errors.push_back("zone " + std::to_string(z + 1) + " (" + model::zones_text({spec.zones[z]}) + ") covers " +
                       std::to_string(zone.bytes) + " B of the ActiveRange, less than one " +
                       (seg ? "ActiveRange segment" : core::format_block_size(max_bs) + " block"));
      continue;
    }
    if (seg) {
      zone.first_segment = static_cast<uint32_t>(zone.start / seg);
      zone.segment_count = static_cast<uint32_t>(zone.bytes / seg);
    }
    for (uint32_t bytes : sizes) zone.blocks.push_back(zone.bytes / bytes);
    p.zones.push_back(std::move(zone));
    for (uint32_t k = 0; k < spec.zones[z].io_pct && at < p.zone_table.size(); ++k)
      p.zone_table[at++] = static_cast<uint8_t>(z);
  }
}

/// Lays out the client AR segments of `spec` over an ActiveRange of `ar` bytes into `p`;
/// returns the I/O space they make (count × segment bytes), 0 with a message on failure.
static uint64_t plan_segments(const model::AccessSpec& spec, uint64_t ar, uint32_t max_bs,
                              const std::vector<uint32_t>& sizes, WorkerPlan& p, std::vector<std::string>& errors) {
  const model::ArSegmentation& seg = spec.ar_segments;
  if (seg.segment_bytes < max_bs) {
    errors.push_back("ActiveRange segments of " + std::to_string(seg.segment_bytes) + " B are smaller than one " +
                     core::format_block_size(max_bs) + " block");
    return 0;
  }
  auto layout = model::segment_layout(seg, ar);
  if (!layout.ok()) {
    errors.push_back("ActiveRange segments: " + layout.error().message());
    return 0;
  }
  p.segment_starts = std::move(layout.value());
  p.segment_bytes = seg.segment_bytes;
  for (uint32_t bytes : sizes) p.segment_blocks.push_back(seg.segment_bytes / bytes);
  return uint64_t{seg.count} * seg.segment_bytes;
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
  if (!spec.zones.empty() && spec.pattern == model::AccessPattern::Sequential)
    errors.push_back("zones apply to random access only; this spec is sequential");
  if (spec.zones.size() > 100) errors.push_back("at most 100 zones (each needs at least 1 % of the I/Os)");
  for (auto& m : model::zone_problems(spec.zones)) errors.push_back(std::move(m));
  if (!errors.empty()) return core::Error(core::ErrorKind::BadInput, errors);

  const uint32_t max_bs = model::max_block_bytes(spec);
  const bool sequential = spec.pattern == model::AccessPattern::Sequential;
  std::vector<uint32_t> sizes;  // distinct block sizes, in order of first appearance
  for (const auto& s : shares)
    if (std::find(sizes.begin(), sizes.end(), s.bytes) == sizes.end()) sizes.push_back(s.bytes);
  auto size_index = [&](uint32_t bytes) {
    return static_cast<uint32_t>(std::find(sizes.begin(), sizes.end(), bytes) - sizes.begin());
  };
  WorkerPlan shared;  // the zone and segment tables every worker gets
  uint64_t range = active_range_bytes(spec, target);
  if (spec.ar_segments.count > 0) {
    range = plan_segments(spec, range, max_bs, sizes, shared, errors);
    if (!errors.empty()) return core::Error(core::ErrorKind::BadInput, errors);
  }
  // Sequential workers each own a contiguous slice, aligned to the largest block size (with
  // segments: whole segments, so a slice never starts inside one).
  uint64_t slice = range;
  if (sequential)
    slice = spec.ar_segments.count > 0 ? uint64_t{spec.ar_segments.count} / spec.threads * shared.segment_bytes
                                       : range / spec.threads / max_bs * max_bs;
  if (range < max_bs)
    errors.push_back("ActiveRange (" + std::to_string(range) + " B) is smaller than one " + std::to_string(max_bs) + " B block");
  else if (slice < max_bs)
    errors.push_back("ActiveRange too small for " + std::to_string(spec.threads) + " sequential streams of " +
                     std::to_string(max_bs) + " B blocks");
  if (spec.seed == 0) errors.push_back("internal: plan_workers needs a seed");
  if (!spec.stream_start_bytes.empty() && (!sequential || spec.stream_start_bytes.size() != spec.threads))
    errors.push_back("stream start positions: " + std::to_string(spec.stream_start_bytes.size()) +
                     " given for " + (sequential ? std::to_string(spec.threads) + " sequential streams" : "a random spec"));
  for (size_t w = 0; w < spec.stream_start_bytes.size() && w < spec.threads && slice >= max_bs; ++w)
    if (spec.stream_start_bytes[w] % lbs != 0 || spec.stream_start_bytes[w] < slice * w)
      errors.push_back("stream " + std::to_string(w) + " start " + std::to_string(spec.stream_start_bytes[w]) +
                       " B is not a logical block inside its slice starting at " + std::to_string(slice * w) + " B");
  if (!errors.empty()) return core::Error(core::ErrorKind::BadInput, errors);
  if (!spec.zones.empty()) plan_zones(spec, range, max_bs, sizes, shared, errors);
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
    p.stream_start = p.region_start;
    // A carried position at or past the slice end wraps to its start, as the stream would.
    if (w < spec.stream_start_bytes.size() && spec.stream_start_bytes[w] < p.region_start + slice)
      p.stream_start = spec.stream_start_bytes[w];
    p.max_block_bytes = max_bs;
    size_t at = 0;
    for (const auto& s : shares)
      for (uint32_t k = 0; k < s.percent && at < p.block_table.size(); ++k)
        p.block_table[at++] = BlockChoice{s.bytes, slice / s.bytes, size_index(s.bytes)};
    p.zones = shared.zones;
    p.zone_table = shared.zone_table;
    p.segment_starts = shared.segment_starts;
    p.segment_bytes = shared.segment_bytes;
    p.segment_blocks = shared.segment_blocks;
    p.read_threshold = (uint64_t{spec.read_pct} << 32) / 100;
    if (spec.read_pct == 100) p.read_threshold = uint64_t{1} << 32;
    p.trim = spec.trim;
    p.byte_budget = budget_each;
    if (spec.bytes_limit && w == 0) p.byte_budget += spec.bytes_limit % spec.threads;
    p.rate_iops = spec.rate_iops ? static_cast<double>(spec.rate_iops) / spec.threads : 0.0;
    p.arrival = spec.arrival;
    p.seed = spec.seed;
    p.completion_poll_ns =
        completion_poll_ns_for(spec, std::thread::hardware_concurrency());
    p.probe_completion_wait = completion_probe_for(spec, std::thread::hardware_concurrency());
    p.low_depth = uint64_t{spec.threads} * spec.queue_depth <= kLowDepthMaxOio;
    p.submit_each = submit_each_for(spec, std::thread::hardware_concurrency());
  }
  return plans;
}

void shift_plans(std::vector<WorkerPlan>& plans, uint64_t base_bytes) {
  if (base_bytes == 0) return;
  for (WorkerPlan& p : plans) {
    p.region_start += base_bytes;
    p.stream_start += base_bytes;
    for (uint64_t& s : p.segment_starts) s += base_bytes;
  }
}

namespace {
bool low_depth_with_cpus(const model::AccessSpec& spec, unsigned cpus) {
  return uint64_t{spec.threads} * spec.queue_depth <= kLowDepthMaxOio && spec.rate_iops == 0 && spec.threads < cpus;
}
}  // namespace

bool completion_probe_for(const model::AccessSpec& spec, unsigned cpus) {
  return spec.rate_iops == 0 && spec.threads < cpus && spec.poll_budget_ns == model::kPollBudgetAuto;
}

bool submit_each_for(const model::AccessSpec& spec, unsigned cpus) { return spec.threads < cpus; }

uint64_t completion_poll_ns_for(const model::AccessSpec& spec, unsigned cpus) {
  if (!low_depth_with_cpus(spec, cpus) || spec.poll_budget_ns == model::kPollBudgetAuto) return 0;
  return spec.poll_budget_ns;
}

}  // namespace pts::engine
