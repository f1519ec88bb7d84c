// engine/latency_histogram.cpp — see latency_histogram.h.
#include "engine/latency_histogram.h"

#include <algorithm>
#include <cmath>

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

void LatencyHistogram::merge(const LatencyHistogram& other) {
  for (size_t i = 0; i < kBuckets; ++i) counts_[i] += other.counts_[i];
  samples_ += other.samples_;
  sum_ns_ += other.sum_ns_;
  min_ns_ = std::min(min_ns_, other.min_ns_);
  max_ns_ = std::max(max_ns_, other.max_ns_);
}

void LatencyHistogram::clear() {
  std::fill(counts_.begin(), counts_.end(), 0);
  samples_ = 0;
  sum_ns_ = 0;
  min_ns_ = UINT64_MAX;
  max_ns_ = 0;
}

uint64_t LatencyHistogram::percentile_ns(double pct) const {
  if (samples_ == 0) return 0;
  // Rank of the wanted sample, 1-based: ceil(pct/100 × N), at least 1.
  double rank_d = std::ceil(pct / 100.0 * static_cast<double>(samples_) - 1e-9);
  uint64_t rank = rank_d < 1 ? 1 : static_cast<uint64_t>(rank_d);
  if (rank > samples_) rank = samples_;
  uint64_t seen = 0;
  for (size_t i = 0; i < kBuckets; ++i) {
    seen += counts_[i];
    if (seen >= rank) {
      const uint64_t mid = bucket_low(i) + bucket_width(i) / 2;
      return std::clamp(mid, min_ns_, max_ns_);
    }
  }
  return max_ns_;
}

model::LatencySummary LatencyHistogram::summary() const {
  model::LatencySummary s;
  s.samples = samples_;
  s.mean_ns = mean_ns();
  s.min_ns = min_ns();
  s.max_ns = max_ns_;
  s.p50_ns = percentile_ns(50);
  s.p99_ns = percentile_ns(99);
  s.p99_9_ns = percentile_ns(99.9);
  s.p99_99_ns = percentile_ns(99.99);
  s.p99_999_ns = percentile_ns(99.999);
  s.percentile_rel_error = kRelativeError;
  return s;
}

}  // namespace pts::engine
