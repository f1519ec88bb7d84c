// model/ar_segments.cpp — see ar_segments.h.
#include "model/ar_segments.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace pts::model {

namespace {

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// Uniform in [0, n] (n + 1 values), without bias (rejection on the 128-bit product).
uint64_t draw_upto(uint64_t& state, uint64_t n) {
  const uint64_t range = n + 1;  // n < 2^63 here
  for (;;) {
    const unsigned __int128 m = static_cast<unsigned __int128>(splitmix64(state)) * range;
    const auto low = static_cast<uint64_t>(m);
    if (low >= (-range) % range) return static_cast<uint64_t>(m >> 64);
  }
}

std::string mib(uint64_t bytes) {
  const double v = static_cast<double>(bytes) / (1024.0 * 1024.0);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6g MiB", v);
  return buf;
}

}  // namespace

std::string segment_problem(const ArSegmentation& s, uint64_t range) {
  if (s.count == 0) return {};
  if (s.align_bytes == 0 || s.segment_bytes == 0 || s.segment_bytes % s.align_bytes != 0)
    return "segment size " + std::to_string(s.segment_bytes) + " B is not a whole number of " +
           std::to_string(s.align_bytes) + " B blocks";
  const uint64_t units = range / s.align_bytes;
  const uint64_t seg_units = s.segment_bytes / s.align_bytes;
  // count segments plus a gap of one unit between neighbours.
  const unsigned __int128 need = static_cast<unsigned __int128>(s.count) * (seg_units + 1) - 1;
  if (need > units)
    return std::to_string(s.count) + " non-touching segments of " + mib(s.segment_bytes) + " need " +
           mib(static_cast<uint64_t>(std::min<unsigned __int128>(need * s.align_bytes, UINT64_MAX))) +
           " of ActiveRange; it has " + mib(range);
  return {};
}

core::Result<std::vector<uint64_t>> segment_layout(const ArSegmentation& s, uint64_t range) {
  if (s.count == 0) return std::vector<uint64_t>{};
  if (std::string why = segment_problem(s, range); !why.empty()) return core::bad_input(why);
  const uint64_t units = range / s.align_bytes;
  const uint64_t seg_units = s.segment_bytes / s.align_bytes;
  const uint64_t spare = units - (uint64_t{s.count} * (seg_units + 1) - 1);
  uint64_t state = s.seed;
  std::vector<uint64_t> draws(s.count);
  for (auto& d : draws) d = draw_upto(state, spare);
  std::sort(draws.begin(), draws.end());
  std::vector<uint64_t> starts(s.count);
  for (uint32_t i = 0; i < s.count; ++i) starts[i] = (draws[i] + uint64_t{i} * (seg_units + 1)) * s.align_bytes;
  return starts;
}

}  // namespace pts::model
