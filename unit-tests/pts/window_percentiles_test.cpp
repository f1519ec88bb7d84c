// unit-tests/pts/window_percentiles_test.cpp — the Measurement Window's percentiles are those
// of all its I/Os: the Rounds' stored histograms merged, checked against an exact sort of
// every sample of the window (within the histogram's stated error; the maximum exact), and
// shown to differ from the average of per-Round percentiles when one Round has a worse tail.
// Cells without histograms (older records) fall back and say so.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "engine/latency_histogram.h"
#include "pts/window_results.h"

using namespace pts;

namespace {

model::SubTestPlan one_cell_plan() {
  model::SubTestPlan p;
  model::CellPlan c;
  c.id = "rw65-bs4096";
  p.cells.push_back(c);
  return p;
}

/// Exact value of rank ceil(pct/100 × N) (1-based) in the sorted samples.
uint64_t exact_percentile(std::vector<uint64_t> v, double pct) {
  std::sort(v.begin(), v.end());
  auto rank = static_cast<size_t>(std::ceil(pct / 100.0 * static_cast<double>(v.size()) - 1e-9));
  rank = std::clamp<size_t>(rank, 1, v.size());
  return v[rank - 1];
}

struct WindowFixture {
  std::vector<model::RoundRecord> rounds;
  std::vector<uint64_t> window_all, window_reads, window_writes;  // every sample of rounds 2..6
  double mean_of_round_p99_999 = 0;
};

/// Six Rounds of one cell, 65 % reads; Round 4 has a slow tail (the kind of Round an average of
/// per-Round 5 nines hides). The window is Rounds 2..6.
WindowFixture make_rounds() {
  WindowFixture f;
  std::mt19937_64 gen(2024);
  for (uint32_t r = 1; r <= 6; ++r) {
    engine::LatencyHistogram reads, writes;
    std::lognormal_distribution<double> base(std::log(80000.0), 0.35);   // ~80 us
    std::lognormal_distribution<double> tail(std::log(4000000.0), 0.5);  // ~4 ms
    std::uniform_real_distribution<double> u(0, 1);
    const int n = 20000 + 1000 * static_cast<int>(r);
    for (int i = 0; i < n; ++i) {
      const bool slow = r == 4 && u(gen) < 0.002;
      const auto ns = static_cast<uint64_t>(slow ? tail(gen) : base(gen));
      const bool is_read = u(gen) < 0.65;
      (is_read ? reads : writes).record(ns);
      if (r >= 2) {
        f.window_all.push_back(ns);
        (is_read ? f.window_reads : f.window_writes).push_back(ns);
      }
    }
    model::CellResult c;
    c.cell_id = "rw65-bs4096";
    engine::LatencyHistogram all = reads;
    all.merge(writes);
    c.latency = all.summary();
    c.read_histogram = reads.to_record();
    c.write_histogram = writes.to_record();
    if (r >= 2) f.mean_of_round_p99_999 += static_cast<double>(c.latency.p99_999_ns) / 5;
    model::RoundRecord round;
    round.round = r;
    round.cells.push_back(c);
    f.rounds.push_back(round);
  }
  return f;
}

void expect_within(uint64_t got, uint64_t exact, const char* what) {
  const double tol = std::max(1.0, engine::LatencyHistogram::kRelativeError * static_cast<double>(exact));
  EXPECT_NEAR(static_cast<double>(got), static_cast<double>(exact), tol) << what;
}

}  // namespace

TEST(WindowPercentiles, AreThoseOfTheMergedHistogramsOfAllTheWindowsIos) {
  const WindowFixture f = make_rounds();
  const auto w = runner::window_results(one_cell_plan(), f.rounds, 2, 6);
  ASSERT_EQ(w.size(), 1u);
  const auto& r = w[0];
  EXPECT_TRUE(r.percentiles_pooled);
  EXPECT_EQ(r.rounds, 5u);
  EXPECT_EQ(r.latency.samples, f.window_all.size());
  EXPECT_EQ(r.read_latency.samples, f.window_reads.size());
  EXPECT_EQ(r.write_latency.samples, f.window_writes.size());
  expect_within(r.latency.p50_ns, exact_percentile(f.window_all, 50), "p50");
  expect_within(r.latency.p99_ns, exact_percentile(f.window_all, 99), "p99");
  expect_within(r.latency.p99_9_ns, exact_percentile(f.window_all, 99.9), "p99.9");
  expect_within(r.latency.p99_99_ns, exact_percentile(f.window_all, 99.99), "p99.99");
  expect_within(r.latency.p99_999_ns, exact_percentile(f.window_all, 99.999), "p99.999");
  expect_within(r.read_latency.p99_9_ns, exact_percentile(f.window_reads, 99.9), "read p99.9");
  expect_within(r.write_latency.p99_99_ns, exact_percentile(f.window_writes, 99.99), "write p99.99");
  EXPECT_DOUBLE_EQ(r.p99_999_latency_ns, static_cast<double>(r.latency.p99_999_ns));
  // percentile(100) is the exact maximum, and MRT is that maximum.
  const uint64_t max = *std::max_element(f.window_all.begin(), f.window_all.end());
  EXPECT_EQ(r.latency.max_ns, max);
  EXPECT_EQ(r.max_latency_ns, max);
  uint64_t sum = 0;
  for (uint64_t v : f.window_all) sum += v;
  EXPECT_DOUBLE_EQ(r.latency.mean_ns, static_cast<double>(sum) / static_cast<double>(f.window_all.size()));
  // The average of the Rounds' 5 nines is not a percentile of the window: here it is far off.
  const double exact5 = static_cast<double>(exact_percentile(f.window_all, 99.999));
  std::printf("window of %zu I/Os: p99 exact %llu merged %llu ns; p99.999 exact %.0f merged %llu ns; mean of the "
              "Rounds' p99.999 %.0f ns; max exact %llu merged %llu ns\n",
              f.window_all.size(), static_cast<unsigned long long>(exact_percentile(f.window_all, 99)),
              static_cast<unsigned long long>(r.latency.p99_ns), exact5,
              static_cast<unsigned long long>(r.latency.p99_999_ns), f.mean_of_round_p99_999,
              static_cast<unsigned long long>(max), static_cast<unsigned long long>(r.latency.max_ns));
  EXPECT_GT(std::fabs(f.mean_of_round_p99_999 - exact5) / exact5, 0.2)
      << "mean of per-Round 5 nines " << f.mean_of_round_p99_999 << " vs pooled " << exact5;
}

TEST(WindowPercentiles, HistogramPercentile100IsTheExactMaximum) {
  engine::LatencyHistogram h;
  for (uint64_t v : {1000u, 2000u, 123457u}) h.record(v);
  EXPECT_EQ(h.percentile_ns(100), 123457u);  // the bucket midpoint would be off
  const auto rec = h.to_record();
  engine::LatencyHistogram back;
  ASSERT_TRUE(back.merge_record(rec));
  EXPECT_EQ(back.percentile_ns(100), 123457u);
  EXPECT_EQ(back.percentile_ns(50), h.percentile_ns(50));
  EXPECT_EQ(rec.buckets.size(), 3u);  // sparse: only non-empty buckets
}

TEST(WindowPercentiles, RecordsFromAnotherSchemeOrWithoutHistogramsAreNotPooled) {
  WindowFixture f = make_rounds();
  f.rounds[3].cells[0].read_histogram = {};  // a cell from an older record
  f.rounds[3].cells[0].write_histogram = {};
  auto w = runner::window_results(one_cell_plan(), f.rounds, 2, 6);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_FALSE(w[0].percentiles_pooled);
  EXPECT_EQ(w[0].latency.samples, 0u);
  EXPECT_GT(w[0].p99_999_latency_ns, 0);  // the old mean of the Rounds' values

  f = make_rounds();
  f.rounds[2].cells[0].read_histogram.sub_bucket_bits = 6;  // another bucket scheme
  w = runner::window_results(one_cell_plan(), f.rounds, 2, 6);
  EXPECT_FALSE(w[0].percentiles_pooled);
  engine::LatencyHistogram h;
  auto bad = make_rounds().rounds[1].cells[0].read_histogram;
  bad.samples += 1;  // counts do not add up
  EXPECT_FALSE(h.merge_record(bad));
  EXPECT_EQ(h.samples(), 0u);
}
