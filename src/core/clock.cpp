// core/clock.cpp — see clock.h.
#include "core/clock.h"

#include <algorithm>
#include <ctime>
#include <cstdio>

namespace pts::core {

static uint64_t read_clock(clockid_t id) {
  timespec ts{};
  clock_gettime(id, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

uint64_t monotonic_ns() { return read_clock(CLOCK_MONOTONIC); }
uint64_t wall_ns() { return read_clock(CLOCK_REALTIME); }

bool Clock::idle_ns(uint64_t ns, const std::atomic<bool>* abort) {
  constexpr uint64_t kSliceNs = 20'000'000;  // check the abort flag every 20 ms
  const uint64_t end = monotonic_ns() + ns;
  for (uint64_t now = monotonic_ns(); now < end; now = monotonic_ns()) {
    if (abort && abort->load()) return false;
    const uint64_t left = std::min(end - now, kSliceNs);
    timespec ts{static_cast<time_t>(left / 1000000000ull), static_cast<long>(left % 1000000000ull)};
    nanosleep(&ts, nullptr);
  }
  return !(abort && abort->load());
}

std::string iso8601_utc(uint64_t ns) {
  time_t secs = static_cast<time_t>(ns / 1000000000ull);
  unsigned ms = static_cast<unsigned>((ns / 1000000ull) % 1000ull);
  tm t{};
  gmtime_r(&secs, &t);
  char buf[80];  // room for any int year (no truncation warning)
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03uZ", t.tm_year + 1900, t.tm_mon + 1,
                t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec, ms);
  return buf;
}

}  // namespace pts::core
