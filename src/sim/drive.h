// sim/drive.h — one simulated NVMe drive in virtual time: the FTL, the timing model and the
// write buffer wired together, the host's read/write/deallocate commands (with their completion time),
// host idle (background GC), the bytes of blocks written through block access (purge
// verification), and the controller state the admin commands read and change (volatile
// write cache, Format NVM, Sanitize with progress, SMART counters). Single-threaded; the
// engine, the controller and the clock all act on it. May use: sim internals, core.
#pragma once

#include <cstdint>
#include <string>
#include <map>
#include <span>
#include <vector>

#include "sim/bytes.h"
#include "sim/ftl.h"
#include "sim/geometry.h"
#include "sim/params.h"
#include "sim/timing.h"

namespace pts::sim {

/// Counters that cell records and `info` report (lifetime; a purge does not reset them).
struct DriveCounters {
  uint64_t host_read_bytes = 0, host_write_bytes = 0;
  uint64_t host_read_commands = 0, host_write_commands = 0;
  uint64_t buffer_read_pages = 0;  ///< reads served from the write buffer
  uint64_t rmw_reads = 0;          ///< flash reads to merge sub-page writes
  FtlCounters ftl;
};

/// Sanitize as the Sanitize Status log reports it.
struct SanitizeState {
  uint8_t status = 0;         ///< SSTAT 2:0 (0 never, 1 done, 2 in progress, 3 failed)
  uint32_t cdw10 = 0;         ///< of the most recent sanitize
  uint64_t start_ns = 0, end_ns = 0;
  bool global_erased = true;  ///< SSTAT bit 8: nothing written since the last sanitize/FOB
};

/// One namespace: its NSID and extent of the drive's LBA space. The FTL, the dies, channels,
/// write buffer and GC are the controller's, shared by every namespace, so one namespace's
/// writes slow another's reads as on a real drive.
struct NamespaceExtent {
  uint32_t nsid = 1;
  uint64_t offset_bytes = 0;
  uint64_t size_bytes = 0;
  bool attached = true;  ///< attached to the controller (Namespace Attachment)
};

class Drive final : public FlashSink {
 public:
  static constexpr uint64_t kFailed = UINT64_MAX;  ///< a command that could not run

  Drive(const SimParams& params, uint64_t salt);
  Drive(const Drive&) = delete;
  Drive& operator=(const Drive&) = delete;

  const SimParams& params() const { return params_; }
  const Geometry& geometry() const { return geo_; }
  const Ftl& ftl() const { return ftl_; }
  const FlashTiming& timing() const { return timing_; }
  uint64_t capacity_bytes() const { return params_.capacity_bytes; }

  /// Virtual time: nanoseconds since the drive was made (its power-on time).
  uint64_t now() const { return now_; }

  /// Host time moves forward (end of a cell); never backwards.
  void advance_to(uint64_t t) { if (t > now_) now_ = t; }

  /// Host commands submitted at `t` (non-decreasing from call to call, >= now()); offset
  /// and bytes are multiples of the LBA size. Return the completion time, or kFailed while
  /// a sanitize is in progress.
  uint64_t submit_read(uint64_t t, uint64_t offset, uint32_t bytes);
  uint64_t submit_write(uint64_t t, uint64_t offset, uint32_t bytes);
  /// Dataset Management, deallocate (host TRIM) of [offset, offset + bytes): every FTL page
  /// it covers whole is unmapped (reads zeroes, GC no longer copies it); a page it covers in
  /// part keeps its data, as the NVMe deallocate attribute allows. Stored bytes of the range
  /// are dropped. Costs the controller's command time only (no flash work).
  uint64_t submit_trim(uint64_t t, uint64_t offset, uint64_t bytes);
  /// Why a command of that direction returns kFailed now (NVMe's status in words).
  std::string failure_reason(bool is_read);
  /// The fault-injection parameter fail_after_writes is reached: every write fails.
  bool write_faulted() const {
    return params_.fail_after_write_bytes && counters_.host_write_bytes >= params_.fail_after_write_bytes;
  }
  /// Warms the mapping entries a command at `offset` will touch.
  void prefetch(uint64_t offset) const { ftl_.prefetch(offset >> geo_.page_shift); }
  /// Then (once that entry is in) warms the validity word of the page it maps to.
  void prefetch_old(uint64_t offset) const { ftl_.prefetch_old(offset >> geo_.page_shift); }
  /// False while the FTL's map thread owns the mapping (it prefetches its own): the host loop
  /// then warms nothing. Test it around a batch, not per prefetch: GCC 12 -O2 drops a
  /// __builtin_prefetch that sits under a condition in an unrolled loop (seen in
  /// host_loop.cpp's disassembly: no prefetch instruction left).
  bool warms() const { return !ftl_.pipelined(); }

  /// A cell that only writes is about to run: the FTL hands its mapping updates to its map
  /// thread (sim/map_thread.h) unless that is off (set_map_thread(false), or the environment's
  /// PTSUITE_SIM_MAP_THREAD=0), there is one CPU, or blocks hold stored bytes. A read, a
  /// sub-page write or stored bytes met during the cell end it for the rest of the cell. The
  /// results are the same either way, bit for bit.
  void begin_write_cell();
  /// The cell is over: the FTL is whole again (call before anything reads it).
  void end_write_cell() { ftl_.end_pipeline(); }
  void set_map_thread(bool allowed) { map_thread_allowed_ = allowed; }

  /// Host idle for `ns` from now(): background GC runs while the flash would start it
  /// before the idle ends.
  void idle(uint64_t ns);

  /// Block access with bytes (purge verification): stored per sector; blocks written by
  /// the engine read as deterministic data, unwritten or deallocated blocks as zeroes. A
  /// write goes through the FTL and advances now() to its completion; a read only looks (it
  /// changes no state, so a guard's look at a drive on resume cannot shift its timeline).
  /// False while a sanitize runs.
  bool write_blocks(uint64_t offset, std::span<const uint8_t> data);
  bool read_blocks(uint64_t offset, std::span<uint8_t> out);

  // Controller state.
  bool vwc_present() const { return !params_.plp; }
  bool vwc_enabled() const { return vwc_enabled_; }
  void set_vwc(bool on) { vwc_enabled_ = on && !params_.plp; }
  /// Format NVM: SES 0 unmaps, 1 erases every block, 2 crypto erase. now() moves to its end.
  void format(uint8_t ses);
  /// Starts a sanitize (SANACT 2 block erase, 4 crypto erase); it ends in virtual time.
  void start_sanitize(uint8_t sanact, uint32_t cdw10);
  /// The sanitize state as of now() (completes a sanitize whose time has come).
  const SanitizeState& sanitize_state();
  uint32_t sanitize_estimate_s(uint8_t sanact) const;

  const DriveCounters& counters();

  // Namespaces (Namespace Management and Attachment). A new drive has one, NSID 1, over the
  // whole capacity.
  static constexpr uint32_t kMaxNamespaces = 32;  ///< Identify Controller NN
  /// Granularity of a namespace's size and placement: 1 MiB (a whole number of FTL pages and LBAs).
  static constexpr uint64_t kNamespaceGranule = 1ull << 20;
  const std::vector<NamespaceExtent>& namespaces() const { return namespaces_; }
  const NamespaceExtent* find_namespace(uint32_t nsid) const;
  /// Capacity not in any namespace.
  uint64_t unallocated_bytes() const;
  /// Deletes namespace `nsid` (0xFFFFFFFF: every one): its LBAs are deallocated. False when
  /// there is no such namespace.
  bool delete_namespace(uint32_t nsid);
  /// Creates a namespace of `size_bytes` (rounded up to kNamespaceGranule) in the first free
  /// extent that holds it, detached; returns its NSID (the lowest free), 0 when none fits.
  uint32_t create_namespace(uint64_t size_bytes);
  /// Attaches or detaches `nsid`; false when there is no such namespace.
  bool attach_namespace(uint32_t nsid, bool attach);
  /// FTL pages of `ns` that hold data (NUSE): the whole drive's count when it is the one namespace.
  uint64_t ns_mapped_pages(const NamespaceExtent& ns) const;
  /// Deallocates [offset, offset + bytes) outside a cell (a namespace's Format NVM).
  void unmap_range(uint64_t offset, uint64_t bytes);
  double percentage_used() const { return ftl_.mean_erases() * 100.0 / params_.pe_cycles; }

  void save(ByteWriter& out) const;
  bool load(ByteReader& in);

 private:
  // FlashSink: the FTL's flash work, timed at cur_t_.
  void host_unit(uint32_t die, uint64_t seq) override;
  void gc_unit(uint32_t die) override;
  void gc_read(uint32_t die, uint32_t pages) override;
  void erase(uint32_t sb) override;

  bool sanitizing() { return sanitize_state().status == 2; }
  bool write_back() const { return params_.plp || vwc_enabled_; }
  /// The engine overwrote bytes [offset, offset + bytes) of page `lpn`: drop stored sectors.
  void drop_stored(uint64_t lpn, uint64_t offset, uint64_t bytes);
  void fill_generated(uint64_t sector, uint8_t* out) const;

  SimParams params_;
  Geometry geo_;
  FlashTiming timing_;
  WriteBuffer buffer_;
  Ftl ftl_;
  uint64_t salt_;
  uint64_t now_ = 0;
  uint64_t cur_t_ = 0;          ///< when the FTL's current flash work is issued
  uint64_t gc_ready_ = 0;       ///< when the pages GC read last are in the controller
  uint64_t rmw_ready_ = 0;      ///< when merge reads of the open host unit are done
  uint32_t open_unit_pages_ = 0;///< host pages admitted into the open unit
  bool vwc_enabled_ = true;
  bool map_thread_allowed_ = true;
  SanitizeState sanitize_;
  DriveCounters counters_;
  std::map<uint64_t, std::vector<uint8_t>> stored_;  ///< sector -> bytes (block access)
  std::vector<NamespaceExtent> namespaces_;         ///< by NSID; saved only when not the default
};

}  // namespace pts::sim
