// unit-tests/engine/uring_engine_test.cpp — the real io_uring engine on a file in /dev/shm
// (tmpfs has O_DIRECT): results add up, the R/W mix holds, pacing holds its target, a byte
// budget stops the cell, cells run back to back on warm rings, a read-only engine refuses
// writes, the seed is recorded, and the I/O phase is reported on the monotonic clock. Skips (77) where io_uring or O_DIRECT is unavailable.
#include <thread>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>

#include "core/clock.h"
#include "engine/completion_probe.h"
#include "engine/io_engine.h"
#include "engine/workload.h"
#include "engine/io_target.h"

using namespace pts;

namespace {

class UringEngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = "/dev/shm/ptsuite-engine-test-" + std::to_string(getpid());
    unlink(path_.c_str());
    auto made = engine::create_file_target(path_, 64ull << 20);
    if (!made) GTEST_SKIP() << made.error().message();
    auto info = engine::inspect_target(path_, true);
    if (!info) GTEST_SKIP() << info.error().message();
    target_ = info->target;
    auto eng = engine::open_uring_engine(target_, true);
    if (!eng) GTEST_SKIP() << eng.error().message();
    engine_ = std::move(eng.value());
  }
  void TearDown() override {
    engine_.reset();
    unlink(path_.c_str());
  }
  model::CellResult run(const model::AccessSpec& spec) {
    auto r = engine_->run(spec);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
    return r.ok() ? r.value() : model::CellResult{};
  }
  std::string path_;
  engine::IoTarget target_;
  std::unique_ptr<engine::IoEngine> engine_;
};

model::AccessSpec spec_of(uint32_t read_pct, uint32_t qd, double seconds) {
  model::AccessSpec s;
  s.read_pct = read_pct;
  s.queue_depth = qd;
  s.seconds = seconds;
  return s;
}

}  // namespace

TEST_F(UringEngineTest, ResultsAddUpAndSeedIsRecorded) {
  auto spec = spec_of(100, 8, 0.5);
  spec.threads = 2;
  const auto r = run(spec);
  EXPECT_NE(r.spec.seed, 0u);
  EXPECT_EQ(r.io_errors, 0u) << r.error;
  EXPECT_GT(r.read_ios, 1000u);
  EXPECT_EQ(r.write_ios, 0u);
  EXPECT_EQ(r.read_bytes, r.read_ios * 4096);
  EXPECT_NEAR(r.iops, r.read_ios / r.seconds, 1e-6 * r.iops);
  EXPECT_NEAR(r.mbps, r.read_bytes / 1e6 / r.seconds, 1e-6 * r.mbps);
  EXPECT_EQ(r.latency.samples, r.read_ios);
  EXPECT_LE(r.latency.min_ns, r.latency.p50_ns);
  EXPECT_LE(r.latency.p50_ns, r.latency.p99_ns);
  EXPECT_LE(r.latency.p99_999_ns, r.latency.max_ns);
  EXPECT_GT(r.latency.percentile_rel_error, 0);
  EXPECT_GE(r.seconds, 0.5);
  EXPECT_GT(r.cpu_usr_pct + r.cpu_sys_pct, 0);
  // Little's law: IOPS × mean latency is the mean number in flight, at most TC×QD.
  EXPECT_LE(r.littles_law_oio, 16.0 * 1.05);
  EXPECT_GT(r.littles_law_oio, 0.5);
  // The same seed given again is kept.
  spec.seed = r.spec.seed;
  spec.seconds = 0.1;
  EXPECT_EQ(run(spec).spec.seed, r.spec.seed);
}

TEST_F(UringEngineTest, ReadWriteMixHoldsPerIo) {
  auto spec = spec_of(70, 16, 0.5);
  const auto r = run(spec);
  const double n = static_cast<double>(r.read_ios + r.write_ios);
  ASSERT_GT(n, 2000);
  const double sigma = std::sqrt(n * 0.7 * 0.3);
  EXPECT_NEAR(static_cast<double>(r.read_ios), 0.7 * n, 5 * sigma);
  EXPECT_EQ(r.read_latency.samples, r.read_ios);
  EXPECT_EQ(r.write_latency.samples, r.write_ios);
}

TEST_F(UringEngineTest, BlockSizeSplitHoldsPerIo) {
  auto spec = spec_of(100, 8, 0.5);
  spec.bs_split = {{4096, 50}, {65536, 50}};
  const auto r = run(spec);
  ASSERT_GT(r.read_ios, 1000u);
  const double n = static_cast<double>(r.read_ios);
  // bytes = 4096 × n4k + 65536 × (n − n4k): recover the 4 KiB share and check it.
  const double n4k = (65536.0 * n - static_cast<double>(r.read_bytes)) / (65536.0 - 4096.0);
  EXPECT_NEAR(n4k, 0.5 * n, 5 * std::sqrt(n * 0.25));
}

TEST_F(UringEngineTest, RatePacingHoldsItsTarget) {
  // Unthrottled first, to pick a target well below what this machine can do right now.
  const auto free_run = run(spec_of(100, 4, 0.3));
  const uint64_t target = std::max<uint64_t>(200, static_cast<uint64_t>(free_run.iops / 10));
  auto spec = spec_of(100, 4, 2.0);
  spec.rate_iops = target;
  spec.threads = 2;
  const auto r = run(spec);
  EXPECT_NEAR(r.iops / static_cast<double>(target), 1.0, 0.05) << r.iops << " vs " << target;
}

TEST_F(UringEngineTest, ByteBudgetStopsTheCell) {
  auto spec = spec_of(0, 8, 1000.0);  // the budget, not the 1000 s, must end it
  spec.pattern = model::AccessPattern::Sequential;
  spec.block_bytes = 131072;
  spec.threads = 2;
  spec.bytes_limit = 2 * target_.size_bytes;
  const auto r = run(spec);
  EXPECT_GE(r.write_bytes, spec.bytes_limit);
  EXPECT_LE(r.write_bytes, spec.bytes_limit + 2 * 131072);
  EXPECT_LT(r.seconds, 100);
}

TEST_F(UringEngineTest, CellsRunBackToBackOnWarmRings) {
  auto spec = spec_of(100, 16, 0.05);
  run(spec);  // warms threads, rings and buffers
  // Idle gap: from the last completion of one cell to the first submission of the next; the
  // median over 20 gaps. A ratio, not a time: the gap is a small share of even a 50 ms cell.
  // 2 %: 1 ms. Alternating builds at load 6.7-7.0, the median was 186-381 us here and
  // 1266-1402 us before the write-data pool was filled once per process instead of once per
  // cell — but one attempt during a load spike read 1961 us, so up to 3 attempts are made and
  // the best counts (the regression failed every attempt; a spike passes on the next).
  double best_ratio = 1e9;
  std::vector<model::CellResult> cells;
  for (int attempt = 0; attempt < 3 && best_ratio >= 0.02; ++attempt) {
    cells.clear();
    for (int i = 0; i < 21; ++i) cells.push_back(run(spec));
    std::vector<double> gaps_us;
    for (size_t i = 1; i < cells.size(); ++i) {
      const double end_prev = static_cast<double>(cells[i - 1].started_wall_ns) + cells[i - 1].seconds * 1e9;
      gaps_us.push_back((static_cast<double>(cells[i].started_wall_ns) - end_prev) / 1e3);
    }
    std::sort(gaps_us.begin(), gaps_us.end());
    const double median_us = gaps_us[gaps_us.size() / 2];
    std::printf("idle gap between cells (attempt %d): median %.0f us, min %.0f us, max %.0f us\n", attempt + 1,
                median_us, gaps_us.front(), gaps_us.back());
    RecordProperty("median_cell_gap_us_attempt_" + std::to_string(attempt + 1), static_cast<int>(median_us));
    best_ratio = std::min(best_ratio, median_us / (spec.seconds * 1e6));
  }
  EXPECT_LT(best_ratio, 0.02);
  // Different seeds each cell: no repeating sequence per round.
  EXPECT_NE(cells[0].spec.seed, cells[1].spec.seed);
}

TEST_F(UringEngineTest, PerSecondSeriesCoversWholeSeconds) {
  const auto r = run(spec_of(100, 4, 2.2));
  ASSERT_EQ(r.ios_per_second.size(), 2u);
  const uint64_t sum = std::accumulate(r.ios_per_second.begin(), r.ios_per_second.end(), uint64_t{0});
  EXPECT_LE(sum, r.read_ios);
  // What the series leaves out is the last 0.2 s only: less than 0.6 of its busiest whole
  // second (a lost whole second would be about 1.0 of it; a ratio of totals, 2/2.2 against a
  // floor of 2/2.3, failed when a loaded machine slowed one second).
  const uint64_t busiest = *std::max_element(r.ios_per_second.begin(), r.ios_per_second.end());
  EXPECT_GT(busiest, 0u);
  EXPECT_LT(static_cast<double>(r.read_ios - sum), 0.6 * static_cast<double>(busiest))
      << "series " << r.ios_per_second[0] << ", " << r.ios_per_second[1] << "; total " << r.read_ios;
}

TEST_F(UringEngineTest, ProgressReportsAboutOncePerSecond) {
  std::vector<std::pair<double, uint64_t>> calls;
  auto r = engine_->run(spec_of(100, 4, 2.5), nullptr,
                        [&](double elapsed, uint64_t ios) { calls.emplace_back(elapsed, ios); });
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_NEAR(calls[0].first, 1.0, 0.25);
  EXPECT_GT(calls[1].second, calls[0].second);
  EXPECT_LE(calls[1].second, r->read_ios);
}

TEST_F(UringEngineTest, ReportsItsIoPhaseOnTheMonotonicClock) {
  const auto spec = spec_of(100, 8, 0.05);
  const uint64_t called = core::monotonic_ns();
  const auto r = run(spec);
  const uint64_t returned = core::monotonic_ns();
  const auto phase = engine_->last_io_phase();
  ASSERT_TRUE(phase);
  // Inside the call, after the workers' set-up and before their drain.
  EXPECT_LE(called, phase->first_submit_ns);
  EXPECT_LE(phase->last_completion_ns, returned);
  // It ends at the last completion, which is also where the measured duration ends; the
  // duration runs from t0, just before the workers were let go, so it holds the phase.
  const double phase_s = static_cast<double>(phase->last_completion_ns - phase->first_submit_ns) / 1e9;
  EXPECT_LE(phase_s, r.seconds);
  EXPECT_GE(phase_s, 0.5 * spec.seconds);
  // A run that fails says nothing about the previous one's phase.
  EXPECT_FALSE(engine_->run(spec_of(100, 8, 0)).ok());
  EXPECT_FALSE(engine_->last_io_phase());
}

TEST_F(UringEngineTest, AbortEndsTheCellEarly) {
  std::atomic<bool> abort{true};
  auto r = engine_->run(spec_of(100, 4, 30.0), &abort);
  ASSERT_TRUE(r.ok());
  EXPECT_LT(r->seconds, 5.0);
}

TEST_F(UringEngineTest, ReadOnlyEngineRefusesWrites) {
  auto ro = engine::open_uring_engine(target_, false);
  ASSERT_TRUE(ro.ok());
  auto r = ro.value()->run(spec_of(50, 1, 0.1));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::BadInput);
}

TEST_F(UringEngineTest, LowDepthPollingIsRecordedAndResultsStayWhole) {
  const unsigned cpus = std::thread::hardware_concurrency();
  auto low = spec_of(70, 1, 0.3);
  const auto r = run(low);
  if (cpus > 1) {  // the auto budget: the probe measured both waits and chose the faster
    EXPECT_GT(r.completion.probe_sleep_ns, 0u);
    EXPECT_GT(r.completion.probe_poll_ns, 0u);
    EXPECT_EQ(r.completion_poll_ns,
              r.completion.probe_poll_ns < r.completion.probe_sleep_ns ? model::kAutoPollBudgetNs : 0u);
  } else {
    EXPECT_EQ(r.completion_poll_ns, 0u);
  }
  auto fixed = spec_of(70, 1, 0.2);
  fixed.poll_budget_ns = 200'000;  // an explicit budget: no probe
  const auto f = run(fixed);
  EXPECT_EQ(f.completion_poll_ns, engine::completion_poll_ns_for(fixed, cpus));
  EXPECT_EQ(f.completion.probe_sleep_ns, 0u);
  if (cpus > 1) {
    EXPECT_EQ(f.completion_poll_ns, 200'000u);
  }
  EXPECT_EQ(r.io_errors, 0u) << r.error;
  EXPECT_EQ(r.latency.samples, r.read_ios + r.write_ios);
  EXPECT_GT(r.read_ios, 0u);
  EXPECT_GT(r.write_ios, 0u);
  EXPECT_LE(r.littles_law_oio, 1.05);  // never more than one I/O in flight
  // Above low depth the auto budget never polls for the whole budget: the depth probe measured
  // a short spin against sleeping and the spin is kept only for its margin (the host decides
  // which, so the test checks the choice follows the probe's own figures).
  const auto deep_spec = spec_of(100, 32, 0.2);
  const auto deep = run(deep_spec);
  if (engine::completion_probe_for(deep_spec, cpus)) {
    ASSERT_GT(deep.completion.probe_sleep_ns, 0u);
    ASSERT_GT(deep.completion.probe_poll_ns, 0u);
    const bool spin = deep.completion.probe_poll_ns * 100 <=
                      deep.completion.probe_sleep_ns * (100 - engine::kDepthSpinGainPct);
    EXPECT_EQ(deep.completion_poll_ns, spin ? model::kDepthSpinNs : 0u);
  } else {
    EXPECT_EQ(deep.completion_poll_ns, 0u);
  }
}

// The published queue-depth limit is the kernel's: at the limit the ring is made and the cell
// runs; one past it, the engine fails at setup (which is why the plan checks it first).
TEST_F(UringEngineTest, PublishedQueueDepthLimitIsTheKernels) {
  const auto limits = engine::uring_engine_limits();
  ASSERT_EQ(limits.max_queue_depth, 32768u);
  auto at = spec_of(100, limits.max_queue_depth, 0.02);
  at.block_bytes = 4096;
  auto ok = engine_->run(at);
  ASSERT_TRUE(ok.ok()) << ok.error().message();
  EXPECT_GT(ok->read_ios, 0u);
  auto past = spec_of(100, limits.max_queue_depth + 1, 0.02);
  auto refused = engine_->run(past);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message().find("io_uring_queue_init"), std::string::npos) << refused.error().message();
  EXPECT_GT(limits.min_cell_seconds, 0);
  EXPECT_GT(limits.max_buffer_bytes_total, 0u);
}
