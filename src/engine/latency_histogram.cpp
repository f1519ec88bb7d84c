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
  if (rank >= samples_) return max_ns_;
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

model::LatencyHistogramRecord LatencyHistogram::to_record() const {
  model::LatencyHistogramRecord r;
  r.sub_bucket_bits = kSubBits;
  r.max_bit = kMaxBit;
  r.samples = samples_;
  r.sum_ns = sum_ns_;
  r.min_ns = min_ns();
  r.max_ns = max_ns_;
  for (size_t i = 0; i < kBuckets; ++i)
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
  for (const auto& b : r.buckets) counts_[b.index] += b.count;
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
  s.p50_ns = percentile_ns(50);
  s.p99_ns = percentile_ns(99);
  s.p99_9_ns = percentile_ns(99.9);
  s.p99_99_ns = percentile_ns(99.99);
  s.p99_999_ns = percentile_ns(99.999);
  s.percentile_rel_error = kRelativeError;
  return s;
}

}  // namespace pts::engine
