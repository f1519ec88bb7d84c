// core/clock.h — monotonic and wall time in explicit units, plus a Clock interface so the
// state machine can be driven in fake (or, later, virtual) time. May use: std only.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

namespace pts::core {

/// Monotonic nanoseconds (CLOCK_MONOTONIC).
uint64_t monotonic_ns();
/// Wall-clock nanoseconds since the Unix epoch (CLOCK_REALTIME).
uint64_t wall_ns();
/// ISO 8601 UTC with milliseconds, e.g. 2026-11-30T09:37:05.123Z.
std::string iso8601_utc(uint64_t wall_ns);

/// Time source used by the PTS state machine; tests and the simulator supply their own.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual uint64_t monotonic_ns() = 0;
  virtual uint64_t wall_ns() = 0;
  /// Host idle: nothing is submitted to the target for `ns`. Returns false when `abort` (may
  /// be null) became true first. The real clock sleeps in short slices; a simulated drive's
  /// clock advances its virtual time (and lets the drive's background work run); a test
  /// clock just advances.
  virtual bool idle_ns(uint64_t ns, const std::atomic<bool>* abort = nullptr);
  /// True when this clock's time is virtual (a simulated drive's), so the record can say so.
  virtual bool is_virtual() const { return false; }
};

/// The real clocks.
class SystemClock final : public Clock {
 public:
  uint64_t monotonic_ns() override { return core::monotonic_ns(); }
  uint64_t wall_ns() override { return core::wall_ns(); }
};

}  // namespace pts::core
