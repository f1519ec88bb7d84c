// sim/params.h — every parameter of a simulated drive (host interface, controller, write
// buffer, FTL, flash geometry and timing), the named profiles (`demo`, `dc-tlc-2t`, ...)
// with where each value comes from, and `k=v` overrides with validation. Pure: no I/O.
// May use: core.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"

namespace pts::sim {

/// Garbage-collection victim selection.
enum class GcPolicy {
  Greedy,  ///< the closed superblock with the fewest valid pages
  Fifo     ///< the oldest closed superblock (least recently written, LRW)
};

struct SimParams {
  std::string profile;              ///< name of the profile the values started from
  // Host interface
  uint64_t capacity_bytes = 0;      ///< user capacity (a multiple of page_bytes)
  uint32_t lba_bytes = 512;         ///< logical block size
  double pcie_mbps = 3500;          ///< host link, each direction, MB/s (10^6 B/s)
  // Controller
  uint32_t cmd_read_ns = 10000;     ///< fixed controller latency added to every read command
  uint32_t cmd_write_ns = 19800;    ///< ... to every write command (up to the buffer)
  uint32_t cmd_occupancy_ns = 1400; ///< controller busy time per command (caps IOPS at 1/this)
  uint32_t ftl_page_ns = 0;         ///< controller (FTL) busy time per flash page programmed
  uint64_t buffer_bytes = 0;        ///< write buffer (DRAM) holding data until it is programmed
  bool plp = true;                  ///< power-loss protected buffer: no volatile write cache
  // FTL
  uint32_t page_bytes = 4096;       ///< mapping unit of the page-mapped FTL
  double op = 0.07;                 ///< spare factor rho: physical = user x (1 + op)
  GcPolicy gc = GcPolicy::Greedy;
  uint32_t gc_free = 3;             ///< foreground GC keeps this many superblocks free
  uint32_t idle_gc_free = 24;       ///< host idle: GC cleans until this many are free
  uint32_t pe_cycles = 3000;        ///< rated program/erase cycles (SMART percentage used)
  // Flash geometry
  uint32_t channels = 8;
  uint32_t dies = 64;               ///< in total, spread evenly over the channels
  uint32_t planes = 4;              ///< per die; multi-plane program, read and erase
  uint32_t flash_page_bytes = 16384;
  uint32_t pages_per_block = 768;   ///< flash pages per block (per plane)
  uint32_t bits_per_cell = 3;       ///< pages programmed together per wordline (TLC: 3)
  // Flash timing
  uint32_t read_ns = 60000;         ///< tR: page read into the die's register
  uint32_t prog_ns = 500000;        ///< tPROG: one wordline, all planes, all bits (the page types' sum)
  uint32_t erase_ns = 3500000;      ///< tBERS: one block on every plane
  double channel_mbps = 1000;       ///< flash channel bus, MB/s
  uint32_t crypto_erase_ms = 2000;  ///< Sanitize / Format crypto erase: key change + unmap
  // Read priority (sim/timing.h): host reads ahead of queued flash work, programs and erases
  // suspended for them
  bool read_priority = true;        ///< false: every die and channel first come, first served
  uint32_t suspend_ns = 20000;      ///< program suspend: command to the die ready for a read
  uint32_t erase_suspend_ns = 50000;///< erase suspend, likewise
  uint32_t resume_ns = 5000;        ///< extra die time a suspended operation takes on resuming
  uint32_t max_suspends = 4;        ///< suspends one page program (or one erase) admits
  // Per-operation variation (tails), seeded
  double prog_var = 0.1;            ///< each page program time drawn uniformly within +-this share
  double read_retry = 0.005;        ///< probability a page read needs another read (and so on)
  uint32_t ctrl_jitter_ns = 0;      ///< mean extra controller latency per command (exponential)
  uint32_t variation_seed = 1;      ///< seeds the per-operation variation (the same seed, the same draws)
  // Fault injection (not a property of any real drive model): 0 = off
  uint64_t fail_after_write_bytes = 0;  ///< once the host wrote this much (drive lifetime), every write fails
};

/// A parameter's documentation: name as used in `sim:PROFILE,name=value`, unit and meaning.
struct ParamDoc {
  const char* name;
  const char* unit;
  const char* meaning;
};

/// Every parameter, in display order.
const std::vector<ParamDoc>& param_docs();

/// Profile names, in display order, with a one-line description.
std::vector<std::pair<std::string, std::string>> profile_list();

/// The profile's values, or BadInput naming the known profiles.
core::Result<SimParams> profile_params(const std::string& name);

/// Where each of the profile's values comes from (name -> source), for `info` and docs.
std::vector<std::pair<std::string, std::string>> profile_sources(const std::string& name);

/// Applies `name=value` to `p`; returns "" or the problem (naming the parameter).
std::string apply_override(SimParams& p, const std::string& name, const std::string& value);

/// A capacity below the profile's, with pages_per_block left as the profile has it: the
/// blocks shrink in proportion (whole wordlines, at least one), so the drive keeps about the
/// profile's number of superblocks, and the GC reserve and open frontiers the same small share
/// of its spare (with the profile's blocks, sim:demo,capacity=4GiB had 92 superblocks and its
/// reserve held half its spare). Returns why, for `info --sources`, or "" when nothing changed.
std::string fit_blocks_to_capacity(SimParams& p, const SimParams& profile);

/// Checks the whole parameter set; every problem at once (BadInput). Among them: the spare
/// left after the GC reserve and open frontiers (Geometry::spare_after_reserve) must be at
/// least half the spare asked for (op).
core::Status validate(const SimParams& p);

/// The value of parameter `name` in `p` as text (the same syntax apply_override accepts).
std::string param_value(const SimParams& p, const std::string& name);

/// Canonical description: "PROFILE,name=value,..." listing only what differs from the
/// profile (overrides), so equal drives have equal strings.
std::string canonical(const SimParams& p);

/// "name=value" for every parameter, in display order (the state file stores this).
std::vector<std::pair<std::string, std::string>> all_values(const SimParams& p);

}  // namespace pts::sim
