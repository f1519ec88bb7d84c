// engine/rng.h — the engine's pseudo-random numbers: xoshiro256** (fast, 2^256 period, passes
// BigCrush) seeded through splitmix64, plus an unbiased bounded draw (Lemire's method). Used
// for offsets, the R/W and block-size choices and write data. May use: std only.
#pragma once

#include <cstdint>

namespace pts::engine {

/// splitmix64 step: turns any seed (even 0 or 1, 2, 3...) into well-mixed 64-bit words.
inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// xoshiro256** by Blackman and Vigna (public-domain algorithm).
class Rng {
 public:
  /// Seeds the 256-bit state from (seed, stream): each worker uses its index as `stream`,
  /// so workers draw independent sequences from one recorded seed.
  explicit Rng(uint64_t seed = 1, uint64_t stream = 0) {
    uint64_t sm = seed ^ (stream * 0xd1b54a32d192ed03ull);
    for (auto& w : s_) w = splitmix64(sm);
  }

  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  /// Uniform integer in [0, n), n > 0, without modulo bias (Lemire 2019).
  uint64_t below(uint64_t n) {
    unsigned __int128 m = static_cast<unsigned __int128>(next()) * n;
    uint64_t low = static_cast<uint64_t>(m);
    if (low < n) {
      const uint64_t threshold = -n % n;
      while (low < threshold) {
        m = static_cast<unsigned __int128>(next()) * n;
        low = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace pts::engine
