// sim/map_thread.h — the FTL's mapping updates on a second thread. On a 2 TB drive the
// mapping table is 2 GB and each host write and each GC copy updates one entry at random
// (plus, for a host write, the old page's validity bit): about 8·10^9 random memory accesses
// in 4 drive fills, each a TLB and cache miss. Everything else a write does (placement on the
// frontier, the reverse map, valid counts of the superblock written, the timing model) needs
// only the order of the writes, so in a write-only cell the FTL hands the updates to this
// thread in order and goes on; the valid counts of the superblocks they invalidate, which
// victim selection reads, are folded in when the FTL drains the thread (before each victim is
// chosen and at the end of the cell). The thread applies exactly the updates the single-thread
// FTL would, in the same order, so results and state are the same bit for bit.
// The update itself is sim/mapping.h, the code the single-thread FTL runs.
// A GC victim's move goes the same way: the FTL places the copies and hands over their lpns;
// the thread sorts them, writes the new pages' reverse map entries and sweeps the table.
// Ownership: between begin() and drain() the thread alone touches the mapping table, the
// validity bitmap and the reverse map entries of a moved victim's new pages; after drain()
// returns it touches nothing until the next push.
// May use: sim geometry, sim mapping (std only beyond that).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "sim/geometry.h"
#include "sim/mapping.h"

namespace pts::sim {

class MapThread {
 public:
  /// `l2p` holds ppn + 1 per lpn (0: unmapped, kStored flag); `valid` one bit per ppn; `p2l`
  /// the lpn per ppn (the thread writes the entries of a GC victim's new pages).
  MapThread(uint32_t* l2p, uint64_t* valid, uint32_t* p2l, const Geometry& geo);
  ~MapThread();
  MapThread(const MapThread&) = delete;
  MapThread& operator=(const MapThread&) = delete;

  /// A host write of `lpn` to `ppn`: the old page (if any) is invalidated (its superblock
  /// counted in dead(), its bit cleared), the entry set, the new page's bit set.
  void push_host(uint64_t lpn, uint64_t ppn) { push((uint64_t(ppn + 1) << 32) | lpn); }
  /// A GC victim's move (mapping::move_victim): `lpns` sorted (`tmp` its scratch), the
  /// reverse map entries of the new pages `nps` and the mapping entries set (each entry's
  /// stored flag kept). The caller has placed the copies and set the new pages' bits. The
  /// vectors and array are the thread's until the next drain().
  void push_move(std::vector<uint32_t>* lpns, std::vector<uint32_t>* tmp, const uint32_t* nps, uint32_t key_bits) {
    move_ = {lpns, tmp, nps, key_bits};
    push(kMoveMarker);
  }
  /// Waits until every pushed update is applied and its bitmap bits settled. Then the caller
  /// may read and write the table and bitmap, and must fold dead() and mapped_delta().
  void drain();
  /// Pages invalidated per superblock since the last fold (reset by the caller).
  std::vector<uint32_t>& dead() { return dead_; }
  /// Host writes that mapped a page unmapped before, since the last fold.
  uint64_t take_mapped_delta() {
    const uint64_t d = mapped_delta_;
    mapped_delta_ = 0;
    return d;
  }
  /// The cell is over: drains, then the thread sleeps until the next push.
  void park();
  /// Updates pushed since the thread was made.
  uint64_t pushed() const { return tail_local_; }

 private:
  /// Run move_: the top bit (no host entry has it: ppn + 1 < 2^31), lpn 0, ppn + 1 = 0.
  static constexpr uint64_t kMoveMarker = uint64_t{1} << 63;
  static constexpr uint64_t kRing = uint64_t{1} << 20;  ///< entries: a whole victim's moves fit
  static constexpr uint32_t kPublish = 64;              ///< entries between index publications

  void push(uint64_t e) {
    if (tail_local_ - head_cached_ == kRing) wait_for_room();
    ring_[tail_local_ & (kRing - 1)] = e;
    if (++tail_local_ % kPublish == 0) publish();
  }
  void publish();
  void wait_for_room();
  void run();
  void apply(uint64_t e);

  // Read only once made, by both threads.
  uint32_t* l2p_;
  uint64_t* valid_;
  uint32_t* p2l_;
  Geometry geo_;
  std::unique_ptr<uint64_t[]> ring_;
  struct Move {
    std::vector<uint32_t>* lpns = nullptr;
    std::vector<uint32_t>* tmp = nullptr;
    const uint32_t* nps = nullptr;
    uint32_t key_bits = 0;
  };
  Move move_;  ///< written before its marker is pushed, read by the thread after it
  // The map thread's own (read by the producer only after drain()); a cache line apart from
  // the producer's fields, which it writes on every push: sharing one cost the producer 17 %
  // of its time (perf, a 0.2 fill from FOB on dc-tlc-2t).
  alignas(64) std::vector<uint32_t> dead_;
  uint64_t mapped_delta_ = 0;
  mapping::StaleBits stale_;
  // The producer's own (the FTL's thread).
  alignas(64) uint64_t tail_local_ = 0;
  uint64_t head_cached_ = 0;
  bool awake_ = false;
  alignas(64) std::atomic<uint64_t> tail_{0};     ///< entries published
  alignas(64) std::atomic<uint64_t> head_{0};     ///< entries applied
  alignas(64) std::atomic<uint64_t> settled_{0};  ///< entries applied and their bits settled
  alignas(64) std::atomic<bool> parked_{true};
  std::atomic<bool> exit_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread thread_;
};

}  // namespace pts::sim
