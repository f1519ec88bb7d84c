// unit-tests/engine/latency_histogram_test.cpp — the log-linear histogram against an exact
// sort: every reported percentile within the stated relative error, exact min/max/mean,
// merging equals recording everything in one histogram.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "engine/latency_histogram.h"

using pts::engine::LatencyHistogram;

namespace {

uint64_t exact_percentile(const std::vector<uint64_t>& sorted, double pct) {
  double rank = std::ceil(pct / 100.0 * static_cast<double>(sorted.size()) - 1e-9);
  size_t r = rank < 1 ? 1 : static_cast<size_t>(rank);
  return sorted[std::min(r, sorted.size()) - 1];
}

void expect_within_error(const std::vector<uint64_t>& values) {
  LatencyHistogram h;
  for (uint64_t v : values) h.record(v);
  std::vector<uint64_t> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  for (double pct : {1.0, 10.0, 25.0, 50.0, 75.0, 90.0, 99.0, 99.9, 99.99, 99.999, 100.0}) {
    const double exact = static_cast<double>(exact_percentile(sorted, pct));
    const double got = static_cast<double>(h.percentile_ns(pct));
    EXPECT_LE(std::fabs(got - exact), exact * LatencyHistogram::kRelativeError + 1e-9)
        << "p" << pct << " exact " << exact << " got " << got;
  }
  EXPECT_EQ(h.min_ns(), sorted.front());
  EXPECT_EQ(h.max_ns(), sorted.back());
  long double sum = 0;
  for (uint64_t v : values) sum += v;
  EXPECT_NEAR(h.mean_ns(), static_cast<double>(sum / values.size()), 1e-6 * h.mean_ns());
}

}  // namespace

TEST(LatencyHistogram, BucketsTileTheRangeWithBoundedWidth) {
  for (size_t i = 1; i + 1 < LatencyHistogram::kBuckets; ++i) {
    ASSERT_EQ(LatencyHistogram::bucket_low(i) + LatencyHistogram::bucket_width(i), LatencyHistogram::bucket_low(i + 1)) << i;
    if (LatencyHistogram::bucket_width(i) == 1) continue;  // exact values
    ASSERT_LE(static_cast<double>(LatencyHistogram::bucket_width(i)) / 2.0,
              static_cast<double>(LatencyHistogram::bucket_low(i)) * LatencyHistogram::kRelativeError + 1e-12) << i;
  }
  for (uint64_t v : {0ull, 1ull, 127ull, 128ull, 255ull, 256ull, 257ull, 1000ull, 123456789ull, (1ull << 47) + 12345}) {
    const size_t b = LatencyHistogram::bucket_of(v);
    EXPECT_LE(LatencyHistogram::bucket_low(b), v);
    EXPECT_GT(LatencyHistogram::bucket_low(b) + LatencyHistogram::bucket_width(b), v);
  }
}

TEST(LatencyHistogram, PercentilesMatchExactSortLogNormal) {
  std::mt19937_64 gen(42);
  std::lognormal_distribution<double> dist(std::log(80000.0), 0.6);  // ~80 µs, long tail
  std::vector<uint64_t> v(200000);
  for (auto& x : v) x = static_cast<uint64_t>(dist(gen));
  expect_within_error(v);
}

TEST(LatencyHistogram, PercentilesMatchExactSortBimodalAndWideRange) {
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> expo(0.0, 36.0);  // 1 ns .. ~68 s, log-uniform
  std::vector<uint64_t> v;
  for (int i = 0; i < 100000; ++i) v.push_back(static_cast<uint64_t>(std::exp2(expo(gen))));
  for (int i = 0; i < 50000; ++i) v.push_back(5000 + (gen() % 50));  // a tight mode
  expect_within_error(v);
}

TEST(LatencyHistogram, SmallValuesAreExact) {
  LatencyHistogram h;
  for (uint64_t v = 0; v < 128; ++v) h.record(v);
  EXPECT_EQ(h.percentile_ns(50), 63u);
  EXPECT_EQ(h.percentile_ns(100), 127u);
  EXPECT_EQ(h.samples(), 128u);
}

TEST(LatencyHistogram, MergeEqualsOneHistogram) {
  std::mt19937_64 gen(3);
  LatencyHistogram a, b, all;
  for (int i = 0; i < 50000; ++i) {
    uint64_t x = 1000 + gen() % 1000000;
    (i % 3 ? a : b).record(x);
    all.record(x);
  }
  a.merge(b);
  EXPECT_EQ(a.samples(), all.samples());
  EXPECT_EQ(a.min_ns(), all.min_ns());
  EXPECT_EQ(a.max_ns(), all.max_ns());
  EXPECT_DOUBLE_EQ(a.mean_ns(), all.mean_ns());
  for (double p : {50.0, 99.0, 99.99}) EXPECT_EQ(a.percentile_ns(p), all.percentile_ns(p));
}

TEST(LatencyHistogram, SummaryStatesItsError) {
  LatencyHistogram h;
  h.record(1000);
  const auto s = h.summary();
  EXPECT_DOUBLE_EQ(s.percentile_rel_error, LatencyHistogram::kRelativeError);
  EXPECT_EQ(s.p99_999_ns, 1000u);
  EXPECT_EQ(LatencyHistogram().summary().samples, 0u);
}

// The walks cover only the buckets between min and max (and those a stored record added):
// a histogram reused across cells must forget every count, and summary()'s one walk must
// give what percentile_ns() gives for each percentile.
TEST(LatencyHistogram, ReusedAfterClearEqualsFresh) {
  std::mt19937_64 gen(11);
  LatencyHistogram reused, wide;
  for (int i = 0; i < 20000; ++i) wide.record(static_cast<uint64_t>(std::exp2(3.0 + static_cast<double>(gen() % 3300) / 100.0)));
  // A stored record whose buckets lie outside its own min/max: accepted (its counts add up),
  // and clear() must still find them.
  pts::model::LatencyHistogramRecord odd;
  odd.sub_bucket_bits = LatencyHistogram::kSubBits;
  odd.max_bit = LatencyHistogram::kMaxBit;
  odd.samples = 3;
  odd.min_ns = odd.max_ns = 5000;
  odd.buckets = {{3, 1}, {static_cast<uint32_t>(LatencyHistogram::kBuckets - 1), 2}};
  ASSERT_TRUE(wide.merge_record(odd));
  reused.merge(wide);
  reused.clear();
  LatencyHistogram fresh;
  for (uint64_t edge : {uint64_t{1}, uint64_t{1} << 50}) {  // span every bucket: a stale count would show
    reused.record(edge);
    fresh.record(edge);
  }
  for (int i = 0; i < 5000; ++i) {
    const uint64_t x = 40000 + gen() % 20000;
    reused.record(x);
    fresh.record(x);
  }
  const auto a = reused.to_record(), b = fresh.to_record();
  ASSERT_EQ(a.buckets.size(), b.buckets.size());
  for (size_t i = 0; i < a.buckets.size(); ++i) {
    EXPECT_EQ(a.buckets[i].index, b.buckets[i].index);
    EXPECT_EQ(a.buckets[i].count, b.buckets[i].count);
  }
  EXPECT_EQ(reused.summary().p99_999_ns, fresh.summary().p99_999_ns);
  // After the odd record, the top bucket holds 2 of 20003 samples: p99.999 lands there.
  const auto s = wide.summary();
  EXPECT_EQ(s.p50_ns, wide.percentile_ns(50));
  EXPECT_EQ(s.p99_ns, wide.percentile_ns(99));
  EXPECT_EQ(s.p99_9_ns, wide.percentile_ns(99.9));
  EXPECT_EQ(s.p99_99_ns, wide.percentile_ns(99.99));
  EXPECT_EQ(s.p99_999_ns, wide.percentile_ns(99.999));
  EXPECT_EQ(wide.to_record().buckets.back().index, LatencyHistogram::kBuckets - 1);
  EXPECT_EQ(wide.to_record().buckets.front().index, 3u);
}
