// unit-tests/engine/rate_pacer_test.cpp — the pacing schedule in fake time: releases follow
// t0 + k / rate, a late worker catches up, and the next release time is exact; random arrivals
// (exponential, uniform) hold the mean rate with their process's spread, fixed before issue.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/rate_pacer.h"

using pts::engine::RatePacer;

TEST(RatePacer, ReleasesOnAFixedSchedule) {
  RatePacer p(1000.0);  // one I/O per ms
  p.start(1'000'000'000);
  EXPECT_EQ(p.allowed(999'999'999), 0u);  // before t0
  EXPECT_EQ(p.allowed(1'000'000'000), 1u);
  p.issued(1);
  EXPECT_EQ(p.allowed(1'000'500'000), 0u);
  EXPECT_EQ(p.next_release_ns(), 1'001'000'000u);
  EXPECT_EQ(p.allowed(1'001'000'000), 1u);
  // A worker that stalls for 10 ms may catch up on everything due, not more.
  EXPECT_EQ(p.allowed(1'011'000'000), 11u);
  p.issued(11);
  EXPECT_EQ(p.allowed(1'011'000'001), 0u);
}

TEST(RatePacer, AverageRateOverAnHourIsExact) {
  RatePacer p(333.0);
  p.start(0);
  uint64_t total = 0;
  for (uint64_t t = 0; t <= 3600ull * 1'000'000'000; t += 7'000'000) {  // poll every 7 ms
    const uint64_t n = p.allowed(t);
    p.issued(n);
    total += n;
  }
  EXPECT_NEAR(static_cast<double>(total), 333.0 * 3600, 2.0);
}

// Random arrivals (VDbench's distribution=): the mean rate is the asked one, the gaps have the
// process's spread, every release is fixed before its I/O is issued and never moves.
namespace {

using pts::engine::ArrivalGaps;
using pts::engine::ArrivalPacer;
using pts::engine::Rng;

struct GapStats {
  double mean_ns = 0, cv = 0;
};

GapStats gaps_of(ArrivalGaps g, double rate, uint64_t n) {
  ArrivalPacer p(rate, g, Rng(42, 7), 32);
  p.start(1'000);
  double sum = 0, sum2 = 0;
  uint64_t last = 1'000;
  for (uint64_t k = 0; k < n; ++k) {
    const uint64_t t = p.next_release_ns();
    const double gap = static_cast<double>(t - last);
    sum += gap;
    sum2 += gap * gap;
    last = t;
    p.issued(1);
  }
  const double mean = sum / n;
  return {mean, std::sqrt(sum2 / n - mean * mean) / mean};
}

}  // namespace

TEST(ArrivalPacer, ExponentialGapsHaveTheRateAndAPoissonSpread) {
  const auto s = gaps_of(ArrivalGaps::Exponential, 50'000.0, 400'000);
  EXPECT_NEAR(s.mean_ns, 20'000.0, 20'000.0 * 0.01);  // 1 / rate within 1 %
  EXPECT_NEAR(s.cv, 1.0, 0.02);                       // exponential: sd = mean
}

TEST(ArrivalPacer, UniformGapsHaveTheRateAndTheirSpread) {
  const auto s = gaps_of(ArrivalGaps::Uniform, 50'000.0, 400'000);
  EXPECT_NEAR(s.mean_ns, 20'000.0, 20'000.0 * 0.01);
  EXPECT_NEAR(s.cv, 1.0 / std::sqrt(3.0), 0.02);  // uniform on [0, 2 / rate]
}

TEST(ArrivalPacer, ReleasesAreFixedAheadAndALateWorkerCatchesUpToItsDepth) {
  ArrivalPacer p(1000.0, ArrivalGaps::Exponential, Rng(1, 1), 8);
  p.start(0);
  EXPECT_EQ(p.allowed(0), 0u);  // the first arrival comes one gap after t0
  const uint64_t first = p.next_release_ns();
  EXPECT_EQ(p.release_ns(0), first);
  EXPECT_EQ(p.allowed(first), 1u);
  // Late by a second: about 1000 I/Os are due, but never more than the depth at once, and
  // their releases stay where the schedule put them.
  const uint64_t due = p.allowed(first + 1'000'000'000);
  EXPECT_EQ(due, 8u);
  std::vector<uint64_t> releases;
  for (uint64_t k = 0; k < due; ++k) releases.push_back(p.release_ns(k));
  EXPECT_EQ(releases.front(), first);
  EXPECT_TRUE(std::is_sorted(releases.begin(), releases.end()));
  p.issued(due);
  EXPECT_GT(p.next_release_ns(), releases.back());
  EXPECT_EQ(p.issued(), 8u);
}

TEST(ArrivalPacer, AnHourHoldsTheRate) {
  ArrivalPacer p(333.0, ArrivalGaps::Exponential, Rng(9, 3), 16);
  p.start(0);
  uint64_t total = 0;
  for (uint64_t t = 0; t <= 3600ull * 1'000'000'000; t += 7'000'000) {  // poll every 7 ms
    const uint64_t n = p.allowed(t);
    p.issued(n);
    total += n;
  }
  // Poisson: the count has sd sqrt(1.2 M) ≈ 1095; 5 sd.
  EXPECT_NEAR(static_cast<double>(total), 333.0 * 3600, 5500.0);
}
