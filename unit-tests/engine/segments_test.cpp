// unit-tests/engine/segments_test.cpp — the generators over client ActiveRange segments: random
// I/Os land inside the segments only, whole blocks, on every segment about equally; zones are
// runs of whole segments; a sequential stream walks the segments in LBA order, never into a
// gap; a plan whose segments do not fit the target is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/workload.h"

using namespace pts;
using engine::IoTarget;

namespace {

model::AccessSpec segmented(uint32_t bs, uint32_t count, uint64_t seg_bytes) {
  model::AccessSpec s;
  s.block_bytes = bs;
  s.active_range_pct = 75;
  s.ar_segments.count = count;
  s.ar_segments.segment_bytes = seg_bytes;
  s.ar_segments.align_bytes = 1 << 20;
  s.ar_segments.seed = 11;
  s.seed = 5;
  return s;
}

/// Index of the segment holding [off, off + len), or -1 when it is not inside one.
long segment_of(const std::vector<uint64_t>& starts, uint64_t seg, uint64_t off, uint64_t len) {
  auto it = std::upper_bound(starts.begin(), starts.end(), off);
  if (it == starts.begin()) return -1;
  --it;
  return off + len <= *it + seg ? static_cast<long>(it - starts.begin()) : -1;
}

}  // namespace

TEST(SegmentedOffsets, RandomIosStayInsideTheSegmentsAndCoverThemEvenly) {
  const IoTarget target{"t", 64ull << 30, 512};
  auto spec = segmented(4096, 2048, 4ull << 20);  // 8 GiB AR Amount
  spec.bs_split = {{4096, 50}, {65536, 40}, {1 << 20, 10}};
  auto plans = engine::plan_workers(spec, target);
  ASSERT_TRUE(plans.ok()) << plans.error().message();
  const auto& plan = plans.value()[0];
  ASSERT_EQ(plan.segment_starts.size(), 2048u);
  auto layout = model::segment_layout(spec.ar_segments, engine::active_range_bytes(spec, target));
  ASSERT_TRUE(layout.ok());
  EXPECT_EQ(plan.segment_starts, layout.value());  // the plan's recorded layout is what runs
  engine::Rng rng(spec.seed, 1);
  engine::RandomOffsets gen(plan);
  std::vector<uint64_t> hits(2048, 0);
  constexpr int kDraws = 2048 * 200;
  for (int i = 0; i < kDraws; ++i) {
    const auto& block = engine::draw_block(plan, rng);
    const uint64_t off = gen.next(rng, block);
    ASSERT_EQ(off % block.bytes, 0u);
    const long s = segment_of(plan.segment_starts, 4ull << 20, off, block.bytes);
    ASSERT_GE(s, 0) << "I/O at " << off << " outside every segment";
    ++hits[static_cast<size_t>(s)];
  }
  double x2 = 0;
  for (uint64_t h : hits) x2 += (h - 200.0) * (h - 200.0) / 200.0;
  EXPECT_LT(x2, 2047 + 5 * std::sqrt(2.0 * 2047));  // chi-square, 2047 df: mean 2047, sd 64
}

TEST(SegmentedOffsets, ZonesAreRunsOfWholeSegments) {
  const IoTarget target{"t", 64ull << 30, 512};
  auto spec = segmented(4096, 100, 8ull << 20);
  spec.zones = {{50, 5}, {30, 15}, {20, 80}};
  auto plans = engine::plan_workers(spec, target);
  ASSERT_TRUE(plans.ok()) << plans.error().message();
  const auto& plan = plans.value()[0];
  ASSERT_EQ(plan.zones.size(), 3u);
  EXPECT_EQ(plan.zones[0].first_segment, 0u);
  EXPECT_EQ(plan.zones[0].segment_count, 5u);
  EXPECT_EQ(plan.zones[1].first_segment, 5u);
  EXPECT_EQ(plan.zones[1].segment_count, 15u);
  EXPECT_EQ(plan.zones[2].segment_count, 80u);
  engine::Rng rng(3, 1);
  engine::RandomOffsets gen(plan);
  std::vector<uint64_t> per_zone(3, 0);
  constexpr int kDraws = 200000;
  for (int i = 0; i < kDraws; ++i) {
    const long s = segment_of(plan.segment_starts, 8ull << 20, gen.next(rng, plan.block_table[0]), 4096);
    ASSERT_GE(s, 0);
    ++per_zone[s < 5 ? 0 : s < 20 ? 1 : 2];
  }
  for (size_t z = 0; z < 3; ++z) {
    const double p = spec.zones[z].io_pct / 100.0;
    EXPECT_NEAR(static_cast<double>(per_zone[z]), kDraws * p, 5 * std::sqrt(kDraws * p * (1 - p))) << z;
  }
}

TEST(SegmentedOffsets, ASequentialStreamWalksTheSegmentsInOrder) {
  const IoTarget target{"t", 16ull << 30, 512};
  auto spec = segmented(1 << 20, 64, 4ull << 20);
  spec.pattern = model::AccessPattern::Sequential;
  spec.threads = 2;
  auto plans = engine::plan_workers(spec, target);
  ASSERT_TRUE(plans.ok()) << plans.error().message();
  const auto& starts = plans.value()[0].segment_starts;
  for (const auto& plan : plans.value()) {
    EXPECT_EQ(plan.region_bytes, 32ull * (4 << 20));  // 32 whole segments per stream
    engine::Rng rng(1, 1);
    engine::SequentialOffsets gen(plan);
    const size_t first = plan.worker_index * 32;
    for (uint64_t i = 0; i < 32 * 4 + 4; ++i) {  // one pass over its segments, then the wrap
      const uint64_t want = starts[first + (i % 128) / 4] + (i % 4) * (1 << 20);
      ASSERT_EQ(gen.next(rng, plan.block_table[0]), want) << "worker " << plan.worker_index << " I/O " << i;
    }
  }
}

TEST(SegmentedOffsets, SegmentsThatDoNotFitAreRefused) {
  const IoTarget target{"t", 1ull << 30, 512};  // AR 75 % = 768 MiB
  auto r = engine::plan_workers(segmented(4096, 2048, 1 << 20), target);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("ActiveRange segments: 2048 non-touching segments"), std::string::npos)
      << r.error().message();
  auto small = segmented(1 << 20, 16, 1 << 19);  // segments smaller than the block
  small.ar_segments.align_bytes = 1 << 19;
  r = engine::plan_workers(small, target);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("smaller than one 1024 KiB block"), std::string::npos) << r.error().message();
}
