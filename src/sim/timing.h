// sim/timing.h — the drive's time model in virtual nanoseconds: the controller (a latency and
// a busy time per command, a busy time per flash page programmed), the host link (each
// direction), the flash channels and the dies. Work is booked in advance (each resource keeps
// the time it is next free, or its queue of booked work), so each operation is O(1) and
// queueing for TC x QD emerges. Read priority: host reads go ahead of the flash work queued on
// their die (programs, erases, GC reads) and suspend a page program or an erase in progress;
// with read_priority=0 every die and channel serves first come, first served. Per-operation
// variation (page program times, read retries, controller jitter) comes from one seeded
// generator kept in the drive's state. May use: sim params and geometry, bytes.
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
/// dc-tlc-2t); 64 keep them. The booked intervals are sorted and disjoint, so a booking finds
/// the first one that can hold it back by binary search; forgetting the oldest slides a window
/// (moved back to the front once per kSlots forgotten), not the whole array.
/// A host read's transfer (read priority) does not queue behind that booked work: it takes the
/// channel when its data is sensed (between two page transfers) and the next background
/// booking pays for the time it took (`debt`), so the channel's time is conserved.
struct FlashChannel {
  static constexpr int kSlots = 64;
  uint64_t floor = 0;
  /// The booked intervals [start[h + i], end[h + i]) for i < n, oldest first.
  uint64_t start[2 * kSlots] = {}, end[2 * kSlots] = {};
  int h = 0, n = 0;
  uint64_t debt = 0;      ///< priority transfer time the next background booking waits for
  /// The priority transfers' own busy intervals (they fill gaps among themselves: a read sensed
  /// early on an idle die does not wait for one booked before it but sensed later).
  static constexpr int kPrioSlots = 16;
  uint64_t prio_floor = 0;
  uint64_t prio_start[kPrioSlots] = {}, prio_end[kPrioSlots] = {};
  int prio_n = 0;
  uint64_t free_at() const { return n ? end[h + n - 1] : floor; }
  /// Books `ns` of transfer ready at `t` in the first gap that holds it (after any debt);
  /// returns its end.
  uint64_t book(uint64_t t, uint64_t ns);
  /// A host read's transfer of `ns` ready at `t` under read priority; returns its end.
  uint64_t book_priority(uint64_t t, uint64_t ns);

 private:
  /// Makes room for one more interval: forgets the oldest when all kSlots are taken, and
  /// moves the window to the front when it reaches the end of the arrays.
  void make_room();
};

/// What a die's background queue holds.
enum class DieWork : uint8_t { Program = 0, Erase = 1, GcRead = 2, HostRead = 3 };

/// One operation booked on a die. Times are stored less the die's shift at booking: the
/// actual time is `t + shift`, so a read inserted ahead of all pending work moves every
/// pending operation by adding to the shift (O(1)).
struct DieOp {
  uint64_t start, end;
  DieWork kind;
  uint8_t suspends;  ///< how often a read suspended it
};

/// A die: its background queue (booked programs, erases and GC reads, in order, the finished
/// ones dropped) and its host reads (served first under read priority).
struct DieState {
  std::vector<DieOp> ops;
  size_t head = 0;            ///< first op not yet known to be finished
  uint64_t popped = 0;        ///< ops dropped so far (the absolute index of ops[head])
  uint64_t shift = 0;         ///< read time inserted ahead of the pending ops
  uint64_t read_free = 0;     ///< when the die's last host read releases it
  uint64_t susp_op = UINT64_MAX;  ///< absolute index of the op the last suspension stopped
  uint64_t susp_until = 0;    ///< when the reads of that suspension end (the op resumes)
  uint64_t busy_until() const {
    const uint64_t e = head < ops.size() ? ops.back().end + shift : 0;
    return e > read_free ? e : read_free;
  }
};

/// Counters of the read-priority and tail mechanisms (lifetime; tests and `info` read them).
struct TimingCounters {
  uint64_t suspends = 0;       ///< programs or erases suspended for a host read
  uint64_t read_retries = 0;   ///< extra reads (retries) of host and GC reads
  uint64_t waited_reads = 0;   ///< host reads that waited for an operation they could not suspend
};

class FlashTiming {
 public:
  FlashTiming(const SimParams& p, const Geometry& g, uint64_t seed);

  /// Restarts the variation's generator from `seed` (a purge: the drive after it does not
  /// depend on how much background work ran before it).
  void reseed(uint64_t seed) { rng_ = seed ^ 0x5eed71a1b0c4ull; }
  /// The host's time (a command's submission, non-decreasing): work finished by then is dropped
  /// from the dies' queues. Call before each host command.
  void host_time(uint64_t t) { host_now_ = t > host_now_ ? t : host_now_; }

  /// A command arriving at `t` passes the controller: returns when its data phase may start.
  uint64_t command(uint64_t t, bool write) {
    const uint64_t start = t > ctrl_free_ ? t : ctrl_free_;
    ctrl_free_ = start + occupancy_ns_;
    return start + (write ? cmd_write_ns_ : cmd_read_ns_) + jitter();
  }
  /// Host-to-drive transfer of `bytes` ready at `t`; returns its end.
  uint64_t link_in(uint64_t t, uint64_t bytes) { return transfer(link_in_free_, t, bytes * link_ps_per_byte_ / 1000); }
  /// Drive-to-host transfer.
  uint64_t link_out(uint64_t t, uint64_t bytes) { return transfer(link_out_free_, t, bytes * link_ps_per_byte_ / 1000); }

  /// A host read: one (multi-plane) page read on `die` issued at `t`, then `bytes` over its
  /// channel; returns when the data is in the controller. Under read priority it goes ahead of
  /// the die's queued work and may suspend the page program or erase in progress; otherwise
  /// it queues behind everything booked on the die.
  uint64_t host_read(uint32_t die, uint64_t t, uint64_t bytes);
  /// A background read (GC, the merge read of a sub-page write): queued behind the die's work.
  uint64_t background_read(uint32_t die, uint64_t t, uint64_t bytes);
  /// One program unit on `die` whose data is ready at `t`: the controller's per-page work,
  /// the transfer into the die's cache register over the channel, then its page types one
  /// after another once the die is free. Returns the program's end.
  uint64_t program(uint32_t die, uint64_t t);
  /// A block erase on every plane of `die` at `t`.
  uint64_t erase(uint32_t die, uint64_t t);

  /// When every die, channel and the controller have finished what they were given.
  uint64_t all_idle() const;
  uint64_t page_read_bytes() const { return page_bytes_; }
  const TimingCounters& counters() const { return counters_; }
  /// Nominal time of page type `k` of a program unit (before variation).
  uint64_t page_prog_ns(uint32_t k) const { return page_prog_ns_[k]; }
  /// The die's booked background ops, oldest first (for tests).
  const DieState& die(uint32_t d) const { return dies_[d]; }

  void save(ByteWriter& out) const;
  bool load(ByteReader& in);

 private:
  static uint64_t transfer(uint64_t& free, uint64_t t, uint64_t ns) {
    const uint64_t start = t > free ? t : free;
    free = start + ns;
    return free;
  }
  uint64_t next_random() {
    uint64_t z = (rng_ += 0x9e3779b97f4a7c15ull);  // splitmix64: its state is one word
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1).
  double uniform() { return double(next_random() >> 11) * 0x1.0p-53; }
  uint64_t jitter();
  /// Sensing time of one read, retries included.
  uint64_t sense_ns();
  /// A read queued behind everything booked on `die` (GC reads; host reads without priority).
  uint64_t queued_read(uint32_t die, uint64_t t, uint64_t bytes, DieWork kind);
  /// Books background work of `ns` on `d` from `t`; returns its end.
  uint64_t book(DieState& d, uint64_t t, uint64_t ns, DieWork kind);
  void drop_finished(DieState& d);

  uint32_t channels_;
  bool priority_;
  uint64_t cmd_read_ns_, cmd_write_ns_, occupancy_ns_, ftl_page_ns_;
  uint64_t read_ns_, erase_ns_;
  uint64_t suspend_ns_, erase_suspend_ns_, resume_ns_;
  uint32_t max_suspends_, unit_pages_, bits_;
  double prog_var_, read_retry_, jitter_mean_ns_;
  uint64_t page_prog_ns_[4] = {};
  uint64_t link_ps_per_byte_, chan_ps_per_byte_;
  uint64_t unit_xfer_ns_;
  uint64_t page_bytes_;
  uint64_t ctrl_free_ = 0, link_in_free_ = 0, link_out_free_ = 0, ftl_free_ = 0;
  uint64_t host_now_ = 0;
  uint64_t rng_;
  TimingCounters counters_;
  std::vector<DieState> dies_;
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
