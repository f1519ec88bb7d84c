// sim/ftl.cpp — see ftl.h. GC pacing: when a victim with v valid pages (of S) is chosen,
// cleaning it frees S - v pages net, while the host writes S - v pages meanwhile; so GC
// copies v / (S - v) pages per host page (kept exact in integers: num_ / den_), and the free
// pool stays where it was. Forced GC (clean a whole victim at once) only runs when a
// frontier would otherwise find no free superblock. A superblock whose pages are all valid
// is never a victim (it frees nothing).
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
#include "sim/ftl.h"

#include <algorithm>
#include <stdexcept>

namespace pts::sim {

namespace {


/// LSD radix sort of `a` (values below 2^key_bits), `tmp` a buffer; both reused.
void radix_sort(std::vector<uint32_t>& a, std::vector<uint32_t>& tmp, uint32_t key_bits) {
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

}  // namespace

Ftl::Ftl(const Geometry& geo, GcPolicy policy, uint32_t gc_free, uint32_t idle_gc_free)
    : geo_(geo),
      policy_(policy),
      gc_free_(gc_free),
      idle_gc_free_(idle_gc_free),
      l2p_(geo.user_pages),
      p2l_(geo.phys_pages),
      valid_((geo.phys_pages + 63) / 64),
      sbs_(geo.superblocks) {
  for (uint32_t i = 0; i < geo.superblocks; ++i) free_.push_back(i);
}

double Ftl::mean_erases() const {
  if (sbs_.empty()) return 0;
  uint64_t sum = 0;
  for (const auto& s : sbs_) sum += s.erases;
  return double(sum) / double(sbs_.size());
}

void Ftl::open(Frontier& f, bool host) {
  if (host) force_gc();
  if (free_.empty()) throw std::logic_error("simulated FTL: no free superblock (spare space exhausted)");
  const uint32_t sb = free_.front();
  free_.pop_front();
  Superblock& s = sbs_[sb];
  if (s.dirty) {  // unmapped by a purge and not erased yet: erase before the first program
    if (sink_) sink_->erase(sb);
    ++s.erases;
    ++counters_.erases;
    s.dirty = false;
  }
  s.state = host ? SbState::Host : SbState::Gc;
  s.valid = 0;
  s.first_unit_seq = host ? next_unit_seq_ : kNotBuffered;
  f.sb = sb;
  f.offset = 0;
  if (victim_ < 0 && free_.size() <= gc_free_) select_victim();
}

void Ftl::close(Frontier& f) {
  Superblock& s = sbs_[f.sb];
  s.state = SbState::Closed;
  s.closed_seq = close_seq_++;
  f.sb = -1;
}

uint64_t Ftl::append(Frontier& f, bool host) {
  if (f.sb >= 0 && f.offset == geo_.sb_pages) close(f);
  if (f.sb < 0) open(f, host);
  return uint64_t(f.sb) * geo_.sb_pages + f.offset++;
}

bool Ftl::write(uint64_t lpn) {
  if (pipelined_) {
    // Opening a superblock may choose a victim, which must see this write's invalidation
    // first (as the single-thread order has it): that write runs here, on a synced FTL.
    if (host_.sb < 0 || host_.offset == geo_.sb_pages) {
      sync();
      pipelined_ = false;  // and so does any GC it starts: the map thread stays idle
      const bool stored = write_inline(lpn);
      settle_bitmap();  // the map thread owns the bitmap again from the next push
      pipelined_ = true;
      return stored;
    }
    const uint64_t ppn = append(host_, true);
    p2l_[ppn] = static_cast<uint32_t>(lpn);
    map_->push_host(lpn, ppn);
    host_placed(ppn);
    return false;
  }
  return write_inline(lpn);
}

void Ftl::host_placed(uint64_t ppn) {
  ++sbs_[host_.sb].valid;
  ++counters_.host_pages;
  if (geo_.in_unit(host_.offset) == 0) {
    const uint64_t seq = next_unit_seq_++;
    if (sink_) sink_->host_unit(geo_.die_of(ppn), seq);
  }
  gc_pace();
}

bool Ftl::write_inline(uint64_t lpn) {
  const uint32_t old = l2p_[lpn];
  bool stored = false;
  if (old) {
    stored = old & kStored;
    invalidate(unpack(old));
  } else {
    ++mapped_;
  }
  const uint64_t ppn = append(host_, true);
  l2p_[lpn] = pack(ppn);
  p2l_[ppn] = static_cast<uint32_t>(lpn);
  set_valid(ppn);
  host_placed(ppn);
  return stored;
}

bool Ftl::trim(uint64_t lpn) {
  const uint32_t old = l2p_[lpn];
  if (!old) return false;
  invalidate(unpack(old));
  l2p_[lpn] = 0;
  --mapped_;
  ++counters_.trimmed;
  return old & kStored;
}

bool Ftl::pad_host_unit() {
  if (host_.sb < 0 || geo_.in_unit(host_.offset) == 0) return false;
  const uint64_t pages = geo_.unit_pages - geo_.in_unit(host_.offset);
  const uint64_t last = uint64_t(host_.sb) * geo_.sb_pages + host_.offset;
  host_.offset += pages;  // filler pages: programmed, never valid
  counters_.pad_pages += pages;
  if (sink_) sink_->host_unit(geo_.die_of(last), next_unit_seq_);
  ++next_unit_seq_;
  return true;
}

void Ftl::gc_pace() {
  if (victim_ < 0) return;
  credit_ += num_;
  while (credit_ >= den_) {
    credit_ -= den_;
    if (!relocate_one()) return;
  }
}

bool Ftl::relocate_one() {
  if (copied_ >= to_copy_) {
    finish_victim();
    return false;
  }
  const uint64_t k = copied_++;
  if (next_read_ < reads_.size() && reads_[next_read_].at == k) {  // first copy of its group
    if (sink_) sink_->gc_read(reads_[next_read_].die, reads_[next_read_].pages);
    ++next_read_;
  }
  ++counters_.gc_pages;
  if (next_unit_ < units_.size() && units_[next_unit_].at == k) {
    if (sink_) sink_->gc_unit(units_[next_unit_].die);
    ++next_unit_;
  }
  if (copied_ == to_copy_) {
    finish_victim();
    return false;
  }
  return true;
}

void Ftl::settle_bitmap() const {
  const uint32_t n = stale_n_;
  for (uint32_t i = 0; i < n; ++i) __builtin_prefetch(&valid_[stale_[i] >> 6], 1, 3);
  for (uint32_t i = 0; i < n; ++i) clear_valid(stale_[i]);
  stale_n_ = 0;
}

void Ftl::move_victim() {
  settle_bitmap();
  const uint64_t base = uint64_t(victim_) * geo_.sb_pages, end = base + geo_.sb_pages;
  reads_.clear();
  units_.clear();
  next_read_ = next_unit_ = copied_ = 0;
  // The valid pages in physical order: their lpns, and one read per multi-plane group.
  std::vector<uint32_t>& lpns = sort_a_;
  lpns.clear();
  uint64_t group = UINT64_MAX;
  for (uint64_t p = base; p < end;) {
    const uint64_t w = valid_[p >> 6] >> (p & 63);
    if (!w) {
      p = (p | 63) + 1;
      continue;
    }
    p += static_cast<uint64_t>(__builtin_ctzll(w));
    if (p >= end) break;
    if (const uint64_t g = geo_.group_of(p); g != group) {
      group = g;
      reads_.push_back({static_cast<uint32_t>(lpns.size()), geo_.die_of(p), 0});
    }
    ++reads_.back().pages;
    lpns.push_back(p2l_[p]);
    ++p;
  }
  to_copy_ = lpns.size();
  // Clear the victim's validity bits (whole words inside, bit by bit at the edges).
  uint64_t p = base;
  for (; p < end && (p & 63); ++p) clear_valid(p);
  for (; p + 64 <= end; p += 64) valid_[p >> 6] = 0;
  for (; p < end; ++p) clear_valid(p);
  sbs_[victim_].valid = 0;
  // Move them in lpn order: the mapping updates sweep the table (prefetched ahead).
  uint32_t key_bits = 1;
  while (key_bits < 32 && (uint64_t{1} << key_bits) < geo_.user_pages) ++key_bits;
  radix_sort(lpns, sort_b_, key_bits);
  const size_t n = lpns.size();
  // Placement first, in order; then the mapping entries, a sweep over the table. Pipelined,
  // the map thread takes the upper half of the sweep (before any host write pushed after
  // this) and this thread the lower half, at the same time.
  moved_to_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t np = append(gc_, false);
    moved_to_[i] = static_cast<uint32_t>(np);
    p2l_[np] = lpns[i];
    set_valid(np);
    ++sbs_[gc_.sb].valid;
    if (geo_.in_unit(gc_.offset) == 0) units_.push_back({static_cast<uint32_t>(i), geo_.die_of(np), 0});
  }
  const size_t mine = pipelined_ ? n / 2 : n;
  if (mine < n) map_->push_sweep(lpns.data() + mine, moved_to_.data() + mine, n - mine);
  MapThread::sweep(l2p_.data(), lpns.data(), moved_to_.data(), mine);
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
  victim_ = -1;
  reads_.clear();
  units_.clear();
  next_read_ = next_unit_ = copied_ = to_copy_ = 0;
  if (free_.size() <= gc_free_) select_victim();
}

void Ftl::begin_pipeline() {
  if (!map_) map_ = std::make_unique<MapThread>(l2p_.data(), valid_.data(), geo_);
  settle_bitmap();  // the map thread owns the bitmap from the first push
  pipelined_ = true;
}

void Ftl::end_pipeline() {
  if (!pipelined_) return;
  sync();
  map_->park();
  pipelined_ = false;
}

void Ftl::sync() {
  if (!pipelined_) return;
  map_->drain();
  std::vector<uint32_t>& dead = map_->dead();
  for (uint32_t i = 0; i < dead.size(); ++i) {
    sbs_[i].valid -= dead[i];
    dead[i] = 0;
  }
  mapped_ += map_->take_mapped_delta();
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

void Ftl::force_gc() {
  // Keep one free superblock for the GC frontier: clean whole victims until two are free.
  while (free_.size() <= 1) {
    if (victim_ < 0) select_victim();
    if (victim_ < 0) return;
    ++counters_.forced_gc;
    while (relocate_one()) {
    }
  }
}

bool Ftl::idle_gc_step() {
  if (free_.size() >= idle_gc_free_) return false;
  if (victim_ < 0) select_victim();
  if (victim_ < 0) return false;
  for (uint32_t i = 0; i < geo_.unit_pages; ++i)
    if (!relocate_one()) break;
  return true;
}

void Ftl::reset(bool erase_now) {
  end_pipeline();
  stale_n_ = 0;  // their bits go with the whole bitmap
  l2p_.zero();
  valid_.zero();
  p2l_.zero();
  mapped_ = 0;
  free_.clear();
  for (uint32_t i = 0; i < sbs_.size(); ++i) {
    Superblock& s = sbs_[i];
    const bool holds_data = s.state != SbState::Free || s.dirty;
    if (holds_data && erase_now) {
      if (sink_) sink_->erase(i);
      ++s.erases;
      ++counters_.erases;
      s.dirty = false;
    } else if (holds_data) {
      s.dirty = true;
    }
    s.state = SbState::Free;
    s.valid = 0;
    s.first_unit_seq = kNotBuffered;
    free_.push_back(i);
  }
  host_ = Frontier{};
  gc_ = Frontier{};
  victim_ = -1;
  reads_.clear();
  units_.clear();
  next_read_ = next_unit_ = copied_ = to_copy_ = 0;
  credit_ = 0;
}

std::string Ftl::check_consistency() const {
  settle_bitmap();
  uint64_t mapped = 0;
  for (uint64_t lpn = 0; lpn < l2p_.size(); ++lpn) {
    const uint32_t ppn = lookup(lpn);
    if (ppn == kUnmapped) continue;
    ++mapped;
    if (ppn >= geo_.phys_pages) return "lpn " + std::to_string(lpn) + " maps past the flash";
    if (!valid(ppn)) return "lpn " + std::to_string(lpn) + " maps to invalid page " + std::to_string(ppn);
    if (p2l_[ppn] != lpn) return "page " + std::to_string(ppn) + " maps back to " + std::to_string(p2l_[ppn]);
  }
  if (mapped != mapped_) return "mapped count " + std::to_string(mapped_) + " but " + std::to_string(mapped) + " mapped";
  uint64_t total_valid = 0;
  for (uint32_t sb = 0; sb < sbs_.size(); ++sb) {
    uint64_t n = 0;
    for (uint64_t p = uint64_t(sb) * geo_.sb_pages; p < uint64_t(sb + 1) * geo_.sb_pages; ++p) n += valid(p);
    if (n != sbs_[sb].valid) return "superblock " + std::to_string(sb) + " counts " + std::to_string(sbs_[sb].valid) +
                                    " valid pages, bitmap has " + std::to_string(n);
    if (sbs_[sb].state == SbState::Free && n) return "free superblock " + std::to_string(sb) + " holds valid pages";
    total_valid += n;
  }
  if (total_valid != mapped) return "valid pages " + std::to_string(total_valid) + " != mapped " + std::to_string(mapped);
  for (uint32_t sb : free_)
    if (sbs_[sb].state != SbState::Free) return "superblock " + std::to_string(sb) + " on the free list is in use";
  return "";
}

void Ftl::save(ByteWriter& out) const {
  settle_bitmap();
  out.u32(static_cast<uint32_t>(sbs_.size()));
  for (const auto& s : sbs_) {
    out.u32(s.valid);
    out.u32(s.erases);
    out.u64(s.closed_seq);
    out.u64(s.first_unit_seq);
    out.u8(static_cast<uint8_t>(s.state));
    out.u8(s.dirty ? 1 : 0);
  }
  out.u32(static_cast<uint32_t>(free_.size()));
  for (uint32_t sb : free_) out.u32(sb);
  for (const Frontier* f : {&host_, &gc_}) {
    out.u64(static_cast<uint64_t>(f->sb));
    out.u64(f->offset);
  }
  out.u64(static_cast<uint64_t>(victim_));
  out.u64(copied_);
  out.u64(to_copy_);
  out.u64(next_read_);
  out.u64(next_unit_);
  for (const std::vector<GcStep>* v : {&reads_, &units_}) {
    out.u64(v->size());
    for (const GcStep& st : *v) {
      out.u32(st.at);
      out.u32(st.die);
      out.u32(st.pages);
    }
  }
  out.u64(credit_);
  out.u64(num_);
  out.u64(den_);
  out.u64(close_seq_);
  out.u64(next_unit_seq_);
  out.u64(mapped_);
  for (uint64_t c : {counters_.host_pages, counters_.gc_pages, counters_.pad_pages, counters_.erases,
                     counters_.forced_gc, counters_.trimmed})
    out.u64(c);
  rle_encode(l2p_.data(), l2p_.size(), out);
  // Reverse map entries of invalid pages are never read: store them as 0 so they compress.
  std::vector<uint32_t> chunk;
  const size_t step = 1 << 20;
  for (size_t at = 0; at < p2l_.size(); at += step) {
    const size_t n = std::min(step, p2l_.size() - at);
    chunk.assign(p2l_.data() + at, p2l_.data() + at + n);
    for (size_t i = 0; i < n; ++i)
      if (!valid(at + i)) chunk[i] = 0;
    rle_encode(chunk.data(), n, out);
  }
  rle_encode(reinterpret_cast<const uint32_t*>(valid_.data()), valid_.size() * 2, out);
}

bool Ftl::load(ByteReader& in) {
  if (in.u32() != sbs_.size()) return false;
  for (auto& s : sbs_) {
    s.valid = in.u32();
    s.erases = in.u32();
    s.closed_seq = in.u64();
    s.first_unit_seq = in.u64();
    const uint8_t st = in.u8();
    if (st > 3) return false;
    s.state = static_cast<SbState>(st);
    s.dirty = in.u8() != 0;
  }
  const uint32_t nfree = in.u32();
  if (nfree > sbs_.size()) return false;
  free_.clear();
  for (uint32_t i = 0; i < nfree; ++i) {
    const uint32_t sb = in.u32();
    if (sb >= sbs_.size()) return false;
    free_.push_back(sb);
  }
  for (Frontier* f : {&host_, &gc_}) {
    f->sb = static_cast<int64_t>(in.u64());
    f->offset = in.u64();
    if (f->sb >= int64_t(sbs_.size()) || f->offset > geo_.sb_pages) return false;
  }
  victim_ = static_cast<int64_t>(in.u64());
  if (victim_ >= int64_t(sbs_.size())) return false;
  copied_ = in.u64();
  to_copy_ = in.u64();
  next_read_ = in.u64();
  next_unit_ = in.u64();
  if (copied_ > to_copy_ || to_copy_ > geo_.sb_pages) return false;
  for (std::vector<GcStep>* v : {&reads_, &units_}) {
    const uint64_t n = in.u64();
    if (n > geo_.sb_pages) return false;
    v->resize(n);
    for (GcStep& st : *v) {
      st.at = in.u32();
      st.die = in.u32();
      st.pages = in.u32();
      if (st.at >= to_copy_ || st.die >= geo_.dies) return false;
    }
  }
  if (next_read_ > reads_.size() || next_unit_ > units_.size()) return false;
  credit_ = in.u64();
  num_ = in.u64();
  den_ = in.u64();
  if (den_ == 0) return false;
  close_seq_ = in.u64();
  next_unit_seq_ = in.u64();
  mapped_ = in.u64();
  for (uint64_t* c : {&counters_.host_pages, &counters_.gc_pages, &counters_.pad_pages, &counters_.erases,
                      &counters_.forced_gc, &counters_.trimmed})
    *c = in.u64();
  // Into zeroed memory, skipping runs of zeroes: their pages stay unmapped until used.
  l2p_.zero();
  p2l_.zero();
  valid_.zero();
  stale_n_ = 0;
  if (!rle_decode(in, l2p_.data(), l2p_.size(), true)) return false;
  const size_t step = 1 << 20;
  for (size_t at = 0; at < p2l_.size(); at += step)
    if (!rle_decode(in, p2l_.data() + at, std::min(step, p2l_.size() - at), true)) return false;
  if (!rle_decode(in, reinterpret_cast<uint32_t*>(valid_.data()), valid_.size() * 2, true)) return false;
  return !in.failed();
}

}  // namespace pts::sim
