// sim/timing.cpp — see timing.h.
#include "sim/timing.h"

#include <algorithm>
#include <cmath>

namespace pts::sim {

FlashTiming::FlashTiming(const SimParams& p, const Geometry& g)
    : channels_(p.channels),
      cmd_read_ns_(p.cmd_read_ns),
      cmd_write_ns_(p.cmd_write_ns),
      occupancy_ns_(p.cmd_occupancy_ns),
      read_ns_(p.read_ns),
      prog_ns_(p.prog_ns),
      erase_ns_(p.erase_ns),
      link_ps_per_byte_(static_cast<uint64_t>(std::llround(1e6 / p.pcie_mbps))),
      chan_ps_per_byte_(static_cast<uint64_t>(std::llround(1e6 / p.channel_mbps))),
      unit_xfer_ns_(uint64_t(g.unit_pages) * g.page_bytes * chan_ps_per_byte_ / 1000),
      page_bytes_(g.page_bytes),
      die_free_(p.dies, 0),
      chan_(p.channels) {}

uint64_t FlashTiming::all_idle() const {
  uint64_t t = std::max({ctrl_free_, link_in_free_, link_out_free_});
  for (uint64_t d : die_free_) t = std::max(t, d);
  for (const auto& c : chan_) t = std::max(t, c.free_at());
  return t;
}

void FlashTiming::save(ByteWriter& out) const {
  out.u64(ctrl_free_);
  out.u64(link_in_free_);
  out.u64(link_out_free_);
  out.u32(static_cast<uint32_t>(die_free_.size()));
  for (uint64_t d : die_free_) out.u64(d);
  out.u32(static_cast<uint32_t>(chan_.size()));
  for (const auto& c : chan_) {
    out.u64(c.floor);
    out.u32(static_cast<uint32_t>(c.n));
    for (int i = 0; i < c.n; ++i) {
      out.u64(c.start[i]);
      out.u64(c.end[i]);
    }
  }
}

bool FlashTiming::load(ByteReader& in) {
  ctrl_free_ = in.u64();
  link_in_free_ = in.u64();
  link_out_free_ = in.u64();
  if (in.u32() != die_free_.size()) return false;
  for (uint64_t& d : die_free_) d = in.u64();
  if (in.u32() != chan_.size()) return false;
  for (auto& c : chan_) {
    c.floor = in.u64();
    const uint32_t n = in.u32();
    if (n > FlashChannel::kSlots) return false;
    c.n = static_cast<int>(n);
    for (int i = 0; i < c.n; ++i) {
      c.start[i] = in.u64();
      c.end[i] = in.u64();
    }
  }
  return !in.failed();
}

uint64_t WriteBuffer::admit(uint64_t t, uint32_t pages) {
  t = std::max(t, last_admit_);  // first in, first admitted: nobody overtakes a waiting write
  while (space_cursor_ < units_.size() && units_[space_cursor_].release_ns <= t) {
    used_ -= std::min<uint64_t>(used_, units_[space_cursor_].pages);
    ++space_cursor_;
  }
  while (used_ + pages > capacity_ && space_cursor_ < units_.size()) {
    t = std::max(t, units_[space_cursor_].release_ns);
    used_ -= std::min<uint64_t>(used_, units_[space_cursor_].pages);
    ++space_cursor_;
  }
  used_ += pages;
  last_admit_ = t;
  compact();
  return t;
}

uint64_t WriteBuffer::unit_programmed(uint64_t seq, uint64_t release_ns, uint32_t unit_pages) {
  last_release_ = std::max(last_release_, release_ns);
  units_.push_back({seq, last_release_, unit_pages});
  return last_release_;
}

uint64_t WriteBuffer::oldest_at(uint64_t t, uint64_t open_seq) {
  while (read_cursor_ < units_.size() && units_[read_cursor_].release_ns <= t) ++read_cursor_;
  const uint64_t seq = read_cursor_ < units_.size() ? units_[read_cursor_].seq : open_seq;
  compact();
  return seq;
}

void WriteBuffer::compact() {
  const size_t gone = std::min(space_cursor_, read_cursor_);
  if (gone < 4096) return;
  units_.erase(units_.begin(), units_.begin() + static_cast<ptrdiff_t>(gone));
  space_cursor_ -= gone;
  read_cursor_ -= gone;
}

void WriteBuffer::save(ByteWriter& out) const {
  out.u64(capacity_);
  out.u64(used_);
  out.u64(last_release_);
  out.u64(last_admit_);
  out.u64(space_cursor_);
  out.u64(read_cursor_);
  out.u64(units_.size());
  for (const auto& u : units_) {
    out.u64(u.seq);
    out.u64(u.release_ns);
    out.u32(u.pages);
  }
}

bool WriteBuffer::load(ByteReader& in) {
  if (in.u64() != capacity_) return false;
  used_ = in.u64();
  last_release_ = in.u64();
  last_admit_ = in.u64();
  space_cursor_ = in.u64();
  read_cursor_ = in.u64();
  const uint64_t n = in.u64();
  if (n > (uint64_t{1} << 32) || space_cursor_ > n || read_cursor_ > n) return false;
  units_.resize(n);
  for (auto& u : units_) {
    u.seq = in.u64();
    u.release_ns = in.u64();
    u.pages = in.u32();
  }
  return !in.failed();
}

}  // namespace pts::sim
