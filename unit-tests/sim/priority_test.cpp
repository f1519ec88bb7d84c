// Read priority and per-operation variation in the timing model: a host read arriving during a
// program waits at most the suspend latency (and the limit on suspends per page program holds),
// host reads go ahead of GC reads, page types take their shares of tPROG, read retries come at
// their probability, tails are the same for a seed, and an idle many-die drive cleans at least
// as fast per second as a busy one.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "sim/drive.h"
#include "sim/geometry.h"
#include "sim/timing.h"
#include "sim_support.h"

namespace pts::sim {
namespace {

using simtest::run;
using simtest::spec;

uint64_t xfer_ns(uint64_t bytes, double mbps) { return bytes * static_cast<uint64_t>(std::llround(1e6 / mbps)) / 1000; }

/// tiny's die with long programs (so suspends have room) and no variation.
SimParams quiet() {
  auto p = simtest::tiny();
  p.prog_ns = 3'000'000;
  p.prog_var = 0;
  p.read_retry = 0;
  p.ctrl_jitter_ns = 0;
  p.ftl_page_ns = 0;
  return p;
}

TEST(SimPriority, AReadDuringAProgramWaitsAtMostTheSuspendLatency) {
  auto p = quiet();
  p.max_suspends = 2;
  const Geometry g(p);
  FlashTiming t(p, g, 1);
  const uint64_t prog_end = t.program(0, 0);
  const uint64_t read_alone = p.read_ns + xfer_ns(4096, p.channel_mbps);
  // Reads spaced apart inside the first page program (lower page: 1/7 of tPROG = 429 us).
  uint64_t at = 20'000, waited_end = 0, waited_at = 0;
  for (uint32_t i = 0; i <= p.max_suspends; ++i) {
    t.host_time(at);
    const uint64_t end = t.host_read(0, at, 4096);
    if (i < p.max_suspends) {
      EXPECT_LE(end - at, p.suspend_ns + read_alone) << "read " << i << " suspends the program";
      EXPECT_EQ(t.counters().suspends, i + 1);
    } else {
      waited_end = end, waited_at = at;
    }
    at = end + 10'000;  // not right behind the suspension's reads: a new suspend each time
  }
  // The third read finds its page program's suspends used up: it waits for the page to end.
  EXPECT_EQ(t.counters().suspends, p.max_suspends);
  EXPECT_EQ(t.counters().waited_reads, 1u);
  EXPECT_GT(waited_end - waited_at, p.suspend_ns + read_alone);
  // Each suspension moved the program by its reads, the suspend latency and the resume cost.
  EXPECT_GE(t.die(0).busy_until(), prog_end + p.max_suspends * (p.suspend_ns + read_alone + p.resume_ns) + read_alone);
  // The next page program of the unit admits its own suspends again.
  const uint64_t later = t.die(0).ops.back().start + t.die(0).shift + 1000;
  t.host_time(later);
  const uint64_t e = t.host_read(0, later, 4096);
  EXPECT_LE(e - later, p.suspend_ns + read_alone);
  EXPECT_EQ(t.counters().suspends, p.max_suspends + 1);
}

TEST(SimPriority, WithoutReadPriorityAReadWaitsForTheWholeProgram) {
  auto p = quiet();
  p.read_priority = false;
  const Geometry g(p);
  FlashTiming t(p, g, 1);
  const uint64_t prog_end = t.program(0, 0);
  t.host_time(20'000);
  EXPECT_GE(t.host_read(0, 20'000, 4096), prog_end + p.read_ns);
  EXPECT_EQ(t.counters().suspends, 0u);
}

TEST(SimPriority, HostReadsGoAheadOfGcReads) {
  for (bool priority : {true, false}) {
    auto p = quiet();
    p.read_priority = priority;
    const Geometry g(p);
    FlashTiming t(p, g, 1);
    const uint64_t one = p.read_ns + xfer_ns(4096, p.channel_mbps);
    uint64_t gc_end = 0;
    for (int i = 0; i < 10; ++i) gc_end = t.background_read(0, 0, 4096);  // GC's reads booked on die 0
    EXPECT_GE(gc_end, 10 * p.read_ns);
    t.host_time(1000);
    const uint64_t end = t.host_read(0, 1000, 4096);
    if (priority) {
      EXPECT_LE(end, 1000 + 2 * one) << "behind the GC read in progress only";
      EXPECT_GE(t.die(0).busy_until(), gc_end + p.read_ns) << "the queued GC reads moved behind it";
    } else {
      EXPECT_GE(end, gc_end + p.read_ns) << "first come, first served";
    }
  }
}

TEST(SimPriority, AReadSensedEarlyDoesNotWaitOnTheChannelForOneBookedBeforeIt) {
  // Two dies on one channel: three reads queued on die 0, then one on idle die 1. Its data is
  // sensed first, so it crosses the channel first (priority transfers fill gaps among
  // themselves; serialized in booking order, 16 x QD 16 reads ran at half their rate).
  auto p = quiet();
  p.dies = 2;
  const Geometry g(p);
  FlashTiming t(p, g, 1);
  const uint64_t xfer = xfer_ns(4096, p.channel_mbps);
  t.host_time(0);
  uint64_t last0 = 0;
  for (int i = 0; i < 3; ++i) last0 = t.host_read(0, 0, 4096);
  EXPECT_GE(last0, 3 * p.read_ns);
  EXPECT_LE(t.host_read(1, 0, 4096), p.read_ns + 2 * xfer);
}

TEST(SimPriority, PageTypesTakeTheirSharesOfTprog) {
  auto p = quiet();
  const Geometry g(p);
  FlashTiming t(p, g, 1);
  // TLC: lower, middle, upper take 1:2:4 of tPROG and sum to it.
  EXPECT_EQ(t.page_prog_ns(0), p.prog_ns / 7);
  EXPECT_EQ(t.page_prog_ns(1), 2 * uint64_t(p.prog_ns) / 7);
  EXPECT_EQ(t.page_prog_ns(0) + t.page_prog_ns(1) + t.page_prog_ns(2), p.prog_ns);
  const uint64_t loaded = xfer_ns(uint64_t(g.unit_pages) * g.page_bytes, p.channel_mbps);
  EXPECT_EQ(t.program(0, 0), loaded + p.prog_ns);
  // With variation each page's time lies within +-prog_var of its type's, and averages to it.
  p.prog_var = 0.1;
  FlashTiming v(p, g, 7);
  double sum[3] = {};
  const int n = 3000;
  for (int i = 0; i < n; ++i) v.program(0, 0);
  const auto& ops = v.die(0).ops;
  ASSERT_EQ(ops.size(), size_t(3 * n));
  for (size_t i = 0; i < ops.size(); ++i) {
    const double ns = double(ops[i].end - ops[i].start), nominal = double(v.page_prog_ns(uint32_t(i % 3)));
    EXPECT_LE(std::abs(ns - nominal), 0.1 * nominal + 1);
    sum[i % 3] += ns;
  }
  for (uint32_t k = 0; k < 3; ++k) EXPECT_NEAR(sum[k] / n / double(v.page_prog_ns(k)), 1.0, 0.01) << "page type " << k;
}

TEST(SimPriority, ReadRetriesComeAtTheirProbability) {
  auto p = quiet();
  p.read_retry = 0.2;
  const Geometry g(p);
  FlashTiming t(p, g, 3);
  const int n = 20000;
  int slow = 0;
  for (int i = 0; i < n; ++i) {
    const uint64_t at = uint64_t(i) * 1'000'000;
    t.host_time(at);
    if (t.host_read(0, at, 4096) - at >= 2 * p.read_ns) ++slow;
  }
  // A read needs at least one retry with probability p; retries per read are geometric, p/(1-p).
  EXPECT_NEAR(double(slow) / n, 0.2, 0.012);
  EXPECT_NEAR(double(t.counters().read_retries) / n, 0.25, 0.02);
}

TEST(SimPriority, TailsAreTheSameForASeedAndDifferForAnother) {
  auto p = simtest::tiny();
  auto p99 = [&](uint32_t seed) {
    p.variation_seed = seed;
    Drive d(p, 1);
    run(d, spec(0, 128 * 1024, 1, 8, 0, 3, 256ull << 20));  // data to read
    const auto r = run(d, spec(70, 4096, 1, 4, 1, 5));
    engine::LatencyHistogram h;
    for (const auto& w : r.stats) h.merge(w.read_latency);
    return std::vector<uint64_t>{h.samples(), h.sum_ns(), h.percentile_ns(99), h.percentile_ns(99.99), h.max_ns()};
  };
  const auto a = p99(11), b = p99(11), c = p99(12);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_GT(a[3], 2 * a[1] / a[0]) << "99.99 % well above the mean";
}

TEST(SimPriority, AnIdleManyDieDriveCleansAtLeastAsFastAsABusyOne) {
  // tiny's die, 16 of them on 4 channels (dc-tlc-2t's 1/16 scale model keeps its 64 dies but
  // takes minutes to reach steady state; the idle path is the same).
  auto p = simtest::tiny();
  p.dies = 16;
  p.channels = 4;
  p.buffer_bytes *= 16;
  p.ftl_page_ns /= 16;         // tiny's controller stands for one die's share of dc-tlc-2t's
  p.pages_per_block = 3 * 32;  // 6 MiB superblocks: about 180 in 1 GiB, 12 of them spare
  p.idle_gc_free = 10;         // more than 100 ms of idle GC to reach from steady state
  p.prog_var = 0;              // the scheduling alone: both rates with the same, fixed program times
  p.read_retry = 0;
  p.ctrl_jitter_ns = 0;
  ASSERT_TRUE(validate(p).ok()) << validate(p).error().message();
  Drive d(p, 1);
  run(d, spec(0, 4096, 4, 32, 0, 3, 3 * p.capacity_bytes));  // steady state
  const uint64_t gc0 = d.counters().ftl.gc_pages;
  const auto busy = run(d, spec(0, 4096, 4, 32, 2, 4));
  const double busy_rate = double(d.counters().ftl.gc_pages - gc0) / busy.seconds();
  ASSERT_GT(busy_rate, 0);
  // The busy cell leaves booked work behind it (GC is booked from the host write that owes it):
  // idle GC starts once that is done, so its rate is over the time from there.
  const uint64_t gc1 = d.counters().ftl.gc_pages;
  const uint64_t t0 = d.timing().all_idle();
  ASSERT_LT(d.ftl().free_superblocks(), p.idle_gc_free);
  d.idle(t0 - d.now() + 100'000'000);
  EXPECT_LT(d.ftl().free_superblocks(), p.idle_gc_free) << "still cleaning at the end of the idle period";
  const double idle_rate = double(d.counters().ftl.gc_pages - gc1) / (double(d.timing().all_idle() - t0) / 1e9);
  std::printf("GC pages copied per second on the 16-die model: idle %.0f, busy (4 x QD 32 random writes) %.0f\n",
              idle_rate, busy_rate);
  // Idle and busy GC run at the same rate within about 1 % either way, depending on the
  // variation's seed (seed 1 with variation: 132,326 vs 132,662; fixed times: 131,303 vs 132,931);
  // the old idle path, one step waiting for the last step's reads, gave 19,404 here. Parity
  // within 3 % is what the scheduling change buys; idle cleaning faster than busy is not shown.
  EXPECT_GE(idle_rate, 0.97 * busy_rate) << "GC pages per second: idle " << idle_rate << ", busy " << busy_rate;
}

}  // namespace
}  // namespace pts::sim
