// sim/drive.cpp — see drive.h.
#include "sim/drive.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <thread>

#include "engine/rng.h"

namespace pts::sim {

namespace {

/// One splitmix64 output for `x` (engine/rng.h): the deterministic data of a sector.
uint64_t mix64(uint64_t x) { return engine::splitmix64(x); }

// The per-operation variation (program times, read retries, controller jitter) draws from a
// generator seeded by the profile's variation_seed, not by the drive's salt: a drive's identity
// is random at creation, and a seeded run on a fresh drive of a profile must repeat exactly (the
// golden captures and the kill-resume comparison rely on it). A purge restarts it, so the drive
// after a purge does not depend on the work before it.
uint64_t variation_seed(const SimParams& p) { return 0x9d5c7a4e31f0b286ull ^ p.variation_seed; }

}  // namespace

Drive::Drive(const SimParams& params, uint64_t salt)
    : params_(params),
      geo_(params),
      timing_(params, geo_, variation_seed(params)),
      buffer_(params.buffer_bytes / params.page_bytes),
      ftl_(geo_, params.gc, params.gc_free, params.idle_gc_free),
      salt_(salt),
      vwc_enabled_(!params.plp),
      namespaces_{NamespaceExtent{1, 0, params.capacity_bytes, true}} {
  ftl_.set_sink(this);
}

// --- flash work the FTL asks for ---------------------------------------------------------

void Drive::host_unit(uint32_t die, uint64_t seq) {
  const uint64_t ready = std::max(cur_t_, rmw_ready_);
  const uint64_t end = timing_.program(die, ready);
  buffer_.unit_programmed(seq, end, open_unit_pages_);
  open_unit_pages_ = 0;
  rmw_ready_ = 0;
}

// GC's reads, programs and erases each take their die's (and channel's) time, first come
// first served, but a GC program does not wait for the reads of the pages it holds: each
// resource here books work in advance, so a read waits behind every program already booked
// on its die, and a GC program on another die held for that read would leave its own die
// idle (with that rule steady-state 4 KiB random writes on dc-tlc-2t ran at 18.6 k IOPS, a
// fifth of what its dies can program at the emergent WA). A controller with many GC units
// in flight programs whichever has its data in; this stands for that scheduler.
void Drive::gc_unit(uint32_t die) { timing_.program(die, cur_t_); }

void Drive::gc_read(uint32_t die, uint32_t pages) {
  gc_ready_ = std::max(gc_ready_, timing_.background_read(die, cur_t_, uint64_t(pages) * geo_.page_bytes));
}

void Drive::erase(uint32_t) {
  // Each die erases its block once its own reads of the victim are done: they were booked on
  // that die before, first come first served, so the erase follows them there.
  for (uint32_t d = 0; d < geo_.dies; ++d) timing_.erase(d, cur_t_);
}

// --- host commands ----------------------------------------------------------------------

void Drive::begin_write_cell() {
  if (!map_thread_allowed_ || std::thread::hardware_concurrency() < 2 || !stored_.empty()) return;
  if (const char* env = std::getenv("PTSUITE_SIM_MAP_THREAD"); env && std::string_view(env) == "0") return;
  ftl_.begin_pipeline();
}

uint64_t Drive::submit_read(uint64_t t, uint64_t offset, uint32_t bytes) {
  if (sanitize_.status == 2 && sanitizing()) return kFailed;
  if (ftl_.pipelined()) [[unlikely]] ftl_.end_pipeline();  // a read needs the whole mapping
  ++counters_.host_read_commands;
  counters_.host_read_bytes += bytes;
  timing_.host_time(t);
  const uint64_t t1 = timing_.command(t, false);
  const uint64_t oldest = buffer_.oldest_at(t, ftl_.next_unit_seq());
  const uint64_t pb = geo_.page_bytes;
  const uint64_t end_off = offset + bytes;
  uint64_t ready = t1;
  uint64_t group = UINT64_MAX, group_bytes = 0;
  uint32_t group_die = 0;
  for (uint64_t lpn = offset >> geo_.page_shift; lpn * pb < end_off; ++lpn) {
    const uint32_t ppn = ftl_.lookup(lpn);
    if (ppn == Ftl::kUnmapped) continue;  // deallocated: zeroes, no flash access
    const uint64_t seq = ftl_.unit_seq_of(ppn);
    if (seq != Ftl::kNotBuffered && seq >= oldest) {  // still in the write buffer
      ++counters_.buffer_read_pages;
      continue;
    }
    const uint64_t lo = std::max(offset, lpn * pb), hi = std::min(end_off, (lpn + 1) * pb);
    const uint64_t g = geo_.group_of(ppn);
    if (g != group) {
      if (group_bytes) ready = std::max(ready, timing_.host_read(group_die, t1, group_bytes));
      group = g;
      group_die = geo_.die_of(ppn);
      group_bytes = 0;
    }
    group_bytes += hi - lo;
  }
  if (group_bytes) ready = std::max(ready, timing_.host_read(group_die, t1, group_bytes));
  return timing_.link_out(ready, bytes);
}

uint64_t Drive::submit_write(uint64_t t, uint64_t offset, uint32_t bytes) {
  if (sanitize_.status == 2 && sanitizing()) return kFailed;
  if (write_faulted()) return kFailed;
  ++counters_.host_write_commands;
  counters_.host_write_bytes += bytes;
  sanitize_.global_erased = false;
  buffer_.oldest_at(t, ftl_.next_unit_seq());  // lets the buffer forget units gone by t
  timing_.host_time(t);
  const uint64_t t1 = timing_.command(t, true);
  uint64_t admitted = timing_.link_in(t1, bytes);
  const uint64_t pb = geo_.page_bytes;
  const uint64_t end_off = offset + bytes;
  uint64_t lpn = offset >> geo_.page_shift;
  const uint64_t last = (end_off - 1) >> geo_.page_shift;
  while (lpn <= last) {
    // Admit up to the end of the open program unit, so a write larger than the buffer
    // streams through it unit by unit.
    const uint64_t piece = std::min<uint64_t>(last - lpn + 1, geo_.unit_pages - open_unit_pages_);
    admitted = buffer_.admit(admitted, static_cast<uint32_t>(piece));
    cur_t_ = admitted;
    for (uint64_t k = 0; k < piece; ++k, ++lpn) {
      const uint64_t lo = std::max(offset, lpn * pb), hi = std::min(end_off, (lpn + 1) * pb);
      if (hi - lo < pb) {  // sub-page write: merge with the old page's other sectors
        if (ftl_.pipelined()) ftl_.end_pipeline();
        const uint32_t old = ftl_.lookup(lpn);
        if (old != Ftl::kUnmapped) {
          const uint64_t seq = ftl_.unit_seq_of(old);
          if (seq == Ftl::kNotBuffered || seq < buffer_.oldest_at(t, ftl_.next_unit_seq())) {
            ++counters_.rmw_reads;
            // Issued when the write is admitted (often ahead of host time): queued behind the
            // die's work like GC's reads, not a host read.
            rmw_ready_ = std::max(rmw_ready_, timing_.background_read(geo_.die_of(old), cur_t_, pb));
          }
        }
      }
      ++open_unit_pages_;
      if (!stored_.empty() && ftl_.pipelined()) [[unlikely]] ftl_.end_pipeline();
      const bool had_stored = !stored_.empty() && ftl_.has_stored(lpn);
      ftl_.write(lpn);
      if (had_stored) [[unlikely]] drop_stored(lpn, lo, hi - lo);
    }
  }
  if (write_back()) return admitted;
  // Write-through (volatile cache disabled): the data must be on flash before completion.
  cur_t_ = admitted;
  ftl_.pad_host_unit();
  return std::max(admitted, buffer_.last_release());
}

uint64_t Drive::submit_trim(uint64_t t, uint64_t offset, uint64_t bytes) {
  if (sanitize_.status == 2 && sanitizing()) return kFailed;
  if (ftl_.pipelined()) [[unlikely]] ftl_.end_pipeline();  // a trim needs the whole mapping
  const uint64_t t1 = timing_.command(t, true);
  const uint64_t pb = geo_.page_bytes, lbs = geo_.lba_bytes;
  const uint64_t end_off = offset + bytes;
  for (uint64_t lpn = (offset + pb - 1) / pb; (lpn + 1) * pb <= end_off; ++lpn) ftl_.trim(lpn);
  if (!stored_.empty()) {
    const uint64_t first = (offset + pb - 1) / pb * pb / lbs, last = end_off / pb * pb / lbs;
    if (first < last) stored_.erase(stored_.lower_bound(first), stored_.lower_bound(last));
  }
  return t1;
}

void Drive::drop_stored(uint64_t lpn, uint64_t offset, uint64_t bytes) {
  const uint64_t lbs = geo_.lba_bytes;
  for (uint64_t s = offset / lbs; s < (offset + bytes) / lbs; ++s) stored_.erase(s);
  const uint64_t first = lpn * geo_.page_bytes / lbs, end = first + geo_.page_bytes / lbs;
  auto it = stored_.lower_bound(first);
  if (it != stored_.end() && it->first < end) ftl_.mark_stored(lpn);  // other sectors remain
}

// Idle GC books its steps from the start of the idle period, as foreground GC books its work
// from the host write that owes it: every die and channel serves its share first come, first
// served, so the drive cleans at its parallelism. (Each step used to wait for the last step's
// reads: idle GC then ran at one die's read rate, several times slower than a busy drive's.)
// It stops once the booked work reaches the end of the idle period.
void Drive::idle(uint64_t ns) {
  const uint64_t end = now_ + ns;
  if (!sanitizing()) {
    timing_.host_time(now_);
    cur_t_ = now_;
    while (timing_.all_idle() < end && ftl_.idle_gc_step()) {
    }
  }
  now_ = end;
}

// --- block access -----------------------------------------------------------------------

void Drive::fill_generated(uint64_t sector, uint8_t* out) const {
  for (uint32_t i = 0; i < geo_.lba_bytes; i += 8) {
    const uint64_t w = mix64(salt_ ^ (sector * 0x10001ull + i));
    std::memcpy(out + i, &w, 8);
  }
}

std::string Drive::failure_reason(bool is_read) {
  if (sanitize_.status == 2 && sanitizing()) return "Sanitize In Progress";
  if (!is_read && write_faulted())
    return "Write Fault (fault injection: the drive's host writes reached fail_after_writes=" +
           std::to_string(params_.fail_after_write_bytes) + " B)";
  return "command failed";
}

bool Drive::write_blocks(uint64_t offset, std::span<const uint8_t> data) {
  const uint64_t done = submit_write(now_, offset, static_cast<uint32_t>(data.size()));
  if (done == kFailed) return false;
  now_ = std::max(now_, done);
  const uint64_t lbs = geo_.lba_bytes;
  for (uint64_t at = 0; at < data.size(); at += lbs) {
    const uint64_t sector = (offset + at) / lbs;
    stored_[sector].assign(data.begin() + static_cast<ptrdiff_t>(at), data.begin() + static_cast<ptrdiff_t>(at + lbs));
    ftl_.mark_stored((offset + at) / geo_.page_bytes);
  }
  return true;
}

bool Drive::read_blocks(uint64_t offset, std::span<uint8_t> out) {
  if (sanitizing()) return false;
  const uint64_t lbs = geo_.lba_bytes;
  for (uint64_t at = 0; at < out.size(); at += lbs) {
    const uint64_t sector = (offset + at) / lbs;
    uint8_t* dst = out.data() + at;
    if (ftl_.lookup((offset + at) / geo_.page_bytes) == Ftl::kUnmapped) {
      std::memset(dst, 0, lbs);
    } else if (auto it = stored_.find(sector); it != stored_.end()) {
      std::memcpy(dst, it->second.data(), lbs);
    } else {
      fill_generated(sector, dst);
    }
  }
  return true;
}

// --- admin --------------------------------------------------------------------------------

void Drive::format(uint8_t ses) {
  cur_t_ = std::max(now_, timing_.all_idle());
  const uint64_t begin = cur_t_;
  ftl_.reset(/*erase_now=*/ses == 1);
  timing_.reseed(variation_seed(params_));
  stored_.clear();
  open_unit_pages_ = 0;
  uint64_t end = std::max(begin, timing_.all_idle());
  if (ses == 2) end = begin + uint64_t(params_.crypto_erase_ms) * 1000000ull;
  end += 10'000'000;  // 10 ms of controller work for the namespace metadata
  buffer_ = WriteBuffer(params_.buffer_bytes / params_.page_bytes);
  now_ = end;
  sanitize_.global_erased = ses != 0;
}

void Drive::start_sanitize(uint8_t sanact, uint32_t cdw10) {
  cur_t_ = std::max(now_, timing_.all_idle());
  sanitize_.status = 2;
  sanitize_.cdw10 = cdw10;
  sanitize_.start_ns = now_;
  ftl_.reset(/*erase_now=*/sanact == 2);
  timing_.reseed(variation_seed(params_));
  stored_.clear();
  open_unit_pages_ = 0;
  buffer_ = WriteBuffer(params_.buffer_bytes / params_.page_bytes);
  uint64_t end = std::max(cur_t_, timing_.all_idle());
  if (sanact == 4) end = cur_t_ + uint64_t(params_.crypto_erase_ms) * 1000000ull;
  sanitize_.end_ns = end + 500'000'000;  // firmware bookkeeping before and after the erase
}

uint32_t Drive::sanitize_estimate_s(uint8_t sanact) const {
  if (sanact == 4) return params_.crypto_erase_ms / 1000 + 1;
  const double s = double(geo_.superblocks) * params_.erase_ns / 1e9 + 0.5;
  return static_cast<uint32_t>(s) + 1;
}

const SanitizeState& Drive::sanitize_state() {
  if (sanitize_.status == 2 && now_ >= sanitize_.end_ns) {
    sanitize_.status = 1;
    sanitize_.global_erased = true;
  }
  return sanitize_;
}

const DriveCounters& Drive::counters() {
  counters_.ftl = ftl_.counters();
  return counters_;
}

// --- persistence --------------------------------------------------------------------------

void Drive::save(ByteWriter& out) const {
  out.u64(now_);
  out.u64(cur_t_);
  out.u64(gc_ready_);
  out.u64(rmw_ready_);
  out.u32(open_unit_pages_);
  out.u8(vwc_enabled_ ? 1 : 0);
  out.u8(sanitize_.status);
  out.u32(sanitize_.cdw10);
  out.u64(sanitize_.start_ns);
  out.u64(sanitize_.end_ns);
  out.u8(sanitize_.global_erased ? 1 : 0);
  for (uint64_t c : {counters_.host_read_bytes, counters_.host_write_bytes, counters_.host_read_commands,
                     counters_.host_write_commands, counters_.buffer_read_pages, counters_.rmw_reads})
    out.u64(c);
  out.u64(stored_.size());
  for (const auto& [sector, bytes] : stored_) {
    out.u64(sector);
    out.raw(bytes.data(), bytes.size());
  }
  timing_.save(out);
  buffer_.save(out);
  ftl_.save(out);
  // The namespace table follows only when it is not the new drive's one namespace over the
  // whole capacity, so such a drive saves byte for byte as before namespaces existed.
  const bool one_whole = namespaces_.size() == 1 && namespaces_[0].nsid == 1 && namespaces_[0].offset_bytes == 0 &&
                         namespaces_[0].size_bytes == params_.capacity_bytes && namespaces_[0].attached;
  if (!one_whole) {
    out.u32(static_cast<uint32_t>(namespaces_.size()));
    for (const auto& n : namespaces_) {
      out.u32(n.nsid);
      out.u64(n.offset_bytes);
      out.u64(n.size_bytes);
      out.u8(n.attached ? 1 : 0);
    }
  }
}

bool Drive::load(ByteReader& in) {
  now_ = in.u64();
  cur_t_ = in.u64();
  gc_ready_ = in.u64();
  rmw_ready_ = in.u64();
  open_unit_pages_ = in.u32();
  vwc_enabled_ = in.u8() != 0;
  sanitize_.status = in.u8();
  sanitize_.cdw10 = in.u32();
  sanitize_.start_ns = in.u64();
  sanitize_.end_ns = in.u64();
  sanitize_.global_erased = in.u8() != 0;
  for (uint64_t* c : {&counters_.host_read_bytes, &counters_.host_write_bytes, &counters_.host_read_commands,
                      &counters_.host_write_commands, &counters_.buffer_read_pages, &counters_.rmw_reads})
    *c = in.u64();
  const uint64_t n = in.u64();
  if (n > geo_.user_pages * (geo_.page_bytes / geo_.lba_bytes)) return false;
  stored_.clear();
  for (uint64_t i = 0; i < n && !in.failed(); ++i) {
    const uint64_t sector = in.u64();
    std::vector<uint8_t> bytes(geo_.lba_bytes);
    in.raw(bytes.data(), bytes.size());
    stored_.emplace(sector, std::move(bytes));
  }
  if (in.failed() || !timing_.load(in) || !buffer_.load(in) || !ftl_.load(in)) return false;
  namespaces_ = {NamespaceExtent{1, 0, params_.capacity_bytes, true}};
  if (!in.done()) {  // a namespace table (see save)
    const uint32_t count = in.u32();
    if (count > kMaxNamespaces) return false;
    namespaces_.clear();
    for (uint32_t i = 0; i < count && !in.failed(); ++i) {
      NamespaceExtent n;
      n.nsid = in.u32();
      n.offset_bytes = in.u64();
      n.size_bytes = in.u64();
      n.attached = in.u8() != 0;
      if (n.nsid == 0 || n.nsid > kMaxNamespaces || n.offset_bytes + n.size_bytes > params_.capacity_bytes) return false;
      namespaces_.push_back(n);
    }
    if (in.failed()) return false;
  }
  return open_unit_pages_ <= geo_.unit_pages;
}

const NamespaceExtent* Drive::find_namespace(uint32_t nsid) const {
  for (const auto& n : namespaces_)
    if (n.nsid == nsid) return &n;
  return nullptr;
}

uint64_t Drive::unallocated_bytes() const {
  uint64_t used = 0;
  for (const auto& n : namespaces_) used += n.size_bytes;
  return params_.capacity_bytes - std::min(used, params_.capacity_bytes);
}

uint64_t Drive::ns_mapped_pages(const NamespaceExtent& ns) const {
  if (ns.offset_bytes == 0 && ns.size_bytes == params_.capacity_bytes) return ftl_.mapped_pages();
  uint64_t n = 0;
  const uint64_t pb = geo_.page_bytes;
  for (uint64_t lpn = ns.offset_bytes / pb; lpn < (ns.offset_bytes + ns.size_bytes) / pb; ++lpn)
    n += ftl_.lookup(lpn) != Ftl::kUnmapped;
  return n;
}

void Drive::unmap_range(uint64_t offset, uint64_t bytes) {
  if (ftl_.pipelined()) ftl_.end_pipeline();
  const uint64_t pb = geo_.page_bytes, lbs = geo_.lba_bytes, end_off = offset + bytes;
  for (uint64_t lpn = (offset + pb - 1) / pb; (lpn + 1) * pb <= end_off; ++lpn) ftl_.trim(lpn);
  if (!stored_.empty()) stored_.erase(stored_.lower_bound(offset / lbs), stored_.lower_bound(end_off / lbs));
}

bool Drive::delete_namespace(uint32_t nsid) {
  bool found = false;
  for (auto it = namespaces_.begin(); it != namespaces_.end();) {
    if (nsid == 0xFFFFFFFFu || it->nsid == nsid) {
      unmap_range(it->offset_bytes, it->size_bytes);
      it = namespaces_.erase(it);
      found = true;
    } else {
      ++it;
    }
  }
  return found;
}

uint32_t Drive::create_namespace(uint64_t size_bytes) {
  const uint64_t size = (size_bytes + kNamespaceGranule - 1) / kNamespaceGranule * kNamespaceGranule;
  if (size == 0 || namespaces_.size() >= kMaxNamespaces) return 0;
  std::vector<NamespaceExtent> by_offset = namespaces_;
  std::sort(by_offset.begin(), by_offset.end(),
            [](const NamespaceExtent& a, const NamespaceExtent& b) { return a.offset_bytes < b.offset_bytes; });
  uint64_t at = 0;
  bool fits = false;
  for (const auto& n : by_offset) {
    if (n.offset_bytes >= at + size) {
      fits = true;
      break;
    }
    at = std::max(at, (n.offset_bytes + n.size_bytes + kNamespaceGranule - 1) / kNamespaceGranule * kNamespaceGranule);
  }
  if (!fits && at + size > params_.capacity_bytes) return 0;
  uint32_t nsid = 1;
  while (find_namespace(nsid)) ++nsid;
  namespaces_.push_back({nsid, at, size, false});
  std::sort(namespaces_.begin(), namespaces_.end(),
            [](const NamespaceExtent& a, const NamespaceExtent& b) { return a.nsid < b.nsid; });
  return nsid;
}

bool Drive::attach_namespace(uint32_t nsid, bool attach) {
  for (auto& n : namespaces_)
    if (n.nsid == nsid) {
      n.attached = attach;
      return true;
    }
  return false;
}

}  // namespace pts::sim
