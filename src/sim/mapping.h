// sim/mapping.h — the FTL's mapping update, the one code both of its paths run: the FTL's own
// thread (sim/ftl.cpp) and, in a write-only cell, its map thread (sim/map_thread.cpp), which
// must apply exactly the updates the single-thread FTL would, in the same order, so that the
// results are the same bit for bit. The mapping table holds ppn + 1 per lpn (0: unmapped)
// with a flag for stored bytes; the validity bitmap one bit per physical page. A page that
// stops being valid has its bit cleared in bursts (StaleBits). A GC victim's move (the sort
// of its lpns, the reverse map of its copies, the sweep) is here too: in a write-only cell
// the map thread runs it. Header-only, inline: it sits on the hot path of every host write
// and every GC copy. May use: sim/bytes.h (prefetch).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/bytes.h"

namespace pts::sim::mapping {

/// Entry flag: some sectors of the page hold stored bytes (block access); kept by a GC move,
/// dropped by a host write.
inline constexpr uint32_t kStored = 0x80000000u;
inline constexpr uint32_t kUnmapped = 0xFFFFFFFFu;

// Entries hold ppn + 1, so the zero pages of a fresh (or purged) table mean "unmapped": a
// 2 TB drive's table costs nothing until it is written.
inline uint32_t pack(uint64_t ppn) { return static_cast<uint32_t>(ppn + 1); }
inline uint32_t unpack(uint32_t e) { return e == 0 ? kUnmapped : (e & ~kStored) - 1; }

inline void set_valid(uint64_t* valid, uint64_t ppn) { valid[ppn >> 6] |= uint64_t{1} << (ppn & 63); }
inline void clear_valid(uint64_t* valid, uint64_t ppn) { valid[ppn >> 6] &= ~(uint64_t{1} << (ppn & 63)); }
/// A word's lowest `n` bits set (n from 0 to 64).
inline uint64_t low_bits(uint64_t n) { return n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1; }
/// Sets the bits of `count` pages from `first` (whole words inside, masks at the edges).
inline void set_valid_run(uint64_t* valid, uint64_t first, uint64_t count) {
  for (uint64_t p = first, end = first + count; p < end;) {
    const uint64_t bit = p & 63, take = std::min<uint64_t>(64 - bit, end - p);
    valid[p >> 6] |= low_bits(take) << bit;
    p += take;
  }
}

/// Warms the validity word of the page `lpn` maps to now (the second random access of a host
/// write; it reads the entry, so the entry should be in by then). Through prefetch_line: GCC 12
/// -O2 dropped the __builtin_prefetch here, whose address comes from a loaded entry.
inline void prefetch_old_bit(const uint32_t* l2p, const uint64_t* valid, uint64_t lpn) {
  if (const uint32_t e = l2p[lpn]) prefetch_line(&valid[((e & ~kStored) - 1) >> 6]);
}

/// Pages invalidated whose bit is still set. Clearing one bit per host write was a random
/// read-modify-write the host loop's prefetch did not hide (about 135 ns a host write on
/// dc-tlc-2t: the single costliest instruction of the simulator); cleared kBurst at a time,
/// the misses overlap. Order does not matter: a bit set later is another page's, or this
/// page's after an erase, and an erase follows a victim scan, which settles first. Until
/// settled, the bitmap is the true one plus these pages: read it only after settle().
struct StaleBits {
  static constexpr uint32_t kBurst = 64;
  uint32_t n = 0;
  uint32_t page[kBurst] = {};

  void settle(uint64_t* valid) {
    for (uint32_t i = 0; i < n; ++i) __builtin_prefetch(&valid[page[i] >> 6], 1, 3);
    for (uint32_t i = 0; i < n; ++i) clear_valid(valid, page[i]);
    n = 0;
  }
  void add(uint32_t ppn, uint64_t* valid) {
    page[n++] = ppn;
    if (n == kBurst) settle(valid);
  }
};

/// One host write of `lpn`: the old page, if any, stops being valid (`retire(old_ppn)` counts
/// it in its superblock; its bit goes in the next burst), then the page is placed (`place()`
/// returns the new ppn: the single-thread FTL appends to its frontier here, after the
/// invalidation, because opening a superblock may choose a victim and the victim must see it),
/// then the entry and the new page's bit are set. Returns the old entry (0: it was unmapped;
/// its kStored flag: stored bytes were overwritten).
template <class Retire, class Place>
inline uint32_t host_write(uint32_t* l2p, uint64_t* valid, StaleBits& stale, uint64_t lpn, Retire&& retire,
                           Place&& place) {
  const uint32_t old = l2p[lpn];
  if (old) {
    const uint32_t op = (old & ~kStored) - 1;
    retire(op);
    stale.add(op, valid);
  }
  const uint64_t ppn = place();
  l2p[lpn] = pack(ppn);
  set_valid(valid, ppn);
  return old;
}

/// GC moves `n` pages, lpns[i] to nps[i] (lpns sorted: one sweep over the table, prefetched a
/// fixed distance ahead), each entry's kStored flag kept. The new pages' bits are the caller's.
inline void sweep(uint32_t* l2p, const uint32_t* lpns, const uint32_t* nps, size_t n) {
  constexpr size_t kAhead = 32;
  for (size_t i = 0; i < n; ++i) {
    if (i + kAhead < n) __builtin_prefetch(&l2p[lpns[i + kAhead]], 1, 3);
    const uint32_t lpn = lpns[i];
    l2p[lpn] = (nps[i] + 1) | (l2p[lpn] & kStored);
  }
}

/// Sorts `a` (values below 2^key_bits) by LSD radix passes of up to 11 bits; `tmp` is scratch.
inline void radix_sort(std::vector<uint32_t>& a, std::vector<uint32_t>& tmp, uint32_t key_bits) {
  const uint32_t passes = std::max(1u, (key_bits + 10) / 11);
  const uint32_t digit = (key_bits + passes - 1) / passes;
  const uint32_t mask = (1u << digit) - 1;
  tmp.resize(a.size());
  std::vector<uint32_t> count(size_t{1} << digit);
  for (uint32_t pass = 0, shift = 0; pass < passes; ++pass, shift += digit) {
    std::fill(count.begin(), count.end(), 0u);
    for (uint32_t v : a) ++count[(v >> shift) & mask];
    uint32_t sum = 0;
    for (uint32_t& c : count) {
      const uint32_t n = c;
      c = sum;
      sum += n;
    }
    for (uint32_t v : a) tmp[count[(v >> shift) & mask]++] = v;
    a.swap(tmp);
  }
}

/// A GC victim's move, once its copies are placed: its valid pages' lpns (collected in
/// physical order) are sorted, the i-th smallest goes to nps[i] (the copies' pages in the
/// order they were placed): the reverse map entries of the new pages, then the mapping
/// entries in one sweep over the table. `tmp` is the sort's scratch.
inline void move_victim(uint32_t* l2p, uint32_t* p2l, std::vector<uint32_t>& lpns, std::vector<uint32_t>& tmp,
                        const uint32_t* nps, uint32_t key_bits) {
  radix_sort(lpns, tmp, key_bits);
  const size_t n = lpns.size();
  for (size_t i = 0; i < n; ++i) p2l[nps[i]] = lpns[i];
  sweep(l2p, lpns.data(), nps, n);
}

}  // namespace pts::sim::mapping
