// core/clock.h — monotonic and wall time in explicit units, plus a Clock interface so the
// state machine can be driven in fake (or, later, virtual) time. May use: std only.
#pragma once

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
};

/// The real clocks.
class SystemClock final : public Clock {
 public:
  uint64_t monotonic_ns() override { return core::monotonic_ns(); }
  uint64_t wall_ns() override { return core::wall_ns(); }
};

}  // namespace pts::core
