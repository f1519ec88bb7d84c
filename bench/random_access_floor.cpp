// bench/random_access_floor.cpp — what one random read-modify-write into a table of a given
// size costs on this machine, with as many misses in flight as one thread can keep (each
// access prefetched 16 ahead), on 1 thread and on 2 threads at once. The simulated drive
// updates one 4-byte mapping entry at random per host write and per GC copy (and a host write
// also clears one validity bit): that many accesses times this figure is a floor under its
// time that no change to the simulator's own code can go below. Independent of ptsuite's code.
//   usage: random_access_floor TABLE_ENTRIES [ACCESSES_PER_THREAD]
//   prints: "threads 1: 24.1 ns per access" and "threads 2: 13.8 ns per access" (wall time
//   over all threads' accesses)
#include <sys/mman.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace {

uint64_t xorshift(uint64_t& s) {
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  return s;
}

/// A uniform index below n by multiply-shift (no division in the loop).
uint64_t below(uint64_t x, uint64_t n) { return static_cast<uint64_t>((static_cast<unsigned __int128>(x) * n) >> 64); }

/// Wall ns per access with `threads` threads each doing `per_thread` random increments.
double run(uint32_t* table, uint64_t entries, unsigned threads, uint64_t per_thread) {
  constexpr int kAhead = 16;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([=] {
      uint64_t ahead = 0x9E3779B97F4A7C15ull * (t + 1), now = ahead;
      for (int i = 0; i < kAhead; ++i) __builtin_prefetch(&table[below(xorshift(ahead), entries)], 1, 3);
      for (uint64_t i = 0; i < per_thread; ++i) {
        __builtin_prefetch(&table[below(xorshift(ahead), entries)], 1, 3);
        ++table[below(xorshift(now), entries)];
      }
    });
  for (auto& th : pool) th.join();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return s * 1e9 / double(per_thread * threads);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: random_access_floor TABLE_ENTRIES [ACCESSES_PER_THREAD]\n");
    return 2;
  }
  const uint64_t entries = std::strtoull(argv[1], nullptr, 10);
  const uint64_t per_thread = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 100'000'000ull;
  if (entries == 0 || per_thread == 0) {
    std::fprintf(stderr, "random_access_floor: TABLE_ENTRIES and ACCESSES_PER_THREAD must be positive\n");
    return 2;
  }
  const size_t bytes = entries * sizeof(uint32_t);
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    std::perror("random_access_floor: mmap");
    return 1;
  }
  madvise(p, bytes, MADV_HUGEPAGE);  // as the simulator's tables (sim/bytes.cpp)
  std::memset(p, 1, bytes);          // every page present, as in a filled drive
  auto* table = static_cast<uint32_t*>(p);
  std::printf("table %llu entries (%.2f GiB)\n", (unsigned long long)entries, double(bytes) / (1ull << 30));
  for (unsigned threads : {1u, 2u})
    std::printf("threads %u: %.2f ns per access\n", threads, run(table, entries, threads, per_thread));
  munmap(p, bytes);
  return 0;
}
