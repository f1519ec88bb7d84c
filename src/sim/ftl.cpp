// sim/ftl.cpp — see ftl.h: mapping and placement. A host write invalidates the page its lpn
// mapped to and appends the new one to the host frontier (superblocks written die by die, a
// program unit at a time), through the one mapping update both threads run (sim/mapping.h).
// In a write-only cell the mapping updates go to the map thread (sim/map_thread.h); the
// valid counts it gathers are folded in before anything reads them. GC is ftl_gc.cpp, saving
// and loading ftl_persistence.cpp.
#include "sim/ftl.h"

#include <stdexcept>

namespace pts::sim {

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
    // Opening a superblock may choose a victim (none is being cleaned) or force GC (one free
    // superblock left), which must see this write's invalidation first (as the single-thread
    // order has it): that write runs here, on a synced FTL. Otherwise opening reads nothing
    // the map thread writes, and the write stays pipelined.
    const bool opens = host_.sb < 0 || host_.offset == geo_.sb_pages;
    if (opens && (victim_ < 0 || free_.size() <= 1)) {
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
  uint64_t ppn = 0;
  const uint32_t old = mapping::host_write(
      l2p_.data(), valid_.data(), stale_, lpn, [this](uint32_t op) { --sbs_[geo_.sb_of(op)].valid; },
      [&] { return ppn = append(host_, true); });
  if (!old) ++mapped_;
  p2l_[ppn] = static_cast<uint32_t>(lpn);
  host_placed(ppn);
  return old & kStored;
}

bool Ftl::trim(uint64_t lpn) {
  const uint32_t old = l2p_[lpn];
  if (!old) return false;
  invalidate(mapping::unpack(old));
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

void Ftl::begin_pipeline() {
  if (!map_) map_ = std::make_unique<MapThread>(l2p_.data(), valid_.data(), p2l_.data(), geo_);
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

void Ftl::reset(bool erase_now) {
  end_pipeline();
  stale_.n = 0;  // their bits go with the whole bitmap
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
  clear_victim();
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

}  // namespace pts::sim
