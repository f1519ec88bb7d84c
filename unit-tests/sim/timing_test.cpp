// The timing model: latencies at QD 1 equal the sum of their parts exactly, throughput
// limits come from the resource that saturates, reads queue behind programs, the write
// buffer admits in order, and write-through (no PLP, cache disabled) waits for the flash.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/rng.h"
#include "sim/drive.h"
#include "sim/exponential.h"
#include "sim/timing.h"
#include "sim_support.h"

namespace pts::sim {
namespace {

using simtest::run;
using simtest::spec;

uint64_t xfer_ns(uint64_t bytes, double mbps) { return bytes * static_cast<uint64_t>(std::llround(1e6 / mbps)) / 1000; }

TEST(SimTiming, Qd1LatenciesAreTheSumOfTheirParts) {
  auto p = simtest::tiny();
  p.read_retry = 0;  // no per-operation variation: every latency is the sum of its parts
  p.ctrl_jitter_ns = 0;
  Drive d(p, 1);
  // Fill the first 64 MiB so reads hit flash, then let the buffer drain.
  auto fill = spec(0, 128 * 1024, 1, 4, 0, 3, 64ull << 20);
  fill.pattern = model::AccessPattern::Sequential;
  run(d, fill);
  d.idle(1'000'000'000);
  auto s = spec(100, 4096, 1, 1, 1);
  s.active_range_pct = 5;  // inside what was written
  const auto r = run(d, s);
  const double expect_read = p.cmd_read_ns + p.read_ns + xfer_ns(4096, p.channel_mbps) + xfer_ns(4096, p.pcie_mbps);
  EXPECT_NEAR(r.mean_read_ns(), expect_read, 1.0);
  const auto w = run(d, spec(0, 4096, 1, 1, 0, 3, 32 * 4096));  // fewer pages than the buffer holds
  EXPECT_NEAR(w.mean_write_ns(), p.cmd_write_ns + xfer_ns(4096, p.pcie_mbps), 1.0);
  // An unwritten block reads without touching the flash.
  Drive fresh(p, 1);
  const auto z = run(fresh, spec(100, 4096, 1, 1, 0.01));
  EXPECT_NEAR(z.mean_read_ns(), p.cmd_read_ns + xfer_ns(4096, p.pcie_mbps), 1.0);
}

TEST(SimTiming, SequentialWriteRunsAtTheDiesProgramRate) {
  auto p = simtest::tiny();
  p.ftl_page_ns = 0;  // the controller's page rate out of the way (next test)
  Drive d(p, 1);
  auto s = spec(0, 128 * 1024, 1, 32, 2);
  s.pattern = model::AccessPattern::Sequential;
  const auto r = run(d, s);
  const double unit_bytes = double(p.planes) * p.bits_per_cell * p.flash_page_bytes;
  const double program_mbps = unit_bytes / (p.prog_ns / 1e9) / 1e6;
  const double mbps = double(r.writes) * 128 * 1024 / r.seconds() / 1e6;
  EXPECT_NEAR(mbps / program_mbps, 1.0, 0.05) << mbps << " MB/s vs " << program_mbps;
}

TEST(SimTiming, SequentialWriteRunsAtTheControllersPageRate) {
  auto p = simtest::tiny();
  ASSERT_GT(double(p.ftl_page_ns) * p.flash_page_bytes / p.page_bytes * p.planes * p.bits_per_cell, 1.5 * p.prog_ns);
  Drive d(p, 1);
  auto s = spec(0, 128 * 1024, 1, 32, 2);
  s.pattern = model::AccessPattern::Sequential;
  const auto r = run(d, s);
  const double ftl_mbps = p.page_bytes / (p.ftl_page_ns / 1e9) / 1e6;
  const double mbps = double(r.writes) * 128 * 1024 / r.seconds() / 1e6;
  EXPECT_NEAR(mbps / ftl_mbps, 1.0, 0.05) << mbps << " MB/s vs " << ftl_mbps;
}

TEST(SimTiming, ReadsQueueBehindProgramsAndErases) {
  auto p = simtest::tiny();
  p.read_priority = false;  // first come, first served on every die
  p.prog_ns = 3300000 / 16; // programs several tR long
  p.read_retry = 0;  // the queueing alone: a read retry's extra tR is not a wait for a program
  p.ctrl_jitter_ns = 0;
  Drive alone(p, 1), mixed(p, 1);
  for (Drive* d : {&alone, &mixed}) {
    auto fill = spec(0, 128 * 1024, 1, 8, 0, 3, p.capacity_bytes);
    fill.pattern = model::AccessPattern::Sequential;
    run(*d, fill);
    d->idle(1'000'000'000);
  }
  // QD 2 on the one die: two reads queued behind each other stay well under one program.
  const auto a = run(alone, spec(100, 4096, 1, 2, 2, 9));
  const auto m = run(mixed, spec(70, 4096, 1, 2, 2, 9));
  EXPECT_GT(m.mean_read_ns(), 1.3 * a.mean_read_ns()) << "reads on a die busy programming wait";
  uint64_t max_alone = 0, max_mixed = 0;
  for (const auto& w : a.stats) max_alone = std::max(max_alone, w.read_latency.max_ns());
  for (const auto& w : m.stats) max_mixed = std::max(max_mixed, w.read_latency.max_ns());
  EXPECT_LT(max_alone, p.prog_ns);
  EXPECT_GT(max_mixed, p.prog_ns);  // some read waited for a whole program
}

TEST(SimTiming, ControllerOccupancyCapsIops) {
  auto p = simtest::tiny();
  p.cmd_occupancy_ns = 100000;  // 10 k commands per second
  Drive d(p, 1);
  const auto r = run(d, spec(100, 4096, 4, 32, 1));  // unwritten: no flash in the way
  EXPECT_NEAR(r.iops(), 10000, 50);
}

TEST(SimTiming, WriteBufferAdmitsFirstInFirstOut) {
  WriteBuffer b(8);
  EXPECT_EQ(b.admit(100, 4), 100u);
  EXPECT_EQ(b.admit(110, 4), 110u);
  b.unit_programmed(0, 1000, 4);
  b.unit_programmed(1, 900, 4);  // released after the unit before it, never before
  EXPECT_EQ(b.admit(120, 4), 1000u);
  EXPECT_EQ(b.admit(130, 2), 1000u);  // nobody overtakes a waiting write
  EXPECT_EQ(b.oldest_at(999, 7), 0u);
  EXPECT_EQ(b.oldest_at(1000, 7), 7u);
}

TEST(SimTiming, WriteThroughWaitsForTheProgram) {
  auto p = simtest::tiny();
  p.plp = false;  // a volatile write cache ...
  Drive d(p, 1);
  EXPECT_TRUE(d.vwc_present());
  d.set_vwc(false);  // ... disabled: every write reaches the flash before it completes
  const auto r = run(d, spec(0, 4096, 1, 1, 0.2));
  EXPECT_GT(r.mean_write_ns(), p.prog_ns);
  EXPECT_GT(d.counters().ftl.pad_pages, 0u);  // partial program units were padded
  d.set_vwc(true);
  d.idle(1'000'000'000);
  const auto cached = run(d, spec(0, 4096, 1, 1, 0, 3, 32 * 4096));
  EXPECT_LT(cached.mean_write_ns(), 50000);
}

// The controller's jitter is drawn by the ziggurat (sim/exponential.h). Checked against the
// closed form of the exponential distribution, P(X > x) = exp(-x): 10^7 draws from a fixed
// seed, the mean, the share above each of five quantiles (within 5 standard deviations of
// the binomial count), and the Kolmogorov-Smirnov distance of the first 10^6 (below the 1 %
// critical value, 1.63 / sqrt(n)). The same words give the same draws.
TEST(SimTiming, JitterIsExponentialInDistribution) {
  uint64_t s = 12345;
  auto next = [&s] { return engine::splitmix64(s); };
  constexpr int kDraws = 10'000'000;
  constexpr int kKs = 1'000'000;
  const double q[] = {0.5, 0.9, 0.99, 0.999, 0.9999};
  uint64_t above[5] = {};
  std::vector<double> first;
  first.reserve(kKs);
  double sum = 0;
  for (int i = 0; i < kDraws; ++i) {
    const double x = kExponential.draw(next);
    ASSERT_GE(x, 0.0);
    sum += x;
    for (int k = 0; k < 5; ++k) above[k] += x > -std::log1p(-q[k]);
    if (i < kKs) first.push_back(x);
  }
  EXPECT_NEAR(sum / kDraws, 1.0, 5.0 / std::sqrt(double(kDraws)));  // sd of the mean: 1 / sqrt(n)
  for (int k = 0; k < 5; ++k) {
    const double p = 1 - q[k], expected = kDraws * p, sd = std::sqrt(kDraws * p * (1 - p));
    EXPECT_NEAR(double(above[k]), expected, 5 * sd) << "P(X > F^-1(" << q[k] << "))";
  }
  std::sort(first.begin(), first.end());
  double d = 0;
  for (int i = 0; i < kKs; ++i) {
    const double cdf = -std::expm1(-first[i]);
    d = std::max({d, cdf - double(i) / kKs, double(i + 1) / kKs - cdf});
  }
  EXPECT_LT(d, 1.63 / std::sqrt(double(kKs)));
  uint64_t s1 = 7, s2 = 7;
  for (int i = 0; i < 1000; ++i)
    ASSERT_EQ(kExponential.draw([&] { return engine::splitmix64(s1); }), kExponential.draw([&] { return engine::splitmix64(s2); }));
}

}  // namespace
}  // namespace pts::sim
