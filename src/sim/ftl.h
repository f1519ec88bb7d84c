// sim/ftl.h — the page-mapped flash translation layer: logical page -> physical page map,
// reverse map, validity bitmap, superblocks (free / open / closed), a host write frontier
// and a GC write frontier, and garbage collection (greedy or FIFO victims) paced against
// host writes so the free pool holds steady. A victim's valid pages move in lpn order when
// it is selected (one sweep over the mapping table); the flash work of that move (reads in
// physical order, programs, the erase) is then reported paced against host writes.
// Write amplification is not computed here: it emerges from which pages GC must copy.
// Knows nothing about time: every flash operation it needs is reported to a FlashSink
// (the timing model). One class, three files with one job each: ftl.cpp maps and places
// (host writes, trims, frontiers, purge, the map thread's pipeline), ftl_gc.cpp collects
// garbage (victim choice, relocation, pacing, forced and idle GC), ftl_persistence.cpp saves
// and loads the state; the mapping update itself is sim/mapping.h, shared with the map
// thread. May use: sim geometry, bytes, mapping, map thread.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "sim/bytes.h"
#include "sim/geometry.h"
#include "sim/map_thread.h"
#include "sim/mapping.h"

namespace pts::sim {

/// Flash work the FTL asks for, in the order it needs it.
class FlashSink {
 public:
  virtual ~FlashSink() = default;
  /// A program unit of host data is complete (its pages sit in the write buffer).
  virtual void host_unit(uint32_t die, uint64_t seq) = 0;
  /// A program unit of pages copied by GC is complete.
  virtual void gc_unit(uint32_t die) = 0;
  /// GC reads one multi-plane group on `die` and transfers `pages` valid pages from it.
  virtual void gc_read(uint32_t die, uint32_t pages) = 0;
  /// Superblock `sb` is erased (one block erase on every die).
  virtual void erase(uint32_t sb) = 0;
};

/// Lifetime page counts (one page = one mapping unit).
struct FtlCounters {
  uint64_t host_pages = 0;   ///< pages written by the host
  uint64_t gc_pages = 0;     ///< pages copied by GC
  uint64_t pad_pages = 0;    ///< filler programmed to close a unit early (write-through)
  uint64_t erases = 0;       ///< superblock erases
  uint64_t forced_gc = 0;    ///< victims cleaned in full because the free pool ran out
  uint64_t trimmed = 0;      ///< pages deallocated by the host or a purge
  /// NAND page writes: host + GC + padding.
  uint64_t nand_pages() const { return host_pages + gc_pages + pad_pages; }
};

class Ftl {
 public:
  static constexpr uint32_t kUnmapped = mapping::kUnmapped;
  static constexpr uint32_t kStored = mapping::kStored;  ///< flag: some sectors hold stored bytes
  static constexpr uint64_t kNotBuffered = UINT64_MAX;

  enum class SbState : uint8_t { Free = 0, Host = 1, Gc = 2, Closed = 3 };
  struct Superblock {
    uint32_t valid = 0;
    uint32_t erases = 0;
    uint64_t closed_seq = 0;        ///< order of closing (FIFO policy)
    uint64_t first_unit_seq = kNotBuffered;  ///< host units: seq of the first unit written here
    SbState state = SbState::Free;
    bool dirty = false;             ///< free but not erased yet (unmapped by a purge)
  };

  Ftl(const Geometry& geo, GcPolicy policy, uint32_t gc_free, uint32_t idle_gc_free);
  void set_sink(FlashSink* sink) { sink_ = sink; }

  /// From here on until end_pipeline(), write() hands its mapping update (and GC its
  /// copies') to the map thread (sim/map_thread.h) and returns at once. Only write(),
  /// pad_host_unit(), unit_seq_of() and next_unit_seq() may be called meanwhile: no lookups,
  /// no trims, no stored bytes (the caller checks: a write-only cell of whole pages).
  void begin_pipeline();
  /// Waits for the map thread and folds what it counted; the FTL is whole again.
  void end_pipeline();
  bool pipelined() const { return pipelined_; }
  /// Mapping updates handed to the map thread so far (0: it never ran).
  uint64_t handed_off() const { return map_ ? map_->pushed() : 0; }

  const Geometry& geometry() const { return geo_; }

  /// Brings the mapping entry of `lpn` into the caches before a write or read (the first of
  /// a host write's two random accesses). All levels (T0): a non-temporal hint keeps the line
  /// in L1 only, where the GC and host traffic between this and its use evict it.
  void prefetch(uint64_t lpn) const { __builtin_prefetch(&l2p_[lpn], 1, 3); }
  /// The second: the validity word of the page `lpn` maps to now (a write clears its bit,
  /// in the next burst of settle_bitmap()).
  /// Reads the mapping entry, so call it once prefetch(lpn) has had time to bring it in.
  void prefetch_old(uint64_t lpn) const { mapping::prefetch_old_bit(l2p_.data(), valid_.data(), lpn); }
  /// Physical page of `lpn` (kUnmapped when never written or deallocated), flag removed.
  uint32_t lookup(uint64_t lpn) const { return mapping::unpack(l2p_[lpn]); }
  bool has_stored(uint64_t lpn) const { return l2p_[lpn] & kStored; }
  void mark_stored(uint64_t lpn) { if (l2p_[lpn]) l2p_[lpn] |= kStored; }

  /// Host write of one page; returns true when the old mapping carried the stored flag
  /// (the new mapping has none).
  bool write(uint64_t lpn);
  /// Deallocates `lpn`; returns true when it carried the stored flag.
  bool trim(uint64_t lpn);
  /// Closes the open host unit with filler pages (for a write that must reach flash now).
  /// Returns false when the open unit was empty.
  bool pad_host_unit();
  /// One step of host-idle GC (about one program unit of copies, or an erase); false when
  /// the free pool already holds idle_gc_free superblocks or nothing can be cleaned.
  bool idle_gc_step();
  /// Purge: every page unmapped; superblocks holding data become free (erased later, when
  /// reused, unless `erase_now`: then they are erased now, as a block-erase sanitize does).
  void reset(bool erase_now);

  /// Host-unit sequence number of the buffered data at `ppn`, or kNotBuffered for data
  /// that never went through the host buffer (GC copies).
  uint64_t unit_seq_of(uint32_t ppn) const {
    const Superblock& s = sbs_[geo_.sb_of(ppn)];
    if (s.first_unit_seq == kNotBuffered) return kNotBuffered;
    return s.first_unit_seq + (ppn - uint64_t(geo_.sb_of(ppn)) * geo_.sb_pages) / geo_.unit_pages;  // reads only
  }
  /// Sequence number the open host unit will get.
  uint64_t next_unit_seq() const { return next_unit_seq_; }

  const FtlCounters& counters() const { return counters_; }
  uint32_t free_superblocks() const { return static_cast<uint32_t>(free_.size()); }
  uint64_t mapped_pages() const { return mapped_; }
  const std::vector<Superblock>& superblocks() const { return sbs_; }
  double mean_erases() const;

  void save(ByteWriter& out) const;
  bool load(ByteReader& in);

  /// Checks every invariant (each mapped page valid and mapped back, valid counts equal the
  /// bitmap, free superblocks empty, page accounting); "" when they hold, else the first
  /// broken one. O(capacity): for tests.
  std::string check_consistency() const;

 private:
  struct Frontier {
    int64_t sb = -1;
    uint64_t offset = 0;  ///< next page within the superblock
  };
  /// Reads the bitmap: only after settle_bitmap().
  bool valid(uint64_t ppn) const { return (valid_[ppn >> 6] >> (ppn & 63)) & 1u; }
  void set_valid(uint64_t ppn) { mapping::set_valid(valid_.data(), ppn); }
  void set_valid_run(uint64_t first, uint64_t count) { mapping::set_valid_run(valid_.data(), first, count); }
  void clear_valid(uint64_t ppn) { mapping::clear_valid(valid_.data(), ppn); }
  /// A page stops being valid: its superblock's count drops now; its bit is cleared in the
  /// next burst (mapping::StaleBits).
  void invalidate(uint32_t ppn) {
    --sbs_[geo_.sb_of(ppn)].valid;
    stale_.add(ppn, valid_.data());
  }
  /// Clears the bits of the pages invalidated since the last burst. The bitmap is read only
  /// after this (victim scan, save, consistency check); until then its value is the bitmap
  /// less these pages, which is why a const method may settle it.
  void settle_bitmap() const { stale_.settle(valid_.data()); }

  // Mapping and placement (ftl.cpp).
  uint64_t append(Frontier& f, bool host);  ///< the next physical page of a frontier
  void open(Frontier& f, bool host);
  void close(Frontier& f);
  /// Pipelined: waits for every update handed to the map thread and folds the valid counts
  /// and mapped pages it counted, so the whole FTL may be read. No-op otherwise.
  void sync();
  bool write_inline(uint64_t lpn);
  /// A host page was placed at `ppn` on the host frontier: its superblock's count, the
  /// program unit it may complete, the GC copies it owes.
  void host_placed(uint64_t ppn);

  // Garbage collection (ftl_gc.cpp).
  void gc_pace();                            ///< copies owed for the host page just written
  /// The flash work of the victim's next `copies` copies (their group reads, the program
  /// units they complete); false once the victim is done (then erased).
  bool relocate(uint64_t copies);
  void finish_victim();
  void select_victim();
  /// Moves every valid page of the new victim to the GC frontier in lpn order and records
  /// the flash work that move owes, in the order the copies would have been made.
  void move_victim();
  void force_gc();
  /// Forgets the victim and the flash work its move still owed (purge, or the victim done).
  void clear_victim();

  Geometry geo_;
  GcPolicy policy_;
  uint32_t gc_free_, idle_gc_free_;
  FlashSink* sink_ = nullptr;
  BigArray<uint32_t> l2p_;
  BigArray<uint32_t> p2l_;
  mutable BigArray<uint64_t> valid_;
  mutable mapping::StaleBits stale_;  ///< invalidated pages whose bit is still set
  std::vector<Superblock> sbs_;
  std::deque<uint32_t> free_;   ///< free superblocks, reused first-freed first (even wear)
  Frontier host_, gc_;
  int64_t victim_ = -1;
  /// Flash work the victim's move owes, each due at a copy index (the copies numbered in
  /// the victim's physical order): a multi-plane group read of `pages` pages on `die`, and
  /// a GC program unit on `die` (reported after that copy's read).
  struct GcStep {
    uint32_t at;
    uint32_t die;
    uint32_t pages;
  };
  std::vector<GcStep> reads_, units_;
  uint64_t next_read_ = 0, next_unit_ = 0;  ///< first steps not reported yet
  uint64_t copied_ = 0;          ///< copies of the victim whose flash work was reported
  uint64_t to_copy_ = 0;         ///< the victim's valid pages at selection
  std::vector<uint32_t> sort_a_, sort_b_;  ///< radix sort buffers (reused)
  std::vector<uint32_t> moved_to_;         ///< pipelined: each sorted lpn's new page (reused)
  uint64_t credit_ = 0, num_ = 0, den_ = 1;  ///< copies owed: num_/den_ per host page
  uint64_t close_seq_ = 0;
  uint64_t next_unit_seq_ = 0;
  uint64_t mapped_ = 0;
  FtlCounters counters_;
  std::unique_ptr<MapThread> map_;  ///< made at the first pipelined cell, parked between cells
  bool pipelined_ = false;
};

}  // namespace pts::sim
