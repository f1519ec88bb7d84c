// sim/ftl_gc.cpp — see ftl.h: garbage collection. GC pacing: when a victim with v valid pages
// (of S) is chosen, cleaning it frees S - v pages net, while the host writes S - v pages
// meanwhile; so GC copies v / (S - v) pages per host page (kept exact in integers: num_ /
// den_), and the free pool stays where it was. Forced GC (clean a whole victim at once) only
// runs when a frontier would otherwise find no free superblock. A superblock whose pages are
// all valid is never a victim (it frees nothing). Host idle cleans a program unit of copies
// per step up to idle_gc_free free superblocks.
//
// Relocation in lpn order: the copies' mapping updates are the one random memory access of
// GC (~7 per host write at 7 % spare, each into a multi-gigabyte table). So a victim's valid
// pages move all at once when it is selected: their lpns are collected in physical order
// (a sequential scan of the bitmap and reverse map), radix-sorted, and the mapping is
// updated in that order, a sweep over the table, each copy appended to the GC frontier. The
// flash work stays where it was in time: each host write's share of copies reports the
// group reads (physical order), program units and, at the end, the erase that the copies
// would have done then. What changes: a host write to a victim page while the victim is
// being cleaned finds it already copied (the copy is wasted; before, the copy was saved),
// and a read of it reads the copy.
#include <algorithm>

#include "sim/ftl.h"

namespace pts::sim {

void Ftl::gc_pace() {
  if (victim_ < 0) return;
  credit_ += num_;
  if (credit_ < den_) return;
  // The copies this host page owes, one den_ each (a victim with none left owes one step,
  // which ends it).
  const uint64_t m = copied_ >= to_copy_ ? 1 : std::min(credit_ / den_, to_copy_ - copied_);
  credit_ -= m * den_;
  relocate(m);
}

bool Ftl::relocate(uint64_t copies) {
  if (copied_ >= to_copy_) {
    finish_victim();
    return false;
  }
  // Their flash work in copy order: a copy's group read before the program unit it completes.
  const uint64_t end = copied_ + std::min(copies, to_copy_ - copied_);
  for (;;) {
    const bool read = next_read_ < reads_.size() && reads_[next_read_].at < end;
    const bool unit = next_unit_ < units_.size() && units_[next_unit_].at < end;
    if (!read && !unit) break;
    if (read && (!unit || reads_[next_read_].at <= units_[next_unit_].at)) {
      if (sink_) sink_->gc_read(reads_[next_read_].die, reads_[next_read_].pages);
      ++next_read_;
    } else {
      if (sink_) sink_->gc_unit(units_[next_unit_].die);
      ++next_unit_;
    }
  }
  counters_.gc_pages += end - copied_;
  copied_ = end;
  if (copied_ == to_copy_) {
    finish_victim();
    return false;
  }
  return true;
}

void Ftl::select_victim() {
  sync();
  int64_t best = -1;
  for (uint32_t i = 0; i < sbs_.size(); ++i) {
    const Superblock& s = sbs_[i];
    // A superblock with every page valid frees nothing: copying it only moves it (a drive
    // filled once, sequentially, has nothing else; cleaning those was a copy storm).
    if (s.state != SbState::Closed || s.valid >= geo_.sb_pages) continue;
    if (best < 0) {
      best = i;
      continue;
    }
    const Superblock& b = sbs_[best];
    const bool better = policy_ == GcPolicy::Greedy
                            ? (s.valid < b.valid || (s.valid == b.valid && s.closed_seq < b.closed_seq))
                            : s.closed_seq < b.closed_seq;
    if (better) best = i;
  }
  victim_ = best;
  credit_ = 0;
  if (best < 0) return;
  num_ = sbs_[best].valid;
  den_ = geo_.sb_pages > num_ ? geo_.sb_pages - num_ : 1;
  move_victim();
}

void Ftl::move_victim() {
  settle_bitmap();
  const uint64_t base = uint64_t(victim_) * geo_.sb_pages, end = base + geo_.sb_pages;
  reads_.clear();
  units_.clear();
  next_read_ = next_unit_ = copied_ = 0;
  // The valid pages in physical order: their lpns, and one read per multi-plane group.
  // Group by group (a superblock is whole groups), in pieces of at most one bitmap word: each
  // page's lpn is written and kept only if its bit is set (no branch per page); a group with
  // any valid page is one read.
  std::vector<uint32_t>& lpns = sort_a_;
  const uint64_t gp = geo_.group_pages;
  lpns.resize(geo_.sb_pages);
  uint32_t* out = lpns.data();
  size_t n = 0;
  for (uint64_t g = base; g < end; g += gp) {
    const size_t before = n;
    for (uint64_t c = g, ce = g + gp; c < ce;) {
      const uint64_t shift = c & 63, take = std::min<uint64_t>(64 - shift, ce - c);
      const uint64_t w = (valid_[c >> 6] >> shift) & mapping::low_bits(take);
      if (w)
        for (uint64_t k = 0; k < take; ++k) {
          out[n] = p2l_[c + k];
          n += (w >> k) & 1;
        }
      c += take;
    }
    if (n > before)
      reads_.push_back({static_cast<uint32_t>(before), geo_.die_of(g), static_cast<uint32_t>(n - before)});
  }
  lpns.resize(n);
  to_copy_ = lpns.size();
  // Clear the victim's validity bits (whole words inside, bit by bit at the edges).
  uint64_t p = base;
  for (; p < end && (p & 63); ++p) clear_valid(p);
  for (; p + 64 <= end; p += 64) valid_[p >> 6] = 0;
  for (; p < end; ++p) clear_valid(p);
  sbs_[victim_].valid = 0;
  // Placement first, in physical order (where each copy goes does not depend on which lpn it
  // holds); then the move: the lpns sorted, the i-th smallest to the i-th new page, the
  // mapping entries a sweep over the table (prefetched ahead). Pipelined, the map thread runs
  // the move (before any host write pushed after this) while this thread goes on.
  // A run at a time: the pages left in the GC frontier's superblock (append()'s order).
  moved_to_.resize(n);
  for (size_t i = 0; i < n;) {
    if (gc_.sb >= 0 && gc_.offset == geo_.sb_pages) close(gc_);
    if (gc_.sb < 0) open(gc_, false);
    const uint64_t run = std::min<uint64_t>(n - i, geo_.sb_pages - gc_.offset);
    const uint64_t first = uint64_t(gc_.sb) * geo_.sb_pages + gc_.offset;
    for (uint64_t k = 0; k < run; ++k) moved_to_[i + k] = static_cast<uint32_t>(first + k);
    set_valid_run(first, run);
    sbs_[gc_.sb].valid += static_cast<uint32_t>(run);
    // A copy completes a program unit when the offset after it is a unit's end.
    const uint32_t into = geo_.in_unit(gc_.offset);
    for (uint64_t k = geo_.unit_pages - into - 1; k < run; k += geo_.unit_pages)
      units_.push_back({static_cast<uint32_t>(i + k), geo_.die_of(first + k), 0});
    gc_.offset += run;
    i += run;
  }
  uint32_t key_bits = 1;
  while (key_bits < 32 && (uint64_t{1} << key_bits) < geo_.user_pages) ++key_bits;
  if (pipelined_) map_->push_move(&lpns, &sort_b_, moved_to_.data(), key_bits);
  else mapping::move_victim(l2p_.data(), p2l_.data(), lpns, sort_b_, moved_to_.data(), key_bits);
}

void Ftl::finish_victim() {
  const uint32_t sb = static_cast<uint32_t>(victim_);
  Superblock& s = sbs_[sb];
  if (sink_) sink_->erase(sb);
  ++s.erases;
  ++counters_.erases;
  s.state = SbState::Free;
  s.valid = 0;
  s.first_unit_seq = kNotBuffered;
  s.dirty = false;
  free_.push_back(sb);
  clear_victim();
  if (free_.size() <= gc_free_) select_victim();
}

void Ftl::force_gc() {
  // Keep one free superblock for the GC frontier: clean whole victims until two are free.
  while (free_.size() <= 1) {
    if (victim_ < 0) select_victim();
    if (victim_ < 0) return;
    ++counters_.forced_gc;
    relocate(UINT64_MAX);
  }
}

bool Ftl::idle_gc_step() {
  if (free_.size() >= idle_gc_free_) return false;
  if (victim_ < 0) select_victim();
  if (victim_ < 0) return false;
  relocate(geo_.unit_pages);
  return true;
}

void Ftl::clear_victim() {
  victim_ = -1;
  reads_.clear();
  units_.clear();
  next_read_ = next_unit_ = copied_ = to_copy_ = 0;
}

}  // namespace pts::sim
