// sim/map_thread.cpp — see map_thread.h. A single-producer single-consumer ring of 64-bit
// entries (a host write's ppn + 1 above, lpn below; the top bit alone marks a GC sweep, whose
// moves are in arrays the FTL hands over); each side publishes its index every kPublish
// entries, so the two cores do not trade the index lines per entry. The thread reads ahead in
// the ring: it prefetches the mapping entry 32 updates ahead and, 16 ahead, the validity word
// of the page that entry maps to now (a host write clears that bit), so many misses are in
// flight at once. It spins while a cell runs and sleeps between cells.
#include "sim/map_thread.h"

#include <immintrin.h>

#include "sim/bytes.h"

namespace pts::sim {

namespace {
constexpr uint64_t kLpnMask = 0xFFFFFFFFull;
// Each side spins this long (about a millisecond) before it yields: with a core each, a
// yield is a system call that finds nothing else to run (4096 spins: 13 % of the FTL
// thread's time in sched_yield and the kernel at steady state).
constexpr uint32_t kSpinsBeforeYield = 1 << 15;
uint64_t lpn_of(uint64_t e) { return e & kLpnMask; }
}  // namespace

MapThread::MapThread(uint32_t* l2p, uint64_t* valid, const Geometry& geo)
    : l2p_(l2p), valid_(valid), geo_(geo), ring_(new uint64_t[kRing]) {
  dead_.assign(geo.superblocks, 0);
  thread_ = std::thread([this] { run(); });
}

MapThread::~MapThread() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    exit_.store(true);
    parked_.store(false);
  }
  wake_.notify_one();
  thread_.join();
}

void MapThread::publish() {
  tail_.store(tail_local_, std::memory_order_release);
  if (!awake_) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      parked_.store(false, std::memory_order_release);
    }
    wake_.notify_one();
    awake_ = true;
  }
}

void MapThread::wait_for_room() {
  publish();
  for (uint32_t spins = 0;; ++spins) {
    head_cached_ = head_.load(std::memory_order_acquire);
    if (tail_local_ - head_cached_ < kRing) return;
    if (spins < kSpinsBeforeYield) _mm_pause();
    else std::this_thread::yield();
  }
}

void MapThread::drain() {
  publish();
  for (uint32_t spins = 0; settled_.load(std::memory_order_acquire) != tail_local_; ++spins) {
    if (spins < kSpinsBeforeYield) _mm_pause();
    else std::this_thread::yield();
  }
  head_cached_ = tail_local_;
}

void MapThread::park() {
  drain();
  std::lock_guard<std::mutex> lock(mutex_);
  parked_.store(true, std::memory_order_release);
  awake_ = false;
}

void MapThread::settle() {
  const uint32_t n = stale_n_;
  for (uint32_t i = 0; i < n; ++i) __builtin_prefetch(&valid_[stale_[i] >> 6], 1, 3);
  for (uint32_t i = 0; i < n; ++i) valid_[stale_[i] >> 6] &= ~(uint64_t{1} << (stale_[i] & 63));
  stale_n_ = 0;
}

void MapThread::sweep(uint32_t* l2p, const uint32_t* lpns, const uint32_t* nps, size_t n) {
  constexpr size_t kAhead = 32;  ///< mapping entries prefetched ahead in the sorted sweep
  for (size_t i = 0; i < n; ++i) {
    if (i + kAhead < n) __builtin_prefetch(&l2p[lpns[i + kAhead]], 1, 3);
    const uint32_t lpn = lpns[i];
    l2p[lpn] = (nps[i] + 1) | (l2p[lpn] & kStored);
  }
}

void MapThread::apply(uint64_t e) {
  if (e == kSweepMarker) {
    sweep(l2p_, sweep_.lpns, sweep_.nps, sweep_.n);
    return;
  }
  const uint64_t lpn = lpn_of(e);
  const uint32_t packed = static_cast<uint32_t>(e >> 32);
  const uint64_t ppn = packed - 1;
  const uint32_t old = l2p_[lpn];
  if (old) {
    const uint32_t op = (old & ~kStored) - 1;
    ++dead_[geo_.sb_of(op)];
    stale_[stale_n_++] = op;
    if (stale_n_ == kStaleBurst) settle();
  } else {
    ++mapped_delta_;
  }
  l2p_[lpn] = packed;
  valid_[ppn >> 6] |= uint64_t{1} << (ppn & 63);
}

void MapThread::run() {
  constexpr uint64_t kMask = kRing - 1;
  uint64_t h = 0;
  uint32_t spins = 0;
  for (;;) {
    const uint64_t t = tail_.load(std::memory_order_acquire);
    if (h != t) {
      for (uint64_t i = h; i < t; ++i) {
        if (i + 32 < t) __builtin_prefetch(&l2p_[lpn_of(ring_[(i + 32) & kMask])], 1, 3);  // a marker: lpn 0
        if (i + 16 < t)
          if (const uint64_t ahead = ring_[(i + 16) & kMask]; ahead != kSweepMarker)
            if (const uint32_t old = l2p_[lpn_of(ahead)] & ~kStored) prefetch_line(&valid_[(old - 1) >> 6]);
        apply(ring_[i & kMask]);
        if ((i + 1) % kPublish == 0) head_.store(i + 1, std::memory_order_release);
      }
      h = t;
      head_.store(h, std::memory_order_release);
      spins = 0;
      continue;
    }
    if (settled_.load(std::memory_order_relaxed) != h) {  // caught up: settle, then say so
      settle();
      settled_.store(h, std::memory_order_release);
    }
    if (exit_.load(std::memory_order_acquire)) return;
    if (parked_.load(std::memory_order_acquire)) {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return !parked_.load() || exit_.load(); });
      continue;
    }
    if (++spins < kSpinsBeforeYield) _mm_pause();
    else std::this_thread::yield();
  }
}

}  // namespace pts::sim
