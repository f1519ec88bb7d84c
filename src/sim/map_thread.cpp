// sim/map_thread.cpp — see map_thread.h. A single-producer single-consumer ring of 64-bit
// entries (a host write's ppn + 1 above, lpn below; the top bit alone marks a GC victim's move,
// whose lpns and new pages are in arrays the FTL hands over); each side publishes its index every kPublish
// entries, so the two cores do not trade the index lines per entry. The thread reads ahead in
// the ring: it prefetches the mapping entry 32 updates ahead and, 16 ahead, the validity word
// of the page that entry maps to now (a host write clears that bit), so many misses are in
// flight at once. It spins while a cell runs and sleeps between cells.
#include "sim/map_thread.h"

#include <immintrin.h>

namespace pts::sim {

namespace {
constexpr uint64_t kLpnMask = 0xFFFFFFFFull;
// Each side spins this long (about a millisecond) before it yields: with a core each, a
// yield is a system call that finds nothing else to run (4096 spins: 13 % of the FTL
// thread's time in sched_yield and the kernel at steady state).
constexpr uint32_t kSpinsBeforeYield = 1 << 15;
uint64_t lpn_of(uint64_t e) { return e & kLpnMask; }
}  // namespace

MapThread::MapThread(uint32_t* l2p, uint64_t* valid, uint32_t* p2l, const Geometry& geo)
    : l2p_(l2p), valid_(valid), p2l_(p2l), geo_(geo), ring_(new uint64_t[kRing]) {
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

void MapThread::apply(uint64_t e) {
  if (e == kMoveMarker) {
    mapping::move_victim(l2p_, p2l_, *move_.lpns, *move_.tmp, move_.nps, move_.key_bits);
    return;
  }
  const uint64_t ppn = (e >> 32) - 1;
  const uint32_t old = mapping::host_write(
      l2p_, valid_, stale_, lpn_of(e), [this](uint32_t op) { ++dead_[geo_.sb_of(op)]; }, [ppn] { return ppn; });
  if (!old) ++mapped_delta_;
}

void MapThread::run() {
  constexpr uint64_t kMask = kRing - 1;
  uint64_t h = 0;
  uint32_t spins = 0;
  for (;;) {
    const uint64_t t = tail_.load(std::memory_order_acquire);
    if (h != t) {
      // The batch's first 32 entries were past the end of the last one, so nothing warmed
      // their mapping entries: a burst now, then each 32 ahead as the batch goes.
      for (uint64_t i = h; i < t && i < h + 32; ++i) __builtin_prefetch(&l2p_[lpn_of(ring_[i & kMask])], 1, 3);
      for (uint64_t i = h; i < t; ++i) {
        if (i + 32 < t) __builtin_prefetch(&l2p_[lpn_of(ring_[(i + 32) & kMask])], 1, 3);  // a marker: lpn 0
        if (i + 16 < t)
          if (const uint64_t ahead = ring_[(i + 16) & kMask]; ahead != kMoveMarker)
            mapping::prefetch_old_bit(l2p_, valid_, lpn_of(ahead));
        apply(ring_[i & kMask]);
        if ((i + 1) % kPublish == 0) head_.store(i + 1, std::memory_order_release);
      }
      h = t;
      head_.store(h, std::memory_order_release);
      spins = 0;
      continue;
    }
    if (settled_.load(std::memory_order_relaxed) != h) {  // caught up: settle, then say so
      stale_.settle(valid_);
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
