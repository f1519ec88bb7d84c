// sim/timing.h — the drive's time model as resources that serve requests first-come
// first-served in virtual nanoseconds: the controller (a fixed latency plus a busy time per
// command), the host link (each direction), the flash channels and the dies. A request's
// start is max(its ready time, the resource's free time), so reads queue behind programs and
// erases on their die, GC competes with host data, and queueing for TC x QD emerges. Each
// operation is O(1): no event list. May use: sim params and geometry, bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/bytes.h"
#include "sim/geometry.h"
#include "sim/params.h"

namespace pts::sim {

/// A flash channel: busy intervals, so a transfer whose data is ready early can use a gap left
/// before a transfer booked earlier but ready later (a die still sensing): without gaps, one
/// die's long wait would hold every other die's data on the channel behind it. The last
/// kSlots intervals are kept (sorted, disjoint); everything before them counts as busy.
/// Under sustained writes the dies' queues run far ahead of the host (a full write buffer
/// and GC booked behind it), so a channel's bookings span its dies' queues: with 8 intervals
/// the forgotten time swallowed the gaps that program transfers needed, and the dies waited
/// for their data (a fifth of their time idle at 4 KiB random-write steady state on
/// dc-tlc-2t); 64 keep them (a booking costs one insertion into the sorted slots).
struct FlashChannel {
  static constexpr int kSlots = 64;
  uint64_t floor = 0;
  uint64_t start[kSlots] = {}, end[kSlots] = {};
  int n = 0;
  uint64_t free_at() const { return n ? end[n - 1] : floor; }
  /// Books `ns` of transfer ready at `t` in the first gap that holds it; returns its end.
  uint64_t book(uint64_t t, uint64_t ns) {
    if (n == kSlots) {  // forget the oldest interval: its time and all before it are busy
      floor = end[0];
      for (int i = 1; i < n; ++i) start[i - 1] = start[i], end[i - 1] = end[i];
      --n;
    }
    uint64_t s = t > floor ? t : floor;
    int i = 0;
    for (; i < n; ++i) {
      if (s + ns <= start[i]) break;
      if (end[i] > s) s = end[i];
    }
    for (int j = n; j > i; --j) start[j] = start[j - 1], end[j] = end[j - 1];
    start[i] = s;
    end[i] = s + ns;
    ++n;
    return s + ns;
  }
};

class FlashTiming {
 public:
  FlashTiming(const SimParams& p, const Geometry& g);

  /// A command arriving at `t` passes the controller: returns when its data phase may start.
  uint64_t command(uint64_t t, bool write) {
    const uint64_t start = t > ctrl_free_ ? t : ctrl_free_;
    ctrl_free_ = start + occupancy_ns_;
    return start + (write ? cmd_write_ns_ : cmd_read_ns_);
  }
  /// Host-to-drive transfer of `bytes` ready at `t`; returns its end.
  uint64_t link_in(uint64_t t, uint64_t bytes) { return transfer(link_in_free_, t, bytes * link_ps_per_byte_ / 1000); }
  /// Drive-to-host transfer.
  uint64_t link_out(uint64_t t, uint64_t bytes) { return transfer(link_out_free_, t, bytes * link_ps_per_byte_ / 1000); }

  /// One (multi-plane) page read on `die` issued at `t`, then `bytes` over its channel;
  /// returns when the data is in the controller. The die is held until the transfer ends.
  uint64_t read(uint32_t die, uint64_t t, uint64_t bytes) {
    uint64_t& d = die_free_[die];
    const uint64_t sensed = (t > d ? t : d) + read_ns_;
    const uint64_t end = chan_[die % channels_].book(sensed, bytes * chan_ps_per_byte_ / 1000);
    d = end;
    return end;
  }
  /// One program unit on `die` whose data is ready at `t`: transfer into the die's cache
  /// register over the channel, then tPROG once the die is free. Returns the program's end.
  uint64_t program(uint32_t die, uint64_t t) {
    const uint64_t loaded = chan_[die % channels_].book(t, unit_xfer_ns_);
    uint64_t& d = die_free_[die];
    const uint64_t end = (loaded > d ? loaded : d) + prog_ns_;
    d = end;
    return end;
  }
  /// A block erase on every plane of `die` at `t`.
  uint64_t erase(uint32_t die, uint64_t t) {
    uint64_t& d = die_free_[die];
    d = (t > d ? t : d) + erase_ns_;
    return d;
  }

  uint64_t die_free(uint32_t die) const { return die_free_[die]; }
  /// When every die and channel has finished what it was given.
  uint64_t all_idle() const;
  uint64_t page_read_bytes() const { return page_bytes_; }

  void save(ByteWriter& out) const;
  bool load(ByteReader& in);

 private:
  static uint64_t transfer(uint64_t& free, uint64_t t, uint64_t ns) {
    const uint64_t start = t > free ? t : free;
    free = start + ns;
    return free;
  }

  uint32_t channels_;
  uint64_t cmd_read_ns_, cmd_write_ns_, occupancy_ns_;
  uint64_t read_ns_, prog_ns_, erase_ns_;
  uint64_t link_ps_per_byte_, chan_ps_per_byte_;
  uint64_t unit_xfer_ns_;
  uint64_t page_bytes_;
  uint64_t ctrl_free_ = 0, link_in_free_ = 0, link_out_free_ = 0;
  std::vector<uint64_t> die_free_;
  std::vector<FlashChannel> chan_;
};

/// The write buffer: host pages wait here until their program unit is programmed. Units
/// leave in the order they were filled (a unit's space is released at max(its program end,
/// the previous unit's release)), so a full buffer admits the next write when the oldest
/// unit is done.
class WriteBuffer {
 public:
  explicit WriteBuffer(uint64_t capacity_pages = 0) : capacity_(capacity_pages) {}

  /// Pages of a host write whose data arrived at `t` enter the buffer: returns when there
  /// is room (>= t). Admission times never decrease (callers submit in time order).
  uint64_t admit(uint64_t t, uint32_t pages);
  /// The open unit `seq` (unit_pages pages) was handed to the flash; its pages leave at
  /// max(release_ns, the previous unit's release). Returns that release time.
  uint64_t unit_programmed(uint64_t seq, uint64_t release_ns, uint32_t unit_pages);
  /// Oldest unit still in the buffer at `t` (reads at or above it are served from DRAM);
  /// `open_seq` when every programmed unit has left.
  uint64_t oldest_at(uint64_t t, uint64_t open_seq);
  uint64_t used_pages() const { return used_; }
  /// When the last unit handed to the flash leaves.
  uint64_t last_release() const { return last_release_; }

  void save(ByteWriter& out) const;
  bool load(ByteReader& in);

 private:
  struct Unit {
    uint64_t seq, release_ns;
    uint32_t pages;
  };
  uint64_t capacity_;
  uint64_t used_ = 0;            ///< pages admitted and not released (as of the admission cursor)
  uint64_t last_release_ = 0;
  uint64_t last_admit_ = 0;
  std::vector<Unit> units_;      ///< programmed, not yet passed by both cursors
  size_t space_cursor_ = 0;      ///< units whose space admit() already took back
  size_t read_cursor_ = 0;       ///< units oldest_at() already saw leave
  void compact();
};

}  // namespace pts::sim
