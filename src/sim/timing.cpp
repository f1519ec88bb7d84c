// sim/timing.cpp — see timing.h.
#include "sim/timing.h"

#include <algorithm>
#include <cmath>

#include "sim/exponential.h"

namespace pts::sim {

void FlashChannel::make_room() {
  if (n == kSlots) {  // forget the oldest interval: its time and all before it are busy
    floor = end[h];
    ++h;
    --n;
  }
  if (h + n == 2 * kSlots) {
    std::copy(start + h, start + h + n, start);
    std::copy(end + h, end + h + n, end);
    h = 0;
  }
}

uint64_t FlashChannel::book(uint64_t t, uint64_t ns) {
  make_room();
  uint64_t* const S = start + h;
  uint64_t* const E = end + h;
  int i = 0;
  auto fit = [&](uint64_t s) {
    // An interval that ends by s neither holds the transfer back nor bounds its gap: start at
    // the first that ends after s (the ends are sorted, the intervals being disjoint).
    i = static_cast<int>(std::upper_bound(E, E + n, s) - E);
    for (; i < n; ++i) {
      if (s + ns <= S[i]) break;
      if (E[i] > s) s = E[i];
    }
    return s;
  };
  uint64_t s = fit(t > floor ? t : floor);
  if (debt) {  // a priority transfer took this channel's time: this booking waits for it
    s = fit(s + debt);
    debt = 0;
  }
  for (int j = n; j > i; --j) S[j] = S[j - 1], E[j] = E[j - 1];
  S[i] = s;
  E[i] = s + ns;
  ++n;
  return s + ns;
}

uint64_t FlashChannel::book_priority(uint64_t t, uint64_t ns) {
  make_room();
  if (prio_n == kPrioSlots) {  // forget the oldest priority interval, as book() does
    prio_floor = prio_end[0];
    for (int i = 1; i < prio_n; ++i) prio_start[i - 1] = prio_start[i], prio_end[i - 1] = prio_end[i];
    --prio_n;
  }
  uint64_t s = t > prio_floor ? t : prio_floor;
  int p = 0;
  for (; p < prio_n; ++p) {
    if (s + ns <= prio_start[p]) break;
    if (prio_end[p] > s) s = prio_end[p];
  }
  for (int j = prio_n; j > p; --j) prio_start[j] = prio_start[j - 1], prio_end[j] = prio_end[j - 1];
  prio_start[p] = s;
  prio_end[p] = s + ns;
  ++prio_n;
  // The first booked interval that ends after s: it conflicts unless it starts after the transfer.
  uint64_t* const S = start + h;
  uint64_t* const E = end + h;
  const int i = static_cast<int>(std::upper_bound(E, E + n, s) - E);
  if (s < floor || (i < n && S[i] < s + ns)) {
    debt += ns;  // it goes between two booked page transfers; the next booking pays
  } else {
    for (int j = n; j > i; --j) S[j] = S[j - 1], E[j] = E[j - 1];
    S[i] = s;
    E[i] = s + ns;
    ++n;
  }
  return s + ns;
}

FlashTiming::FlashTiming(const SimParams& p, const Geometry& g, uint64_t seed)
    : channels_(p.channels),
      priority_(p.read_priority),
      cmd_read_ns_(p.cmd_read_ns),
      cmd_write_ns_(p.cmd_write_ns),
      occupancy_ns_(p.cmd_occupancy_ns),
      ftl_page_ns_(p.ftl_page_ns),
      read_ns_(p.read_ns),
      erase_ns_(p.erase_ns),
      suspend_ns_(p.suspend_ns),
      erase_suspend_ns_(p.erase_suspend_ns),
      resume_ns_(p.resume_ns),
      max_suspends_(p.max_suspends),
      unit_pages_(g.unit_pages),
      bits_(p.bits_per_cell),
      prog_var_(p.prog_var),
      read_retry_(p.read_retry),
      jitter_mean_ns_(p.ctrl_jitter_ns),
      link_ps_per_byte_(static_cast<uint64_t>(std::llround(1e6 / p.pcie_mbps))),
      chan_ps_per_byte_(static_cast<uint64_t>(std::llround(1e6 / p.channel_mbps))),
      unit_xfer_ns_(uint64_t(g.unit_pages) * g.page_bytes * chan_ps_per_byte_ / 1000),
      page_bytes_(g.page_bytes),
      rng_(seed ^ 0x5eed71a1b0c4ull),
      dies_(p.dies),
      chan_(p.channels) {
  // Page type k of a wordline places 2^k more threshold-voltage states than the types before
  // it (lower: 2, middle: 4, upper: 8 for TLC), so it takes a 2^k share of tPROG.
  const uint64_t parts = (uint64_t{1} << bits_) - 1;
  uint64_t sum = 0;
  for (uint32_t k = 0; k + 1 < bits_; ++k) sum += page_prog_ns_[k] = uint64_t(p.prog_ns) * (uint64_t{1} << k) / parts;
  page_prog_ns_[bits_ - 1] = p.prog_ns - sum;
}

namespace {

/// std::llround of a nonnegative x below 2^52, inline (x less its integer part is exact there).
uint64_t round_ns(double x) {
  if (!(x >= 0 && x < 0x1p52)) return static_cast<uint64_t>(std::llround(x));
  const uint64_t r = static_cast<uint64_t>(x);
  return r + (x - double(r) >= 0.5);
}

}  // namespace

uint64_t FlashTiming::jitter() {
  if (jitter_mean_ns_ <= 0) return 0;
  return round_ns(jitter_mean_ns_ * kExponential.draw([this] { return next_random(); }));
}

uint64_t FlashTiming::sense_ns() {
  uint64_t ns = read_ns_;
  if (read_retry_ > 0)
    for (int k = 0; k < 16 && uniform() < read_retry_; ++k) {  // each retry fails again with the same odds
      ns += read_ns_;
      ++counters_.read_retries;
    }
  return ns;
}

void FlashTiming::drop_finished(DieState& d) {
  while (d.head < d.ops.size() && d.ops[d.head].end + d.shift <= host_now_) ++d.head, ++d.popped;
  if (d.head == d.ops.size()) {
    d.ops.clear();
    d.head = 0;
  } else if (d.head >= 256 && 2 * d.head >= d.ops.size()) {
    d.ops.erase(d.ops.begin(), d.ops.begin() + static_cast<ptrdiff_t>(d.head));
    d.head = 0;
  }
}

uint64_t FlashTiming::book(DieState& d, uint64_t t, uint64_t ns, DieWork kind) {
  drop_finished(d);
  const uint64_t busy = d.busy_until();
  const uint64_t s = t > busy ? t : busy;
  d.ops.push_back({s - d.shift, s + ns - d.shift, kind, 0});
  return s + ns;
}

uint64_t FlashTiming::queued_read(uint32_t die, uint64_t t, uint64_t bytes, DieWork kind) {
  DieState& d = dies_[die];
  drop_finished(d);
  const uint64_t busy = d.busy_until();
  const uint64_t s = t > busy ? t : busy;
  const uint64_t end = chan_[die % channels_].book(s + sense_ns(), bytes * chan_ps_per_byte_ / 1000);
  d.ops.push_back({s - d.shift, end - d.shift, kind, 0});
  return end;
}

uint64_t FlashTiming::background_read(uint32_t die, uint64_t t, uint64_t bytes) {
  return queued_read(die, t, bytes, DieWork::GcRead);
}

uint64_t FlashTiming::host_read(uint32_t die, uint64_t t, uint64_t bytes) {
  if (!priority_) return queued_read(die, t, bytes, DieWork::HostRead);  // first come, first served
  DieState& d = dies_[die];
  drop_finished(d);
  uint64_t rs = t > d.read_free ? t : d.read_free;  // host reads on a die are served in order
  // The booked op in progress at rs, or the next one to start. Ops that ended before rs matter
  // to no later host read of this die (they start after this one): they are dropped.
  while (d.head < d.ops.size() && d.ops[d.head].end + d.shift <= rs) ++d.head, ++d.popped;
  const bool any = d.head < d.ops.size();
  enum { kNone, kAhead, kSuspended, kContinued, kWaited } how = kNone;
  uint64_t penalty = 0;
  if (any) {
    DieOp& f = d.ops[d.head];
    const uint64_t fs = f.start + d.shift, fe = f.end + d.shift;
    if (fs > rs) {
      how = kAhead;  // queued, not started: the read goes first
    } else if (d.susp_op == d.popped && rs <= d.susp_until) {
      how = kContinued;  // right behind the reads of the suspension in force: no new suspend
    } else {
      const bool can = f.kind == DieWork::Program || f.kind == DieWork::Erase;
      const uint64_t lat = f.kind == DieWork::Erase ? erase_suspend_ns_ : suspend_ns_;
      if (can && f.suspends < max_suspends_ && fe - rs > lat) {
        how = kSuspended;
        rs += lat;
        penalty = lat + resume_ns_;
        ++f.suspends;
        ++counters_.suspends;
        d.susp_op = d.popped;
      } else {
        how = kWaited;  // a read, a very short remainder, or its suspends used up
        rs = fe;
        ++counters_.waited_reads;
      }
    }
  }
  const uint64_t end = chan_[die % channels_].book_priority(rs + sense_ns(), bytes * chan_ps_per_byte_ / 1000);
  d.read_free = end;
  switch (how) {
    case kNone:
      break;
    case kAhead: {
      const uint64_t fs = d.ops[d.head].start + d.shift;
      if (end > fs) d.shift += end - fs;
      break;
    }
    case kSuspended:
    case kContinued:
      d.shift += end - rs + penalty;  // the suspended op and everything after it move
      d.susp_until = end;
      break;
    case kWaited:
      if (d.head + 1 < d.ops.size()) {  // the op keeps its time; the ones after it move
        const uint64_t ns = d.ops[d.head + 1].start + d.shift;
        if (end > ns) {
          const uint64_t delta = end - ns;
          d.ops[d.head].start -= delta;
          d.ops[d.head].end -= delta;
          d.shift += delta;
        }
      }
      break;
  }
  return end;
}

uint64_t FlashTiming::program(uint32_t die, uint64_t t) {
  uint64_t ready = t;
  if (ftl_page_ns_) {  // the controller's per-page work (mapping, ECC and parity encode, commands)
    const uint64_t s = t > ftl_free_ ? t : ftl_free_;
    ftl_free_ = s + uint64_t(unit_pages_) * ftl_page_ns_;
    ready = ftl_free_;
  }
  const uint64_t loaded = chan_[die % channels_].book(ready, unit_xfer_ns_);
  DieState& d = dies_[die];
  drop_finished(d);
  const uint64_t busy = d.busy_until();
  uint64_t s = loaded > busy ? loaded : busy;
  for (uint32_t k = 0; k < bits_; ++k) {
    uint64_t ns = page_prog_ns_[k];
    if (prog_var_ > 0) ns = round_ns(double(ns) * (1.0 + prog_var_ * (2.0 * uniform() - 1.0)));
    d.ops.push_back({s - d.shift, s + ns - d.shift, DieWork::Program, 0});
    s += ns;
  }
  return s;
}

uint64_t FlashTiming::erase(uint32_t die, uint64_t t) { return book(dies_[die], t, erase_ns_, DieWork::Erase); }

uint64_t FlashTiming::all_idle() const {
  uint64_t t = std::max({ctrl_free_, link_in_free_, link_out_free_, ftl_free_});
  for (const auto& d : dies_) t = std::max(t, d.busy_until());
  for (const auto& c : chan_) t = std::max({t, c.free_at() + c.debt, c.prio_n ? c.prio_end[c.prio_n - 1] : c.prio_floor});
  return t;
}

void FlashTiming::save(ByteWriter& out) const {
  out.u64(ctrl_free_);
  out.u64(link_in_free_);
  out.u64(link_out_free_);
  out.u64(ftl_free_);
  out.u64(host_now_);
  out.u64(rng_);
  for (uint64_t c : {counters_.suspends, counters_.read_retries, counters_.waited_reads}) out.u64(c);
  out.u32(static_cast<uint32_t>(dies_.size()));
  for (const DieState& d : dies_) {
    out.u64(d.popped);
    out.u64(d.shift);
    out.u64(d.read_free);
    out.u64(d.susp_op);
    out.u64(d.susp_until);
    out.u64(d.ops.size() - d.head);
    for (size_t i = d.head; i < d.ops.size(); ++i) {
      out.u64(d.ops[i].start);
      out.u64(d.ops[i].end);
      out.u8(static_cast<uint8_t>(d.ops[i].kind));
      out.u8(d.ops[i].suspends);
    }
  }
  out.u32(static_cast<uint32_t>(chan_.size()));
  for (const auto& c : chan_) {
    out.u64(c.floor);
    out.u64(c.debt);
    out.u64(c.prio_floor);
    out.u32(static_cast<uint32_t>(c.prio_n));
    for (int i = 0; i < c.prio_n; ++i) {
      out.u64(c.prio_start[i]);
      out.u64(c.prio_end[i]);
    }
    out.u32(static_cast<uint32_t>(c.n));
    for (int i = 0; i < c.n; ++i) {
      out.u64(c.start[c.h + i]);
      out.u64(c.end[c.h + i]);
    }
  }
}

bool FlashTiming::load(ByteReader& in) {
  ctrl_free_ = in.u64();
  link_in_free_ = in.u64();
  link_out_free_ = in.u64();
  ftl_free_ = in.u64();
  host_now_ = in.u64();
  rng_ = in.u64();
  for (uint64_t* c : {&counters_.suspends, &counters_.read_retries, &counters_.waited_reads}) *c = in.u64();
  if (in.u32() != dies_.size()) return false;
  for (DieState& d : dies_) {
    d.popped = in.u64();
    d.shift = in.u64();
    d.read_free = in.u64();
    d.susp_op = in.u64();
    d.susp_until = in.u64();
    const uint64_t n = in.u64();
    if (n > (uint64_t{1} << 24) || in.failed()) return false;
    d.ops.resize(n);
    d.head = 0;
    for (DieOp& op : d.ops) {
      op.start = in.u64();
      op.end = in.u64();
      const uint8_t kind = in.u8();
      if (kind > 3) return false;
      op.kind = static_cast<DieWork>(kind);
      op.suspends = in.u8();
    }
  }
  if (in.u32() != chan_.size()) return false;
  for (auto& c : chan_) {
    c.floor = in.u64();
    c.debt = in.u64();
    c.prio_floor = in.u64();
    const uint32_t pn = in.u32();
    if (pn > FlashChannel::kPrioSlots) return false;
    c.prio_n = static_cast<int>(pn);
    for (int i = 0; i < c.prio_n; ++i) {
      c.prio_start[i] = in.u64();
      c.prio_end[i] = in.u64();
    }
    const uint32_t n = in.u32();
    if (n > FlashChannel::kSlots) return false;
    c.h = 0;
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
