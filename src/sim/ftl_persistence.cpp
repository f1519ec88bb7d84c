// sim/ftl_persistence.cpp — see ftl.h: the FTL's part of the drive's snapshot (superblocks,
// free list, frontiers, the victim and the flash work its move still owes, GC pacing,
// counters, then the mapping table, reverse map and validity bitmap run-length coded) and
// loading it back with every index checked against the geometry. Reverse-map entries of
// invalid pages are never read, so they are saved as 0 (they compress); loading fills
// zeroed memory and skips runs of zeroes, so unmapped pages stay untouched.
#include <algorithm>

#include "sim/ftl.h"

namespace pts::sim {

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
  stale_.n = 0;
  if (!rle_decode(in, l2p_.data(), l2p_.size(), true)) return false;
  const size_t step = 1 << 20;
  for (size_t at = 0; at < p2l_.size(); at += step)
    if (!rle_decode(in, p2l_.data() + at, std::min(step, p2l_.size() - at), true)) return false;
  if (!rle_decode(in, reinterpret_cast<uint32_t*>(valid_.data()), valid_.size() * 2, true)) return false;
  return !in.failed();
}

}  // namespace pts::sim
