// engine/latency_histogram.cpp — see latency_histogram.h.
#include "engine/latency_histogram.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace pts::engine {

uint64_t LatencyHistogram::bucket_low(size_t index) {
  if (index < 2 * kSub) return index;
  const uint64_t shift = index / kSub - 1;
  return (kSub + index % kSub) << shift;
}

uint64_t LatencyHistogram::bucket_width(size_t index) {
  if (index < 2 * kSub) return 1;
  return uint64_t{1} << (index / kSub - 1);
}

uint64_t LatencyHistogram::reported_ns(size_t index) const {
  return std::clamp(bucket_low(index) + bucket_width(index) / 2, min_ns_, max_ns_);
}

std::pair<size_t, size_t> LatencyHistogram::occupied() const {
  if (samples_ == 0) return {0, 0};
  return {std::min(bucket_of(min_ns_), merged_first_), std::max(bucket_of(max_ns_) + 1, merged_last_)};
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
  const auto [first, last] = other.occupied();
  for (size_t i = first; i < last; ++i) counts_[i] += other.counts_[i];
  samples_ += other.samples_;
  sum_ns_ += other.sum_ns_;
  min_ns_ = std::min(min_ns_, other.min_ns_);
  max_ns_ = std::max(max_ns_, other.max_ns_);
  merged_first_ = std::min(merged_first_, other.merged_first_);
  merged_last_ = std::max(merged_last_, other.merged_last_);
}

void LatencyHistogram::clear() {
  const auto [first, last] = occupied();
  std::fill(counts_.begin() + static_cast<std::ptrdiff_t>(first), counts_.begin() + static_cast<std::ptrdiff_t>(last), 0);
  samples_ = 0;
  sum_ns_ = 0;
  min_ns_ = UINT64_MAX;
  max_ns_ = 0;
  merged_first_ = kBuckets;
  merged_last_ = 0;
}

void LatencyHistogram::percentiles_ns(const double* pct, uint64_t* out, size_t n) const {
  // Rank of each wanted sample, 1-based: ceil(pct/100 × N), at least 1; rank N and above is
  // the exact maximum.
  uint64_t rank[8];  // n ≤ 8: summary() asks for 5
  size_t walk = 0;  // percentiles below rank N, found by the walk
  for (size_t k = 0; k < n; ++k) {
    out[k] = samples_ ? max_ns_ : 0;
    const double rank_d = std::ceil(pct[k] / 100.0 * static_cast<double>(samples_) - 1e-9);
    rank[k] = rank_d < 1 ? 1 : static_cast<uint64_t>(rank_d);
    if (samples_ && rank[k] < samples_) walk = k + 1;
  }
  const auto [first, last] = occupied();
  uint64_t seen = 0;
  size_t k = 0;
  for (size_t i = first; i < last && k < walk; ++i) {
    seen += counts_[i];
    for (; k < walk && seen >= rank[k]; ++k) out[k] = reported_ns(i);
  }
}

uint64_t LatencyHistogram::percentile_ns(double pct) const {
  uint64_t v = 0;
  percentiles_ns(&pct, &v, 1);
  return v;
}

model::LatencyHistogramRecord LatencyHistogram::to_record() const {
  model::LatencyHistogramRecord r;
  r.sub_bucket_bits = kSubBits;
  r.max_bit = kMaxBit;
  r.samples = samples_;
  r.sum_ns = sum_ns_;
  r.min_ns = min_ns();
  r.max_ns = max_ns_;
  const auto [first, last] = occupied();
  for (size_t i = first; i < last; ++i)
    if (counts_[i]) r.buckets.push_back({static_cast<uint32_t>(i), counts_[i]});
  return r;
}

bool LatencyHistogram::merge_record(const model::LatencyHistogramRecord& r) {
  if (r.sub_bucket_bits == 0) return r.samples == 0;
  if (r.sub_bucket_bits != kSubBits || r.max_bit != kMaxBit) return false;
  uint64_t total = 0;
  for (const auto& b : r.buckets) {
    if (b.index >= kBuckets) return false;
    total += b.count;
  }
  if (total != r.samples) return false;
  if (r.samples == 0) return true;
  for (const auto& b : r.buckets) {
    counts_[b.index] += b.count;
    merged_first_ = std::min<size_t>(merged_first_, b.index);
    merged_last_ = std::max<size_t>(merged_last_, size_t{b.index} + 1);
  }
  samples_ += r.samples;
  sum_ns_ += r.sum_ns;
  min_ns_ = std::min(min_ns_, r.min_ns);
  max_ns_ = std::max(max_ns_, r.max_ns);
  return true;
}

model::LatencySummary LatencyHistogram::summary() const {
  model::LatencySummary s;
  s.samples = samples_;
  s.mean_ns = mean_ns();
  s.min_ns = min_ns();
  s.max_ns = max_ns_;
  static constexpr double kPct[5] = {50, 99, 99.9, 99.99, 99.999};
  uint64_t v[5];
  percentiles_ns(kPct, v, 5);
  s.p50_ns = v[0];
  s.p99_ns = v[1];
  s.p99_9_ns = v[2];
  s.p99_99_ns = v[3];
  s.p99_999_ns = v[4];
  s.percentile_rel_error = kRelativeError;
  return s;
}

}  // namespace pts::engine
