// engine/rate_pacer.h — optional I/O rate pacing for one worker. The hot loop is a template
// over the pacer type: NoPacer compiles away, RatePacer releases I/O number k at
// t0 + k / rate (a fixed schedule, so a late start catches up instead of drifting), and
// ArrivalPacer releases them at the arrival times of a random process of that mean rate
// (exponential or uniform gaps, drawn in order from the worker's own stream). Either way each
// I/O has a scheduled release time fixed before it is issued, so a worker that falls behind
// is charged for the wait (latency from the schedule: no coordinated omission).
// May use: std only (and engine/rng.h).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "engine/rng.h"

namespace pts::engine {

/// Unthrottled: every free slot may issue at once.
struct NoPacer {
  static constexpr bool kEnabled = false;
  void start(uint64_t /*t0_ns*/) {}
  uint64_t allowed(uint64_t /*now_ns*/) const { return UINT64_MAX; }
  void issued(uint64_t /*n*/) {}
  uint64_t next_release_ns() const { return 0; }
  uint64_t release_ns(uint64_t /*k*/) const { return 0; }
};

/// Releases I/Os on a fixed schedule of `rate_iops` per second from start().
class RatePacer {
 public:
  static constexpr bool kEnabled = true;
  explicit RatePacer(double rate_iops) : interval_ns_(1e9 / rate_iops) {}

  void start(uint64_t t0_ns) {
    t0_ns_ = t0_ns;
    issued_ = 0;
  }
  /// How many more I/Os may start at `now_ns`.
  uint64_t allowed(uint64_t now_ns) const {
    if (now_ns < t0_ns_) return 0;
    const auto due = static_cast<uint64_t>(static_cast<double>(now_ns - t0_ns_) / interval_ns_) + 1;
    if (due > issued_) return due - issued_;
    // At next_release_ns() itself the division can round below the next whole I/O (the release
    // time is truncated to a nanosecond): that I/O is due. Without this a caller that waits
    // until next_release_ns() exactly (the simulated drive's virtual clock) would wait forever.
    return now_ns >= release_ns(issued_) ? 1 : 0;
  }
  void issued(uint64_t n) { issued_ += n; }
  /// When the next I/O becomes due.
  uint64_t next_release_ns() const { return release_ns(issued_); }
  /// The scheduled release time of I/O number k (0-based) of this worker.
  uint64_t release_ns(uint64_t k) const {
    return t0_ns_ + static_cast<uint64_t>(static_cast<double>(k) * interval_ns_);
  }
  uint64_t issued() const { return issued_; }

 private:
  double interval_ns_;
  uint64_t t0_ns_ = 0;
  uint64_t issued_ = 0;
};

/// The gaps of an ArrivalPacer: exponential of mean 1 / rate (Poisson arrivals) or uniform in
/// [0, 2 / rate] (the same mean).
enum class ArrivalGaps { Exponential, Uniform };

/// Releases I/Os at the arrival times of a random process of mean `rate_iops` per second
/// from start(): arrival k = arrival k−1 + a gap drawn from `rng` (the first gap from t0).
/// The schedule is drawn ahead of the issuing by at most `lookahead` I/Os (the worker's QD:
/// it can never issue more at once), so allowed() is at most that and costs one draw per I/O.
class ArrivalPacer {
 public:
  static constexpr bool kEnabled = true;
  ArrivalPacer(double rate_iops, ArrivalGaps gaps, Rng rng, uint32_t lookahead)
      : mean_gap_ns_(1e9 / rate_iops), gaps_(gaps), rng_(rng), ring_(lookahead ? lookahead : 1) {}

  void start(uint64_t t0_ns) {
    t0_ns_ = t0_ns;
    clock_ns_ = 0;
    issued_ = 0;
    head_ = 0;
    filled_ = 0;
  }
  /// How many more I/Os may start at `now_ns` (at most the lookahead).
  uint64_t allowed(uint64_t now_ns) {
    fill(ring_.size());
    uint64_t n = 0;
    while (n < filled_ && at(n) <= now_ns) ++n;
    return n;
  }
  void issued(uint64_t n) {
    fill(n);
    head_ = (head_ + n) % ring_.size();
    filled_ -= n;
    issued_ += n;
  }
  /// When the next I/O becomes due.
  uint64_t next_release_ns() {
    fill(1);
    return at(0);
  }
  /// The scheduled release time of I/O number k (0-based) of this worker; k must lie within
  /// the lookahead of the I/Os issued so far.
  uint64_t release_ns(uint64_t k) {
    const uint64_t i = k - issued_;
    fill(i + 1);
    return at(i);
  }
  uint64_t issued() const { return issued_; }

 private:
  uint64_t at(uint64_t i) const { return ring_[(head_ + i) % ring_.size()]; }
  void fill(uint64_t want) {
    if (want > ring_.size()) want = ring_.size();
    while (filled_ < want) {
      const double u = static_cast<double>(rng_.next() >> 11) * 0x1.0p-53;  // [0, 1)
      clock_ns_ += gaps_ == ArrivalGaps::Exponential ? -std::log1p(-u) * mean_gap_ns_ : 2.0 * u * mean_gap_ns_;
      ring_[(head_ + filled_) % ring_.size()] = t0_ns_ + static_cast<uint64_t>(clock_ns_);
      ++filled_;
    }
  }

  double mean_gap_ns_;
  ArrivalGaps gaps_;
  Rng rng_;
  std::vector<uint64_t> ring_;  ///< release times of I/Os issued_ … issued_ + filled_ − 1
  uint64_t t0_ns_ = 0;
  double clock_ns_ = 0;         ///< the last drawn arrival, from t0
  uint64_t issued_ = 0;
  uint64_t head_ = 0;
  uint64_t filled_ = 0;
};

}  // namespace pts::engine
