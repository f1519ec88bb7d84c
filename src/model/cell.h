// model/cell.h — the measured result of one access spec (one cell of a round, a WIPC pass
// or `ptsuite spec`). May use: core.
#pragma once

#include <cstdint>
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
  /// Sequential specs: the offset each stream would write or read next (one per thread), the
  /// next sequential run's AccessSpec::stream_start_bytes. Empty for random specs.
  std::vector<uint64_t> stream_end_bytes;
  uint64_t io_errors = 0;
  std::string error;          ///< first I/O error, if any
};

}  // namespace pts::model
