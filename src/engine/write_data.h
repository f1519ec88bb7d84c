// engine/write_data.h — the data every write carries: unique per write and incompressible,
// so a drive that compresses or deduplicates sees nothing to gain (PTS: "random data
// pattern"). A worker keeps a pool of random bytes from the cell's seed; each write takes
// the next window of the pool and XORs every 8-byte word with its own key (a fresh 64-bit
// draw per write, stepped by an odd constant per word). No two writes share a word pattern
// and every byte is as random as the pool. The loop is load/xor/add/store, so it vectorizes
// and costs far less than drawing every word from the generator. May use: std, engine/rng.h.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "engine/rng.h"

namespace pts::engine {

class WriteData {
 public:
  static constexpr size_t kPoolBytes = 4u << 20;  ///< 4 MiB of random bytes per worker

  WriteData() = default;
  /// Fills the pool from (seed, stream); `max_block_bytes` must fit one write (the pool is
  /// padded so a window never wraps inside a write).
  void reset(uint64_t seed, uint64_t stream, uint32_t max_block_bytes) {
    const size_t words = (kPoolBytes + max_block_bytes) / sizeof(uint64_t);
    if (pool_.size() != words || seed_ != seed || stream_ != stream) {
      pool_.resize(words);
      Rng fill(seed, 0x5eedull + stream);
      for (auto& w : pool_) w = fill.next();
      seed_ = seed;
      stream_ = stream;
    }
    cursor_ = 0;
  }

  /// Writes `bytes` (a multiple of 8) of data for one write into `out`, keyed by `key` (draw
  /// it fresh per write).
  void fill(uint8_t* out, uint32_t bytes, uint64_t key) {
    const uint64_t* src = pool_.data() + cursor_;
    const size_t words = bytes / sizeof(uint64_t);
    uint64_t mask = key;
    for (size_t i = 0; i < words; ++i) {
      const uint64_t w = src[i] ^ mask;
      std::memcpy(out + i * sizeof(uint64_t), &w, sizeof w);
      mask += 0x9e3779b97f4a7c15ull;
    }
    cursor_ += words;
    if (cursor_ * sizeof(uint64_t) >= kPoolBytes) cursor_ -= kPoolBytes / sizeof(uint64_t);
  }

 private:
  std::vector<uint64_t> pool_;
  size_t cursor_ = 0;  ///< in words
  uint64_t seed_ = 0, stream_ = ~0ull;
};

}  // namespace pts::engine
