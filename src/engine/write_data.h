// engine/write_data.h — the data every write carries: unique per write and incompressible,
// so a drive that compresses or deduplicates sees nothing to gain (PTS: "random data
// pattern"). Every worker reads one shared pool of 64 KiB of random bytes; each write takes
// the next window of the pool and XORs every 8-byte word with its own key (a fresh 64-bit
// draw per write from the cell's seeded generator, stepped by an odd constant per word). No
// two writes share a word pattern, every byte is as random as the pool, and a cell's data is
// a function of its recorded seed alone. The pool is filled once per process (a fixed
// xoshiro stream): refilling it from each cell's seed cost ~1.3 ms per worker in the idle
// gap between cells, while the per-write keys already make each cell's data its own. The
// pool is small so it stays in each core's own cache: a pool larger than L2 (it was 4 MiB)
// made every write's loads come from L3 or memory, which cost more user time per 4 KiB write
// than fio's whole write path (issue #28); uniqueness comes from the keys, not the pool's
// size. The loop is load/xor/add/store, so it vectorizes and costs far less than drawing
// every word from the generator. May use: std, engine/rng.h.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "engine/rng.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace pts::engine {

class WriteData {
 public:
  static constexpr size_t kPoolBytes = 64u << 10;  ///< 64 KiB of random bytes, one pool per process
  static constexpr size_t kPoolWords = kPoolBytes / sizeof(uint64_t);

  WriteData() = default;
  /// Starts a cell: the next write takes the pool from its start. The first call in the
  /// process fills the shared pool (thread-safe; later calls only read it).
  void reset() {
    pool_ = pool().data();
    cursor_ = 0;
  }

  /// Writes `bytes` (a multiple of 8) of data for one write into `out`, keyed by `key` (draw
  /// it fresh per write). A write longer than the rest of the pool wraps to its start (the
  /// key keeps stepping, so no word repeats inside the write).
  void fill(uint8_t* out, uint32_t bytes, uint64_t key) {
    size_t words = bytes / sizeof(uint64_t);
    uint64_t mask = key;
    while (words > 0) {
      const size_t run = std::min(words, kPoolWords - cursor_);
      const uint64_t* src = pool_ + cursor_;
      size_t i = 0;
#if defined(__SSE2__)
      // Two words at a time (x86-64's baseline): the same bytes as the loop below, half the
      // instructions; the compiler does not vectorize the stepping key on its own.
      __m128i m = _mm_set_epi64x(static_cast<long long>(mask + kKeyStep), static_cast<long long>(mask));
      const __m128i step = _mm_set1_epi64x(static_cast<long long>(2 * kKeyStep));
      for (; i + 2 <= run; i += 2) {
        const __m128i s = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i * sizeof(uint64_t)), _mm_xor_si128(s, m));
        m = _mm_add_epi64(m, step);
      }
      mask += i * kKeyStep;
#endif
      for (; i < run; ++i) {
        const uint64_t w = src[i] ^ mask;
        std::memcpy(out + i * sizeof(uint64_t), &w, sizeof w);
        mask += kKeyStep;
      }
      out += run * sizeof(uint64_t);
      words -= run;
      cursor_ += run;
      if (cursor_ == kPoolWords) cursor_ = 0;
    }
  }

 private:
  static constexpr uint64_t kKeyStep = 0x9e3779b97f4a7c15ull;  ///< the key's step per word (odd)
  static const std::vector<uint64_t>& pool() {
    static const std::vector<uint64_t> words = [] {
      std::vector<uint64_t> w(kPoolWords);
      Rng fill(0x5eedda7aull, 0x5eedull);
      for (auto& x : w) x = fill.next();
      return w;
    }();
    return words;
  }

  const uint64_t* pool_ = nullptr;
  size_t cursor_ = 0;  ///< in words
};

}  // namespace pts::engine
