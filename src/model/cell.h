// model/cell.h — the measured result of one access spec (one cell of a round, a WIPC pass
// or `ptsuite spec`). May use: core.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/access_spec.h"

namespace pts::model {

/// Latency statistics. min/max are exact; percentiles come from the log-linear histogram
/// (relative error stated in `percentile_rel_error`).
struct LatencySummary {
  uint64_t samples = 0;
  double mean_ns = 0;
  uint64_t min_ns = 0;
  uint64_t max_ns = 0;
  uint64_t p50_ns = 0;
  uint64_t p99_ns = 0;
  uint64_t p99_9_ns = 0;
  uint64_t p99_99_ns = 0;
  uint64_t p99_999_ns = 0;
  double percentile_rel_error = 0;  ///< bound on |reported − exact| / exact for percentiles
};

/// One non-empty bucket of a stored latency histogram.
struct HistogramBucket {
  uint32_t index = 0;
  uint64_t count = 0;
};

/// A latency histogram as stored in the record: log-linear buckets, only the non-empty ones,
/// ascending by index. With S = 2^sub_bucket_bits, bucket i covers [low, low + width) ns:
/// i < 2S: low = i, width = 1 (exact); else shift = floor(i / S) − 1,
/// low = (S + i mod S) << shift, width = 1 << shift. The last bucket, index
/// (max_bit − sub_bucket_bits + 2) × S − 1, also holds every value ≥ 2^(max_bit + 1) ns.
/// sub_bucket_bits = 0 means "no histogram recorded" (records older than schema 3).
struct LatencyHistogramRecord {
  uint32_t sub_bucket_bits = 0;
  uint32_t max_bit = 0;
  uint64_t samples = 0;
  uint64_t sum_ns = 0;  ///< exact sum of the latencies (the mean is sum_ns / samples)
  uint64_t min_ns = 0;  ///< exact
  uint64_t max_ns = 0;  ///< exact
  std::vector<HistogramBucket> buckets;
};

/// What a simulated drive adds to a cell (absent for real targets). The cell's times are
/// the drive's virtual time; its CPU figures are the simulator's own; the flash counters are
/// the ones the write amplification comes from.
struct SimulatedCell {
  bool virtual_time = true;        ///< seconds, latencies and started_wall_ns are virtual
  double sim_cpu_seconds = 0;      ///< CPU the simulator spent on the cell
  double sim_wall_seconds = 0;     ///< real time the cell took
  uint64_t host_pages_written = 0; ///< FTL pages (mapping units) the host wrote in the cell
  uint64_t nand_pages_written = 0; ///< pages programmed: host + GC copies + padding
  uint64_t gc_pages_copied = 0;
  uint64_t erases = 0;             ///< superblock erases in the cell
  double write_amplification = 0;  ///< nand / host pages in the cell (0: no host writes)
  uint32_t free_superblocks = 0;   ///< at the end of the cell
};

/// Result of running one AccessSpec.
struct CellResult {
  std::string cell_id;        ///< e.g. "rw65-bs4096"; empty for ad-hoc specs
  AccessSpec spec;            ///< as run, with the seed actually used
  uint64_t started_wall_ns = 0;
  double seconds = 0;         ///< measured duration of the I/O phase
  uint64_t read_ios = 0;
  uint64_t write_ios = 0;
  uint64_t read_bytes = 0;
  uint64_t write_bytes = 0;
  double read_iops = 0;
  double write_iops = 0;
  double iops = 0;            ///< read + write
  double mbps = 0;            ///< (read + write bytes) / 10^6 / seconds
  double read_mbps = 0;
  double write_mbps = 0;
  LatencySummary latency;     ///< all I/Os
  LatencySummary read_latency;
  LatencySummary write_latency;
  /// Every I/O's latency, reads and writes apart (all I/Os = their sum): what the
  /// Measurement Window's percentiles are computed from.
  LatencyHistogramRecord read_histogram;
  LatencyHistogramRecord write_histogram;
  double cpu_usr_pct = 0;     ///< process user CPU / wall × 100 (100 = one core)
  double cpu_sys_pct = 0;
  double littles_law_oio = 0; ///< iops × mean latency; ≈ TC×QD when the engine keeps up
  /// Low-depth mode: each worker polled for completions up to this long before sleeping
  /// (keeps the issuing CPU from idling between I/Os; costs CPU). 0 = workers slept.
  uint64_t completion_poll_ns = 0;
  std::vector<uint64_t> ios_per_second;  ///< completions in each whole second
  uint64_t io_errors = 0;
  std::string error;          ///< first I/O error, if any
  std::optional<SimulatedCell> simulated;  ///< set by the simulated drive's engine only
};

}  // namespace pts::model
