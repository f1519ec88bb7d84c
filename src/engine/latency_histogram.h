// engine/latency_histogram.h — a log-linear latency histogram (HdrHistogram-style): values
// below 2^kSubBits ns are counted exactly; above, each power of two is split into 2^kSubBits
// equal buckets. Percentiles report the bucket midpoint clamped to the exact min/max, so
// their relative error is at most kRelativeError (1/256 ≈ 0.39 %); percentile 100 is the
// exact maximum. Histograms of several workers, or of a Measurement Window's Rounds, merge by
// adding counts. to_record()/from_record() convert to the sparse form stored in run.json
// (model::LatencyHistogramRecord). Everything but record() walks only the buckets between the
// exact min and max (and any a stored record added), not all kBuckets: a cell's summary sits
// in the idle gap between cells. May use: core, model.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "model/cell.h"

namespace pts::engine {

class LatencyHistogram {
 public:
  static constexpr unsigned kSubBits = 7;                   ///< 128 buckets per octave
  static constexpr uint64_t kSub = uint64_t{1} << kSubBits;
  static constexpr unsigned kMaxBit = 47;                   ///< values ≥ 2^48 ns share the top bucket
  static constexpr size_t kBuckets = (kMaxBit - kSubBits + 2) * kSub;
  /// Bound on |reported − exact| / exact for any percentile.
  static constexpr double kRelativeError = 1.0 / (2.0 * kSub);

  LatencyHistogram() : counts_(kBuckets, 0) {}

  /// Records one latency. Hot path: a count-leading-zeros, a shift and three adds.
  void record(uint64_t ns) {
    ++counts_[bucket_of(ns)];
    ++samples_;
    sum_ns_ += ns;
    if (ns < min_ns_) min_ns_ = ns;
    if (ns > max_ns_) max_ns_ = ns;
  }

  void merge(const LatencyHistogram& other);
  void clear();

  uint64_t samples() const { return samples_; }
  uint64_t min_ns() const { return samples_ ? min_ns_ : 0; }
  uint64_t sum_ns() const { return sum_ns_; }
  uint64_t max_ns() const { return max_ns_; }
  double mean_ns() const { return samples_ ? static_cast<double>(sum_ns_) / static_cast<double>(samples_) : 0.0; }

  /// The value at percentile `pct` (0 < pct ≤ 100): the sample of rank ceil(pct/100 × N)
  /// in sorted order, within kRelativeError; rank N (pct 100) is the exact maximum. 0 when
  /// empty.
  uint64_t percentile_ns(double pct) const;

  /// Mean, exact min/max, p50/p99/p99.9/p99.99/p99.999 and the error bound.
  model::LatencySummary summary() const;

  /// Bucket index of a value, and the [low, low + width) range a bucket covers.
  static size_t bucket_of(uint64_t ns) {
    if (ns < kSub) return static_cast<size_t>(ns);
    unsigned msb = 63u - static_cast<unsigned>(__builtin_clzll(ns));
    if (msb > kMaxBit) return kBuckets - 1;
    unsigned shift = msb - kSubBits;
    return static_cast<size_t>((shift + 1) * kSub + ((ns >> shift) - kSub));
  }
  static uint64_t bucket_low(size_t index);
  static uint64_t bucket_width(size_t index);
  /// Midpoint of a bucket, clamped to this histogram's exact min and max.
  uint64_t reported_ns(size_t index) const;

  /// The sparse stored form: the scheme (sub-bucket bits, max bit), exact count, sum,
  /// min and max, and only the non-empty buckets in ascending order.
  model::LatencyHistogramRecord to_record() const;
  /// Adds a stored histogram to this one. False (and nothing added) when the record uses
  /// another bucket scheme, has an index out of range, or its counts do not add up to its
  /// samples; a record without a histogram (sub_bucket_bits 0) and no samples adds nothing.
  bool merge_record(const model::LatencyHistogramRecord& record);

 private:
  /// [first, last) bucket indexes that can hold a count: those of min_ns_ … max_ns_ (record()
  /// keeps them exact) widened by what merge_record() added; empty when there are no samples.
  std::pair<size_t, size_t> occupied() const;
  /// percentile_ns() for `n` percentiles in ascending order, in one walk over the buckets.
  void percentiles_ns(const double* pct, uint64_t* out, size_t n) const;

  std::vector<uint64_t> counts_;
  size_t merged_first_ = kBuckets, merged_last_ = 0;  ///< merge_record()'s indexes, [first, last)
  uint64_t samples_ = 0;
  uint64_t sum_ns_ = 0;
  uint64_t min_ns_ = UINT64_MAX;
  uint64_t max_ns_ = 0;
};

}  // namespace pts::engine
