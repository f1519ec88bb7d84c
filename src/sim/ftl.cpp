// sim/ftl.cpp — see ftl.h. GC pacing: when a victim with v valid pages (of S) is chosen,
// cleaning it frees S - v pages net, while the host writes S - v pages meanwhile; so GC
// copies v / (S - v) pages per host page (kept exact in integers: num_ / den_), and the free
// pool stays where it was. Forced GC (clean a whole victim at once) only runs when a
// frontier would otherwise find no free superblock. A superblock whose pages are all valid
// is never a victim (it frees nothing).
#include "sim/ftl.h"

#include <algorithm>
#include <stdexcept>

namespace pts::sim {

namespace {
constexpr uint64_t kGcAhead = 48;  ///< victim pages looked ahead of a GC copy (prefetch)
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
  ++sbs_[host_.sb].valid;
  ++counters_.host_pages;
  if (geo_.in_unit(host_.offset) == 0) {
    const uint64_t seq = next_unit_seq_++;
    if (sink_) sink_->host_unit(geo_.die_of(ppn), seq);
  }
  gc_pace();
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
  const uint64_t base = uint64_t(victim_) * geo_.sb_pages, end = base + geo_.sb_pages;
  uint64_t p = base + scan_;
  while (p < end) {
    const uint64_t w = valid_[p >> 6] >> (p & 63);
    if (w) {
      p += static_cast<uint64_t>(__builtin_ctzll(w));
      break;
    }
    p = (p | 63) + 1;
  }
  if (p >= end || sbs_[victim_].valid == 0) {
    finish_victim();
    return false;
  }
  scan_ = p - base + 1;
  const uint64_t group = geo_.group_of(p);
  if (group != last_group_) {  // one multi-plane read brings in every valid page of the group
    last_group_ = group;
    uint32_t n = 0;
    const uint64_t g0 = group * geo_.group_pages, g1 = g0 + geo_.group_pages;
    for (uint64_t q = g0; q < g1; ++q) n += valid(q) ? 1u : 0u;
    if (sink_) sink_->gc_read(geo_.die_of(p), n);
  }
  // Look ahead: the mapping entries of the next copies are random accesses (the victim's
  // reverse map and bitmap are read in order): prefetch each valid page's entry once,
  // kGcAhead pages ahead of the copy.
  const uint64_t ahead = std::min(end, p + kGcAhead);
  for (uint64_t q = std::max(prefetched_, p + 1); q < ahead; ++q)
    if (valid(q)) __builtin_prefetch(&l2p_[p2l_[q]], 1, 3);
  prefetched_ = std::max(prefetched_, ahead);
  const uint32_t lpn = p2l_[p];
  clear_valid(p);
  --sbs_[victim_].valid;
  const uint64_t np = append(gc_, false);
  const uint32_t flag = l2p_[lpn] & kStored;
  l2p_[lpn] = pack(np) | flag;
  p2l_[np] = lpn;
  set_valid(np);
  ++sbs_[gc_.sb].valid;
  ++counters_.gc_pages;
  if (geo_.in_unit(gc_.offset) == 0 && sink_) sink_->gc_unit(geo_.die_of(np));
  if (victim_ >= 0 && sbs_[victim_].valid == 0) {
    finish_victim();
    return false;
  }
  return true;
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
  last_group_ = UINT64_MAX;
  prefetched_ = 0;
  if (free_.size() <= gc_free_) select_victim();
}

void Ftl::select_victim() {
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
  scan_ = 0;
  prefetched_ = 0;
  credit_ = 0;
  last_group_ = UINT64_MAX;
  if (best < 0) return;
  num_ = sbs_[best].valid;
  den_ = geo_.sb_pages > num_ ? geo_.sb_pages - num_ : 1;
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
  if (victim_ < 0 || sbs_[victim_].valid >= geo_.sb_pages) return false;
  for (uint32_t i = 0; i < geo_.unit_pages; ++i)
    if (!relocate_one()) break;
  return true;
}

void Ftl::reset(bool erase_now) {
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
  scan_ = 0;
  prefetched_ = 0;
  credit_ = 0;
  last_group_ = UINT64_MAX;
}

std::string Ftl::check_consistency() const {
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
  out.u64(scan_);
  out.u64(last_group_);
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
  scan_ = in.u64();
  last_group_ = in.u64();
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
  if (!rle_decode(in, l2p_.data(), l2p_.size())) return false;
  const size_t step = 1 << 20;
  for (size_t at = 0; at < p2l_.size(); at += step)
    if (!rle_decode(in, p2l_.data() + at, std::min(step, p2l_.size() - at))) return false;
  if (!rle_decode(in, reinterpret_cast<uint32_t*>(valid_.data()), valid_.size() * 2)) return false;
  return !in.failed();
}

}  // namespace pts::sim
