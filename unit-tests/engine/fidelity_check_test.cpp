// unit-tests/engine/fidelity_check_test.cpp — the per-cell fidelity checks: I/O counts within
// 1 % of the kernel's, the kernel's average in flight against TC×QD (or the device's limit
// when saturated), the Little's-law floor, paced cells exempt from the depth checks, files
// (no kernel counters) checked on Little's law only, the deviation text listing cells, merged
// sequential I/O held to the kernel's request count, and short cells left unjudged on depth.
#include <gtest/gtest.h>

#include "engine/fidelity_check.h"

using namespace pts;

namespace {

model::CellResult cell(uint32_t tc, uint32_t qd, uint64_t engine_ios, uint64_t kernel_ios, double in_flight,
                       double little) {
  model::CellResult c;
  c.cell_id = "rw100-bs4096";
  c.spec.threads = tc;
  c.spec.queue_depth = qd;
  c.seconds = 60;
  c.read_ios = engine_ios;
  c.littles_law_oio = little;
  model::KernelCounters k;
  k.device = "loop0";
  k.read_ios = kernel_ios;
  k.host_ios = kernel_ios;
  k.avg_in_flight = in_flight;
  k.in_flight_limit = 128;
  k.saturated = uint64_t{tc} * qd > 128;
  c.kernel = k;
  return c;
}

using Flags = std::vector<std::string>;

}  // namespace

TEST(FidelityCheck, AHeldCellPasses) {
  EXPECT_EQ(engine::fidelity_flags(cell(2, 16, 100000, 100990, 31.0, 31.9)), Flags{});
}

TEST(FidelityCheck, IoCountsMoreThanOnePercentApartAreFlagged) {
  EXPECT_EQ(engine::fidelity_flags(cell(1, 32, 100000, 98900, 31, 31.9)), Flags{"io-count"});
  EXPECT_EQ(engine::fidelity_flags(cell(1, 32, 100000, 101100, 31, 31.9)), Flags{"io-count"});
  EXPECT_EQ(engine::fidelity_flags(cell(1, 32, 100000, 99000, 31, 31.9)), Flags{});  // exactly 1 %
  EXPECT_EQ(engine::fidelity_flags(cell(1, 32, 0, 5, 31, 31.9)), Flags{"io-count"});
}

TEST(FidelityCheck, KernelInFlightBelowNinetyPercentOfDepthIsFlagged) {
  EXPECT_EQ(engine::fidelity_flags(cell(1, 8, 1000, 1000, 7.1, 7.9)), Flags{"in-flight"});
  EXPECT_EQ(engine::fidelity_flags(cell(1, 8, 1000, 1000, 7.2, 7.9)), Flags{});
}

TEST(FidelityCheck, SaturatedDeviceIsHeldToItsLimitNotToTcTimesQd) {
  // 2 × 128 outstanding on a device with 128 tags: 120 in flight is the device full.
  EXPECT_EQ(engine::fidelity_flags(cell(2, 128, 1000, 1000, 120, 250)), Flags{});
  EXPECT_EQ(engine::fidelity_flags(cell(2, 128, 1000, 1000, 100, 250)), Flags{"in-flight"});
}

TEST(FidelityCheck, LittlesLawBelowNinetyPercentIsFlagged) {
  EXPECT_EQ(engine::fidelity_flags(cell(1, 32, 1000, 1000, 31, 28.0)), Flags{"littles-law"});
}

TEST(FidelityCheck, PacedCellsSkipTheDepthChecksButNotTheCount) {
  auto c = cell(1, 32, 1000, 900, 1.0, 1.0);
  c.spec.rate_iops = 500;
  EXPECT_EQ(engine::fidelity_flags(c), Flags{"io-count"});
}

TEST(FidelityCheck, WithoutKernelCountersOnlyLittlesLawIsChecked) {
  auto c = cell(1, 8, 1000, 0, 0, 5.0);
  c.kernel.reset();
  EXPECT_EQ(engine::fidelity_flags(c), Flags{"littles-law"});
}

TEST(FidelityCheck, DeviationListsCellsWithRoundsAndWorstFigures) {
  auto a1 = cell(1, 8, 1000, 1000, 5.5, 7.9);
  auto a2 = cell(1, 8, 1000, 1000, 4.25, 7.9);
  auto b = cell(1, 8, 1000, 950, 7.5, 6.0);
  b.cell_id = "rw0-bs512";
  auto ok = cell(1, 8, 1000, 1000, 7.9, 7.9);
  for (auto* c : {&a1, &a2, &b, &ok}) c->fidelity_flags = engine::fidelity_flags(*c);
  model::CellResult a3 = a1;
  const std::string text = engine::fidelity_deviation_text(
      "iops", {{1, &a1}, {2, &a2}, {3, &a3}, {5, &a1}, {1, &b}, {1, &ok}});
  EXPECT_NE(text.find("Sub-test iops: 2 cell(s)"), std::string::npos) << text;
  EXPECT_NE(text.find("rw100-bs4096 (Round 1-3, 5): kernel average in flight down to 4.25 of 8 (TC×QD)"),
            std::string::npos) << text;
  EXPECT_NE(text.find("rw0-bs512 (Round 1): kernel and engine I/O counts differ by up to 5.00 %; IOPS × mean "
                      "latency down to 6.00 of TC×QD 8"),
            std::string::npos) << text;
  EXPECT_EQ(engine::fidelity_deviation_text("iops", {{1, &ok}}), "");
}

TEST(FidelityCheck, DeviationNamesOnlyTheWorstCellsInWords) {
  std::vector<model::CellResult> cells;
  for (int i = 0; i < 8; ++i) {  // in flight 7.0, 6.0, ... 0.0 of 8: the last ones are the worst
    auto c = cell(1, 8, 1000, 1000, 7.0 - i, 7.9);
    c.cell_id = "cell" + std::to_string(i);
    c.fidelity_flags = engine::fidelity_flags(c);
    cells.push_back(c);
  }
  std::vector<engine::FlaggedCell> flagged;
  for (const auto& c : cells) flagged.push_back({1, &c});
  const std::string text = engine::fidelity_deviation_text("iops", flagged);
  EXPECT_NE(text.find("Sub-test iops: 8 cell(s)"), std::string::npos) << text;
  EXPECT_NE(text.find("in-flight 8"), std::string::npos) << text;
  EXPECT_EQ(text.find("cell0 "), std::string::npos) << text;  // the mildest are left to the Raw sheet
  EXPECT_EQ(text.find("cell2 "), std::string::npos) << text;
  EXPECT_LT(text.find("cell7 "), text.find("cell3 ")) << text;  // the worst first
  EXPECT_NE(text.find("And 3 more cell(s)"), std::string::npos) << text;
}

TEST(FidelityCheck, MergedSequentialIoIsHeldToTheKernelsRequestCount) {
  // WIPC-like: 32 outstanding 128 KiB writes, merged 10:1 into 1.25 MiB requests. The kernel
  // counts 1000 requests for 10000 host I/Os, so 3.2 requests in flight is QD 32 held.
  auto c = cell(1, 32, 10000, 10000, 3.18, 31.5);
  c.kernel->read_ios = 1000;
  c.kernel->read_merges = 9000;
  EXPECT_EQ(engine::fidelity_flags(c), Flags{});
  EXPECT_DOUBLE_EQ(engine::kernel_depth_target(c), 3.2);
  // The same merges with a real shortfall (half the depth) are still flagged, and said so.
  c.kernel->avg_in_flight = 1.6;
  c.fidelity_flags = engine::fidelity_flags(c);
  EXPECT_EQ(c.fidelity_flags, Flags{"in-flight"});
  const std::string text = engine::fidelity_deviation_text("wipc", {{0, &c}});
  EXPECT_NE(text.find("down to 1.60 of 3.20 (TC×QD × the kernel's requests per I/O"), std::string::npos) << text;
  // Unmerged, the same figure is a shortfall.
  auto plain = cell(1, 32, 10000, 10000, 3.18, 31.5);
  EXPECT_EQ(engine::fidelity_flags(plain), Flags{"in-flight"});
}

TEST(FidelityCheck, MergesAndSaturationTogetherUseTheSmallerTarget) {
  // 2 × 128 outstanding, merged 2:1 → 128 requests: the device's 128 tags, not 256.
  auto c = cell(2, 128, 2000, 2000, 120, 250);
  c.kernel->read_ios = 1000;
  c.kernel->read_merges = 1000;
  EXPECT_DOUBLE_EQ(engine::kernel_depth_target(c), 128);
  c.kernel->read_merges = 3000;  // 4:1 → 64 requests' worth
  c.kernel->host_ios = 4000;
  c.read_ios = 4000;
  EXPECT_DOUBLE_EQ(engine::kernel_depth_target(c), 64);
}

TEST(FidelityCheck, ShortCellsAreNotJudgedOnDepthAndSaySo) {
  auto c = cell(1, 32, 1000, 1000, 20.0, 20.0);  // both depth checks would fail
  c.seconds = engine::kMinJudgedCellSeconds * 0.1;   // a 50 ms test cell
  EXPECT_EQ(engine::fidelity_flags(c), Flags{});
  EXPECT_EQ(engine::fidelity_not_judged(c), (Flags{"in-flight", "littles-law"}));
  // The I/O count is exact at any length: still judged.
  c.kernel->host_ios = 900;
  EXPECT_EQ(engine::fidelity_flags(c), Flags{"io-count"});
  // At the minimum length the same shortfall is flagged and nothing is left unjudged.
  c.kernel->host_ios = 1000;
  c.seconds = engine::kMinJudgedCellSeconds;
  EXPECT_EQ(engine::fidelity_flags(c), (Flags{"in-flight", "littles-law"}));
  EXPECT_EQ(engine::fidelity_not_judged(c), Flags{});
  // Without kernel counters only Little's law is left unjudged.
  c.seconds = 0.05;
  c.kernel.reset();
  EXPECT_EQ(engine::fidelity_not_judged(c), Flags{"littles-law"});
}
