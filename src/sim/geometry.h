// sim/geometry.h — the physical layout derived from SimParams: how physical pages (ppn, one
// FTL mapping unit each) sit on superblocks, program units, dies and multi-plane read
// groups, and the state memory that layout needs. Header-only. May use: sim/params.h.
#pragma once

#include <cmath>
#include <cstdint>

#include "sim/params.h"

namespace pts::sim {

/// Division of 32-bit values by a fixed divisor with a multiply and a shift (exact for every
/// 32-bit numerator and divisor >= 2: M = floor((2^64 - 1) / d) + 1, q = high 64 bits of
/// M * n; M would be 2^64 for d = 1, which is therefore its own case).
struct FastDiv32 {
  uint64_t m = 0;
  uint32_t d = 1;
  FastDiv32() = default;
  explicit FastDiv32(uint32_t divisor) : m(divisor > 1 ? UINT64_MAX / divisor + 1 : 0), d(divisor) {}
  uint32_t div(uint32_t n) const {
    return d == 1 ? n : static_cast<uint32_t>((static_cast<unsigned __int128>(m) * n) >> 64);
  }
  uint32_t mod(uint32_t n) const { return n - div(n) * d; }
};

/// Write amplification of uniform random page writes under greedy GC with spare factor `rho`,
/// in the limit of many blocks: WA = 1 / (1 - u), u = exp(-(1 + rho)(1 - u)), u the victim's
/// valid share (the closed form docs/simulator.md checks the FTL against). For `info`; the
/// tests compute it on their own.
inline double closed_form_wa(double rho) {
  double u = 0.5;
  for (int i = 0; i < 10000; ++i) u = std::exp(-(1 + rho) * (1 - u));
  return 1 / (1 - u);
}

/// A superblock is one block on every plane of every die, written as a stripe: program unit
/// (one wordline, all planes, all bits) on die 0, die 1, ..., then the next wordline. So
/// consecutive writes spread over the dies, and GC works on whole superblocks.
/// ppn = superblock * sb_pages + (wordline * dies + die) * unit_pages + k, where
/// k = (bit page * planes + plane) * pages_per_flash_page + page in the flash page.
struct Geometry {
  uint32_t page_bytes = 4096;
  uint32_t page_shift = 12;  ///< log2(page_bytes)
  uint32_t lba_bytes = 512;
  uint32_t dies = 1, channels = 1, planes = 1;
  uint32_t pages_per_flash_page = 4;
  uint32_t unit_pages = 0;   ///< one program unit: planes x bits x pages per flash page
  uint32_t group_pages = 0;  ///< one multi-plane read: planes x pages per flash page
  uint32_t wordlines = 0;    ///< per block
  uint64_t sb_pages = 0;     ///< pages per superblock
  uint32_t superblocks = 0;
  uint64_t user_pages = 0;
  uint64_t phys_pages = 0;
  /// Superblocks that hold no data at steady state: the free pool foreground GC keeps
  /// (gc_free) and, on average, half of each of the two open frontiers.
  uint32_t reserve_superblocks = 0;

  explicit Geometry(const SimParams& p)
      : page_bytes(p.page_bytes),
        lba_bytes(p.lba_bytes),
        dies(p.dies),
        channels(p.channels),
        planes(p.planes),
        pages_per_flash_page(p.flash_page_bytes / p.page_bytes),
        unit_pages(p.planes * p.bits_per_cell * pages_per_flash_page),
        group_pages(p.planes * pages_per_flash_page),
        wordlines(p.pages_per_block / p.bits_per_cell),
        sb_pages(uint64_t(p.dies) * wordlines * unit_pages),
        user_pages(p.capacity_bytes / p.page_bytes),
        reserve_superblocks(p.gc_free + 1) {
    superblocks = static_cast<uint32_t>(std::ceil(double(user_pages) * (1.0 + p.op) / double(sb_pages)));
    phys_pages = uint64_t(superblocks) * sb_pages;
    unit_div_ = FastDiv32(unit_pages);
    group_div_ = FastDiv32(group_pages);
    die_div_ = FastDiv32(dies);
    sb_div_ = FastDiv32(static_cast<uint32_t>(sb_pages));
    page_shift = static_cast<uint32_t>(__builtin_ctz(page_bytes));
  }

  // Physical page numbers fit 31 bits (validate() checks), so these use FastDiv32.
  uint32_t die_of(uint64_t ppn) const { return die_div_.mod(unit_div_.div(static_cast<uint32_t>(ppn))); }
  uint32_t channel_of_die(uint32_t die) const { return die % channels; }
  uint64_t group_of(uint64_t ppn) const { return group_div_.div(static_cast<uint32_t>(ppn)); }
  uint32_t sb_of(uint64_t ppn) const { return sb_div_.div(static_cast<uint32_t>(ppn)); }
  /// Position of a page (or an offset within a superblock) inside its program unit.
  uint32_t in_unit(uint64_t page) const { return unit_div_.mod(static_cast<uint32_t>(page)); }
  /// Spare factor actually built (whole superblocks): physical / user - 1.
  double effective_op() const { return double(phys_pages) / double(user_pages) - 1.0; }
  /// The spare GC works with: physical pages less the reserve (reserve_superblocks), over
  /// user pages, less 1. The write amplification of uniform random writes follows the closed
  /// form at this spare (measured within 2.6 % from 92 to 1,461 superblocks, docs/simulator.md).
  double spare_after_reserve() const {
    return double(phys_pages - uint64_t(reserve_superblocks) * sb_pages) / double(user_pages) - 1.0;
  }
  /// Bytes of state memory: mapping table, reverse map, validity bitmap, per-superblock data.
  uint64_t state_bytes() const { return user_pages * 4 + phys_pages * 4 + phys_pages / 8 + uint64_t(superblocks) * 32; }

 private:
  FastDiv32 unit_div_, group_div_, die_div_, sb_div_;
};

}  // namespace pts::sim
