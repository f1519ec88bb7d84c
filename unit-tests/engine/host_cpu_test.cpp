// unit-tests/engine/host_cpu_test.cpp — the host's CPU use from /proc/stat's aggregate line:
// busy and total ticks as the kernel lays them out, the busy share between two readings
// (arithmetic done here), and what is no reading at all.
#include <gtest/gtest.h>

#include "engine/host_cpu.h"

namespace {

using pts::engine::host_cpu_busy_pct;
using pts::engine::parse_host_cpu;

TEST(HostCpu, ParsesTheAggregateLineNotAPerCpuOne) {
  // user nice system idle iowait irq softirq steal guest guest_nice
  const auto t = parse_host_cpu("cpu  100 5 50 800 20 3 2 1 40 0\ncpu0 1 1 1 1 1 1 1 1 0 0\nintr 9\n");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->busy, 100u + 5 + 50 + 3 + 2 + 1);  // guest is inside user already
  EXPECT_EQ(t->total, 161u + 800 + 20);
}

TEST(HostCpu, BusyShareBetweenTwoReadings) {
  const auto a = parse_host_cpu("cpu  100 0 100 800 0 0 0 0\n");
  const auto b = parse_host_cpu("cpu  250 0 150 1000 0 0 0 0\n");
  ASSERT_TRUE(a && b);
  // busy 200 → 400 (+200), total 1000 → 1400 (+400): 50 %
  EXPECT_DOUBLE_EQ(*host_cpu_busy_pct(*a, *b), 50.0);
  EXPECT_FALSE(host_cpu_busy_pct(*a, *a));  // no tick passed
  EXPECT_FALSE(host_cpu_busy_pct(*b, *a));  // backwards
}

TEST(HostCpu, NoAggregateLineIsNoReading) {
  EXPECT_FALSE(parse_host_cpu("cpu0 1 2 3 4\n"));
  EXPECT_FALSE(parse_host_cpu("cpu  1 2\n"));
  EXPECT_FALSE(pts::engine::read_host_cpu("/nonexistent/stat"));
  EXPECT_TRUE(pts::engine::read_host_cpu());  // this machine's /proc/stat
}

}  // namespace
