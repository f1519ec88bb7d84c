// sim/geometry.h — the physical layout derived from SimParams: how physical pages (ppn, one
// FTL mapping unit each) sit on superblocks, program units, dies and multi-plane read
// groups, and the state memory that layout needs. Header-only. May use: sim/params.h.
#pragma once

#include <cmath>
#include <cstdint>

#include "sim/params.h"

namespace pts::sim {

/// A superblock is one block on every plane of every die, written as a stripe: program unit
/// (one wordline, all planes, all bits) on die 0, die 1, ..., then the next wordline. So
/// consecutive writes spread over the dies, and GC works on whole superblocks.
/// ppn = superblock * sb_pages + (wordline * dies + die) * unit_pages + k, where
/// k = (bit page * planes + plane) * pages_per_flash_page + page in the flash page.
struct Geometry {
  uint32_t page_bytes = 4096;
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
        user_pages(p.capacity_bytes / p.page_bytes) {
    superblocks = static_cast<uint32_t>(std::ceil(double(user_pages) * (1.0 + p.op) / double(sb_pages)));
    phys_pages = uint64_t(superblocks) * sb_pages;
  }

  uint32_t die_of(uint64_t ppn) const { return static_cast<uint32_t>((ppn / unit_pages) % dies); }
  uint32_t channel_of_die(uint32_t die) const { return die % channels; }
  uint64_t group_of(uint64_t ppn) const { return ppn / group_pages; }
  uint32_t sb_of(uint64_t ppn) const { return static_cast<uint32_t>(ppn / sb_pages); }
  /// Spare factor actually built (whole superblocks): physical / user - 1.
  double effective_op() const { return double(phys_pages) / double(user_pages) - 1.0; }
  /// Bytes of state memory: mapping table, reverse map, validity bitmap, per-superblock data.
  uint64_t state_bytes() const { return user_pages * 4 + phys_pages * 4 + phys_pages / 8 + uint64_t(superblocks) * 32; }
};

}  // namespace pts::sim
