// unit-tests/engine/workload_test.cpp — offsets aligned and inside the ActiveRange, uniform
// (chi-square), 64-bit ranges reached, sequential slices per worker, the R/W mix within
// binomial bounds, the block-size split, and plan validation.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <vector>

#include "engine/workload.h"

using namespace pts;
using engine::IoTarget;

namespace {

model::AccessSpec random_spec(uint32_t bs, double ar_pct) {
  model::AccessSpec s;
  s.block_bytes = bs;
  s.active_range_pct = ar_pct;
  s.seed = 12345;
  return s;
}

/// Pearson chi-square of counts against a uniform expectation.
double chi_square(const std::vector<uint64_t>& counts, double expected) {
  double x2 = 0;
  for (uint64_t c : counts) x2 += (static_cast<double>(c) - expected) * (static_cast<double>(c) - expected) / expected;
  return x2;
}

// Critical value of chi-square with 99 degrees of freedom at p = 0.001.
constexpr double kChi2Df99P001 = 148.23;

}  // namespace

TEST(RandomOffsets, AlignedInsideActiveRangeAndUniform) {
  const IoTarget target{"t", 10ull * 1024 * 1024 * 1024 + 4096 * 7, 512};  // not a round size
  const auto spec = random_spec(4096, 37.5);
  auto plans = engine::plan_workers(spec, target);
  ASSERT_TRUE(plans.ok()) << plans.error().message();
  const auto& plan = plans.value()[0];
  const uint64_t range = engine::active_range_bytes(spec, target);
  EXPECT_EQ(plan.region_bytes, range);
  engine::Rng rng(spec.seed, 1);
  engine::RandomOffsets gen(plan);
  constexpr int kBins = 100;
  constexpr int kDraws = 400000;
  std::vector<uint64_t> bins(kBins, 0);
  for (int i = 0; i < kDraws; ++i) {
    const auto& block = engine::draw_block(plan, rng);
    const uint64_t off = gen.next(rng, block);
    ASSERT_EQ(off % 4096, 0u);
    ASSERT_LE(off + block.bytes, range);
    ++bins[static_cast<size_t>(static_cast<long double>(off) / range * kBins)];
  }
  EXPECT_LT(chi_square(bins, static_cast<double>(kDraws) / kBins), kChi2Df99P001);
}

TEST(RandomOffsets, ReachTheTopOf64BitRanges) {
  const IoTarget target{"t", 64ull << 40, 4096};  // 64 TiB, 4 KiB logical blocks
  auto plans = engine::plan_workers(random_spec(4096, 100), target);
  ASSERT_TRUE(plans.ok());
  engine::Rng rng(99, 1);
  engine::RandomOffsets gen(plans.value()[0]);
  std::vector<uint64_t> bins(100, 0);
  uint64_t max_seen = 0;
  for (int i = 0; i < 200000; ++i) {
    const uint64_t off = gen.next(rng, plans.value()[0].block_table[0]);
    ASSERT_EQ(off % 4096, 0u);
    ASSERT_LT(off, target.size_bytes);
    max_seen = std::max(max_seen, off);
    ++bins[static_cast<size_t>(static_cast<long double>(off) / target.size_bytes * 100)];
  }
  EXPECT_GT(max_seen, target.size_bytes / 100 * 99);
  EXPECT_LT(chi_square(bins, 2000.0), kChi2Df99P001);
}

TEST(RandomOffsets, FollowEachBlockSizeOfASplit) {
  auto spec = random_spec(4096, 100);
  spec.bs_split = {{4096, 60}, {65536, 30}, {1048576, 10}};
  const IoTarget target{"t", 1ull << 30, 512};
  auto plans = engine::plan_workers(spec, target);
  ASSERT_TRUE(plans.ok());
  const auto& plan = plans.value()[0];
  engine::Rng rng(5, 1);
  engine::RandomOffsets gen(plan);
  std::map<uint32_t, uint64_t> seen;
  constexpr int kDraws = 100000;
  for (int i = 0; i < kDraws; ++i) {
    const auto& block = engine::draw_block(plan, rng);
    const uint64_t off = gen.next(rng, block);
    ASSERT_EQ(off % block.bytes, 0u);
    ASSERT_LE(off + block.bytes, target.size_bytes);
    ++seen[block.bytes];
  }
  for (const auto& [bytes, pct] : std::map<uint32_t, double>{{4096, 0.6}, {65536, 0.3}, {1048576, 0.1}}) {
    const double sigma = std::sqrt(kDraws * pct * (1 - pct));
    EXPECT_NEAR(static_cast<double>(seen[bytes]), kDraws * pct, 5 * sigma) << bytes;
  }
}

TEST(SequentialOffsets, EachWorkerStreamsThroughItsOwnSliceAndWraps) {
  model::AccessSpec spec = random_spec(131072, 50);
  spec.pattern = model::AccessPattern::Sequential;
  spec.threads = 3;
  const IoTarget target{"t", 1ull << 30, 512};
  auto plans = engine::plan_workers(spec, target);
  ASSERT_TRUE(plans.ok());
  const uint64_t range = engine::active_range_bytes(spec, target);
  uint64_t covered_end = 0;
  for (const auto& plan : plans.value()) {
    EXPECT_EQ(plan.region_start, covered_end);  // contiguous, no overlap
    EXPECT_EQ(plan.region_bytes % 131072, 0u);
    covered_end = plan.region_start + plan.region_bytes;
    engine::Rng rng(1, 1);
    engine::SequentialOffsets gen(plan);
    const uint64_t blocks = plan.region_bytes / 131072;
    for (uint64_t i = 0; i < blocks * 2 + 3; ++i) {
      const uint64_t off = gen.next(rng, plan.block_table[0]);
      ASSERT_EQ(off, plan.region_start + (i % blocks) * 131072) << i;
    }
  }
  EXPECT_LE(covered_end, range);
  EXPECT_GT(covered_end, range - 3 * 131072);
}

TEST(ReadWriteMix, HoldsWithinBinomialBounds) {
  for (uint32_t pct : {0u, 1u, 35u, 50u, 65u, 70u, 99u, 100u}) {
    model::AccessSpec spec = random_spec(4096, 100);
    spec.read_pct = pct;
    auto plans = engine::plan_workers(spec, IoTarget{"t", 1ull << 30, 512});
    ASSERT_TRUE(plans.ok());
    const auto& plan = plans.value()[0];
    engine::Rng rng(pct + 1, 1);
    constexpr int kDraws = 200000;
    int reads = 0;
    for (int i = 0; i < kDraws; ++i) reads += (rng.next() >> 32) < plan.read_threshold;
    const double p = pct / 100.0;
    const double sigma = std::sqrt(kDraws * p * (1 - p));
    if (pct == 0 || pct == 100) EXPECT_EQ(reads, static_cast<int>(kDraws * p));
    else EXPECT_NEAR(reads, kDraws * p, 5 * sigma) << pct;
  }
}

TEST(PlanWorkers, RejectsWhatTheTargetCannotDo) {
  const IoTarget target{"t", 1ull << 20, 4096};  // 1 MiB, 4 KiB logical blocks
  auto bad_bs = engine::plan_workers(random_spec(512, 100), target);
  ASSERT_FALSE(bad_bs.ok());
  EXPECT_NE(bad_bs.error().message().find("logical block"), std::string::npos);
  auto tiny_range = engine::plan_workers(random_spec(65536, 1), target);
  ASSERT_FALSE(tiny_range.ok());
  EXPECT_NE(tiny_range.error().message().find("ActiveRange"), std::string::npos);
  model::AccessSpec seq = random_spec(524288, 100);
  seq.pattern = model::AccessPattern::Sequential;
  seq.threads = 4;
  EXPECT_FALSE(engine::plan_workers(seq, target).ok());
}

TEST(PlanWorkers, SplitsTheByteBudgetExactly) {
  model::AccessSpec spec = random_spec(4096, 100);
  spec.threads = 3;
  spec.bytes_limit = 1000000;
  auto plans = engine::plan_workers(spec, IoTarget{"t", 1ull << 30, 512});
  ASSERT_TRUE(plans.ok());
  uint64_t total = 0;
  for (const auto& p : plans.value()) total += p.byte_budget;
  EXPECT_EQ(total, spec.bytes_limit);
}

TEST(CompletionPolling, OnlyAtLowDepthUnthrottledWithACpuPerWorker) {
  using engine::completion_poll_ns_for;
  using engine::kLowDepthMaxOio;
  model::AccessSpec s;
  s.threads = 1;
  s.queue_depth = 1;
  EXPECT_EQ(s.poll_budget_ns, model::kPollBudgetAuto);  // the default: by the target
  EXPECT_EQ(completion_poll_ns_for(s, 2), 0u);  // auto: the worker probes, then decides
  EXPECT_TRUE(engine::completion_probe_for(s, 2));
  EXPECT_FALSE(engine::completion_probe_for(s, 1));  // no spare CPU: sleeps, no probe
  s.poll_budget_ns = 250'000;  // the definition's or the operator's budget
  EXPECT_EQ(completion_poll_ns_for(s, 2), 250'000u);
  EXPECT_FALSE(engine::completion_probe_for(s, 2));  // ... is not second-guessed
  s.queue_depth = kLowDepthMaxOio;
  EXPECT_EQ(completion_poll_ns_for(s, 2), 250'000u);
  s.queue_depth = kLowDepthMaxOio + 1;
  EXPECT_EQ(completion_poll_ns_for(s, 2), 0u);  // deeper queues sleep until a completion
  s.queue_depth = 2;
  s.threads = 3;
  EXPECT_EQ(completion_poll_ns_for(s, 8), 0u);  // TC x QD = 6 > 4
  s.queue_depth = 1;
  s.threads = 2;
  EXPECT_EQ(completion_poll_ns_for(s, 2), 0u);  // no spare CPU: polling would steal it
  EXPECT_EQ(completion_poll_ns_for(s, 4), 250'000u);
  s.poll_budget_ns = 0;
  EXPECT_EQ(completion_poll_ns_for(s, 4), 0u);  // budget 0: never poll
  s.poll_budget_ns = 250'000;
  s.rate_iops = 1000;
  EXPECT_EQ(completion_poll_ns_for(s, 4), 0u);  // paced runs sleep between releases
}
