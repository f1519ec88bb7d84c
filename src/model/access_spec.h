// model/access_spec.h — one access specification ("cell stimulus"): plain data that the
// engine executes and the run record stores. Validation lives in config/. May use: core.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pts::model {

enum class AccessPattern { Random, Sequential };

/// One entry of a block-size split: `percent` of I/Os use `bytes`.
struct BlockSizeShare {
  uint32_t bytes = 0;
  uint32_t percent = 0;
};

/// A workload the engine runs for a duration or a byte budget. TC = threads, QD =
/// queue_depth per thread (total OIO = TC × QD).
struct AccessSpec {
  AccessPattern pattern = AccessPattern::Random;
  uint32_t read_pct = 100;               ///< R/W mix: share of reads, decided per I/O
  uint32_t block_bytes = 4096;           ///< single block size (ignored if bs_split is set)
  std::vector<BlockSizeShare> bs_split;  ///< optional block-size mix (shares sum to 100)
  uint32_t threads = 1;                  ///< TC
  uint32_t queue_depth = 1;              ///< QD per thread
  double seconds = 60.0;                 ///< duration; ignored when bytes_limit > 0
  uint64_t bytes_limit = 0;              ///< stop after this many bytes (WIPC 2× capacity)
  double active_range_pct = 100.0;       ///< ActiveRange, % of the target's LBAs from LBA 0
  uint64_t rate_iops = 0;                ///< pacing target for all threads; 0 = unthrottled
  uint64_t seed = 0;                     ///< 0 = pick one; the engine records what it used
};

/// "randread", "randwrite", "randrw", "read", "write", "rw" for a spec (fio-like).
std::string rw_name(const AccessSpec& spec);

/// Largest block size the spec can issue.
uint32_t max_block_bytes(const AccessSpec& spec);

}  // namespace pts::model
