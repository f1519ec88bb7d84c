// engine/rate_pacer.h — optional I/O rate pacing for one worker. The hot loop is a template
// over the pacer type: NoPacer compiles away, RatePacer releases I/O number k at
// t0 + k / rate (a fixed schedule, so a late start catches up instead of drifting).
// May use: std only.
#pragma once

#include <cstdint>

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

}  // namespace pts::engine
