// unit-tests/engine/rate_pacer_test.cpp — the pacing schedule in fake time: releases follow
// t0 + k / rate, a late worker catches up, and the next release time is exact.
#include <gtest/gtest.h>

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
