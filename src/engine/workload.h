// engine/workload.h — turns an AccessSpec and a target into per-worker plans before any I/O
// starts, so the hot loop only reads precomputed tables (no configuration branches): the
// block-size table, the read threshold, the worker's region of the ActiveRange, the zones of
// a zoned random distribution, the client ActiveRange segments, its byte budget and its
// pacing rate. Also the offset
// generators the loop is instantiated with (the io_uring engine and the simulated drive use
// the same ones). May use: core, model, engine/rng.h.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/result.h"
#include "engine/io_engine.h"
#include "engine/rate_pacer.h"
#include "engine/rng.h"
#include "model/access_spec.h"

namespace pts::engine {

/// One entry of the per-draw block-size table: the size and how many blocks of that size
/// fit in the worker's region (precomputed so the loop never divides).
struct BlockChoice {
  uint32_t bytes = 0;
  uint64_t blocks_in_region = 0;
  uint32_t size_index = 0;  ///< index of this size in OffsetZone::blocks
};

/// One zone of a zoned random distribution, as byte offsets: I/Os drawn into it land
/// uniformly on whole blocks in [start, start + bytes). `blocks[i]` is how many blocks of the
/// i-th distinct size (BlockChoice::size_index) fit. Zone starts are multiples of the largest
/// block size, so every size that divides it stays aligned to itself as in the uniform case
/// (odd sizes such as 3.5 KiB are whole blocks from the zone start, LBA-aligned).
/// With AR segments, zones are whole segments: [first_segment, first_segment + segment_count).
struct OffsetZone {
  uint64_t start = 0;
  uint64_t bytes = 0;
  std::vector<uint64_t> blocks;
  uint32_t first_segment = 0;
  uint32_t segment_count = 0;
};

/// Everything one worker needs for one cell, fixed before the loop starts.
struct WorkerPlan {
  uint32_t worker_index = 0;
  uint32_t queue_depth = 1;
  bool sequential = false;
  /// Bytes of the I/O space: the ActiveRange, or with AR segments the segments one after the
  /// other (offset v lies in segment v / segment_bytes). Random: the whole space, shared;
  /// sequential: this worker's slice of it.
  uint64_t region_start = 0;
  uint64_t region_bytes = 0;
  uint64_t stream_start = 0;  ///< sequential: the first offset (spec.stream_start_bytes, else region_start)
  std::array<BlockChoice, 100> block_table{};  ///< indexed by a uniform draw in [0, 100)
  /// Zoned random distribution (spec.zones): empty = uniform over the region. zone_table
  /// maps a uniform draw in [0, 100) to a zone, so each zone gets its io_pct of the draws.
  std::vector<OffsetZone> zones;
  std::array<uint8_t, 100> zone_table{};
  /// Client AR segmentation (spec.ar_segments): the segments' start offsets on the target,
  /// their size, and how many blocks of each distinct size fit in one. Empty = none.
  std::vector<uint64_t> segment_starts;
  uint64_t segment_bytes = 0;
  std::vector<uint64_t> segment_blocks;
  uint32_t max_block_bytes = 0;
  /// An I/O is a read when (rng >> 32) < read_threshold; 2^32 means always read.
  uint64_t read_threshold = 0;
  uint64_t byte_budget = UINT64_MAX;  ///< stop issuing after this many bytes (UINT64_MAX: time only)
  bool trim = false;                  ///< the non-read I/Os deallocate (model::AccessSpec::trim)
  double rate_iops = 0;               ///< this worker's share of spec.rate_iops; 0 = unthrottled
  model::Arrival arrival = model::Arrival::Fixed;  ///< paced: spec.arrival (pacer_for chooses the pacer)
  uint64_t seed = 0;                  ///< the cell's seed; the worker index selects the stream
  /// At low depth, poll for the completion until it arrives, up to this long, before sleeping
  /// in io_uring_enter, so the issuing CPU does not go idle between I/Os (an idle CPU's
  /// wake-up, large in VMs, would otherwise be added to every measured latency). 0 = sleep.
  uint64_t completion_poll_ns = 0;
  /// The auto budget: the worker measures which wait is faster on this target and host before
  /// the cell (engine/completion_probe.h) and polls only if polling won: at low depth up to
  /// model::kAutoPollBudgetNs (QD 1 reads), above it up to model::kDepthSpinNs (reads at the
  /// cell's depth).
  bool probe_completion_wait = false;
  bool low_depth = true;  ///< the cell's TC x QD <= kLowDepthMaxOio
  /// Each I/O on its own io_uring_enter while every worker of the cell has a CPU of its own;
  /// false when the workers outnumber them: a refill's I/Os then go in one submission, the
  /// wait's (submit_each_for).
  bool submit_each = true;
};

/// The stream of a paced worker's arrival gaps: apart from its offset stream (worker_index + 1),
/// so pacing a spec does not change which offsets it draws.
inline Rng arrival_rng(const WorkerPlan& plan) { return Rng(plan.seed, 0x41525256ull + plan.worker_index); }

/// The random-arrival pacer of a paced worker whose arrival is not Fixed.
inline ArrivalPacer arrival_pacer(const WorkerPlan& plan) {
  return ArrivalPacer(plan.rate_iops,
                      plan.arrival == model::Arrival::Uniform ? ArrivalGaps::Uniform : ArrivalGaps::Exponential,
                      arrival_rng(plan), plan.queue_depth);
}

/// Completion polling budget for a spec: spec.poll_budget_ns when TC×QD ≤ kLowDepthMaxOio,
/// the spec is unthrottled, and every worker can have a CPU of its own (threads < cpus);
/// else 0 (workers sleep until a completion arrives). 0 too for the auto budget
/// (model::kPollBudgetAuto): there each worker probes, see completion_probe_for.
inline constexpr uint32_t kLowDepthMaxOio = 4;
uint64_t completion_poll_ns_for(const model::AccessSpec& spec, unsigned cpus);
/// True for an unthrottled spec with the auto budget whose workers each have a CPU of their own
/// (threads < cpus), at any depth: before the cell each worker measures polling against
/// sleeping on the target (engine/completion_probe.h) and polls only if polling was faster
/// (at low depth up to model::kAutoPollBudgetNs, above it up to model::kDepthSpinNs).
bool completion_probe_for(const model::AccessSpec& spec, unsigned cpus);
/// True when every worker can have a CPU of its own (threads < cpus): each I/O then goes on its
/// own io_uring_enter, so the device gets a steady stream. When the workers outnumber the CPUs
/// they are CPU-bound and a call per I/O costs more than it gives: each refill goes in one
/// submission, with the wait (docs/performance.md, "Four targets in one cell").
bool submit_each_for(const model::AccessSpec& spec, unsigned cpus);

/// ActiveRange in bytes: spec.active_range_pct of the target from LBA 0, rounded down to a
/// whole logical block. (With AR segments the I/Os touch only the segments inside it.)
uint64_t active_range_bytes(const model::AccessSpec& spec, const IoTarget& target);

/// Checks the spec against the target (block sizes multiples of the logical block, the
/// ActiveRange or each sequential slice holding at least one block...) and builds one plan
/// per worker. Every problem is reported at once (ErrorKind::BadInput). spec.seed must be set.
core::Result<std::vector<WorkerPlan>> plan_workers(const model::AccessSpec& spec, const IoTarget& target);

/// A job's plans (plan_workers over its range as the target) moved to where its range starts
/// on the target: every region, stream and segment start plus `base_bytes`.
void shift_plans(std::vector<WorkerPlan>& plans, uint64_t base_bytes);

/// Draws one block choice from the table: a multiply, no division, no branch.
inline const BlockChoice& draw_block(const WorkerPlan& plan, Rng& rng) {
  const auto pick = static_cast<size_t>((static_cast<unsigned __int128>(rng.next()) * 100u) >> 64);
  return plan.block_table[pick];
}

/// One I/O as a worker draws it: read or write by the threshold, then the block size, then
/// the offset, in that order from the worker's Rng. Both engines draw through this (the
/// io_uring loop, engine/io_loop.h, and the simulator's host loop, sim/host_loop.cpp), so the
/// R/W mix, block-size split and offset generators are one code. (The io_uring loop then
/// draws the write data's seed from the same Rng; the simulator stores no data and does not.)
struct IoDraw {
  uint64_t offset = 0;
  uint32_t bytes = 0;
  bool is_read = false;
};
template <class Offsets>
inline IoDraw draw_io(const WorkerPlan& plan, Rng& rng, Offsets& offsets) {
  IoDraw d;
  d.is_read = (rng.next() >> 32) < plan.read_threshold;
  const BlockChoice& block = draw_block(plan, rng);
  d.bytes = block.bytes;
  d.offset = offsets.next(rng, block);
  return d;
}

/// Random offsets, aligned to each I/O's block size, over [start, start + region): uniform,
/// or first a zone by its I/O share and then uniform inside it; with AR segments, a segment
/// (of the zone) uniformly and then a block inside it. The uniform case costs one bounded
/// draw; zones add a multiply, segments one more bounded draw.
struct RandomOffsets {
  uint64_t start = 0;
  const OffsetZone* zones = nullptr;  ///< null: no zones
  const uint8_t* zone_table = nullptr;
  const uint64_t* segment_starts = nullptr;  ///< null: no segments
  const uint64_t* segment_blocks = nullptr;
  uint32_t segment_count = 0;
  explicit RandomOffsets(const WorkerPlan& plan) : start(plan.region_start) {
    if (!plan.zones.empty()) {
      zones = plan.zones.data();
      zone_table = plan.zone_table.data();
    }
    if (!plan.segment_starts.empty()) {
      segment_starts = plan.segment_starts.data();
      segment_blocks = plan.segment_blocks.data();
      segment_count = static_cast<uint32_t>(plan.segment_starts.size());
    }
  }
  uint64_t position() const { return 0; }  ///< random streams have none
  uint64_t next(Rng& rng, const BlockChoice& block) {
    if (zones == nullptr && segment_starts == nullptr) return start + rng.below(block.blocks_in_region) * block.bytes;
    const OffsetZone* z = nullptr;
    if (zones != nullptr) {
      const auto pick = static_cast<size_t>((static_cast<unsigned __int128>(rng.next()) * 100u) >> 64);
      z = &zones[zone_table[pick]];
    }
    if (segment_starts == nullptr) return start + z->start + rng.below(z->blocks[block.size_index]) * block.bytes;
    const uint64_t seg = z ? z->first_segment + rng.below(z->segment_count) : rng.below(segment_count);
    return segment_starts[seg] + rng.below(segment_blocks[block.size_index]) * block.bytes;
  }
};

/// One sequential stream through the worker's slice, from plan.stream_start, wrapping to the
/// slice start when the next block does not fit. With AR segments the slice is of the
/// segments laid end to end: a block that would cross a segment's end starts the next
/// segment instead. position() is where it stands (the offset of the next I/O in that
/// space), recorded so the next sequential cell continues from there.
struct SequentialOffsets {
  uint64_t start = 0, end = 0, cursor = 0;
  const uint64_t* segment_starts = nullptr;  ///< null: no segments
  uint64_t segment_bytes = 0;
  explicit SequentialOffsets(const WorkerPlan& plan)
      : start(plan.region_start), end(plan.region_start + plan.region_bytes), cursor(plan.stream_start) {
    if (!plan.segment_starts.empty()) {
      segment_starts = plan.segment_starts.data();
      segment_bytes = plan.segment_bytes;
    }
  }
  uint64_t position() const { return cursor; }
  uint64_t next(Rng&, const BlockChoice& block) {
    if (cursor + block.bytes > end) cursor = start;
    if (segment_starts == nullptr) {
      const uint64_t offset = cursor;
      cursor += block.bytes;
      return offset;
    }
    uint64_t seg = cursor / segment_bytes;
    if (cursor - seg * segment_bytes + block.bytes > segment_bytes) {  // would cross into the gap
      cursor = (seg + 1) * segment_bytes;
      if (cursor + block.bytes > end) cursor = start;
      seg = cursor / segment_bytes;
    }
    const uint64_t offset = segment_starts[seg] + (cursor - seg * segment_bytes);
    cursor += block.bytes;
    return offset;
  }
};

}  // namespace pts::engine
