// model/ar_segments.h — client ActiveRange segmentation (PTS-C, PTS 2.0.2 client): the cells
// touch only `count` equal, contiguous segments whose start LBAs lie at random over the
// ActiveRange, never touching each other; together they are the AR Amount. The layout is a
// pure function of (ActiveRange bytes, count, segment size, alignment, seed), so the plan
// records it once and the engine (or the simulated drive) derives exactly the same one.
// May use: core.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace pts::model {

/// Segmentation as an access spec carries it; count 0 = none (the whole ActiveRange).
struct ArSegmentation {
  uint32_t count = 0;
  uint64_t segment_bytes = 0;  ///< each segment; a multiple of align_bytes
  uint32_t align_bytes = 0;    ///< segment starts are multiples of this (the plan's largest block)
  uint64_t seed = 0;           ///< selects the layout
  bool operator==(const ArSegmentation&) const = default;
};

/// The segments' start offsets (bytes from LBA 0), ascending: `count` segments of
/// `segment_bytes` inside [0, active_range_bytes), with at least one alignment unit between
/// neighbours. Over units of align_bytes: F = units − count × (segment units + 1) + 1 spare
/// units are spread at random (count draws in [0, F], sorted; segment i starts at
/// draw_i + i × (segment units + 1)). BadInput when they do not fit or the sizes are not
/// multiples of the alignment.
core::Result<std::vector<uint64_t>> segment_layout(const ArSegmentation& seg, uint64_t active_range_bytes);

/// Why a segmentation cannot be laid out over `active_range_bytes`, in words; empty when it
/// can (the same checks as segment_layout, without drawing).
std::string segment_problem(const ArSegmentation& seg, uint64_t active_range_bytes);

}  // namespace pts::model
