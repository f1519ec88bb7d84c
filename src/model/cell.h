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

/// Host I/O as a simulated controller counts it (its SMART counters' source), over one cell.
struct ControllerIo {
  uint64_t read_commands = 0;
  uint64_t write_commands = 0;
  uint64_t read_bytes = 0;
  uint64_t write_bytes = 0;
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
  /// A multi-job cell (on its combined result only): the host commands and bytes the
  /// controller itself counted over the cell, all namespaces together, to hold the jobs'
  /// figures against. Absent on single-job cells (and not written to run.json there).
  std::optional<ControllerIo> controller;
};

/// The kernel's own block-layer counters over a cell's I/O phase (/sys/block/<dev>/stat, or
/// the partition's, read just before the first I/O and just after the last completion), kept
/// beside the engine's figures so a reader can see what reached the device. Absent (null in
/// run.json, "n/a" on reports) for files and simulated drives, which have no block counters.
struct KernelCounters {
  std::string device;             ///< kernel name, e.g. "nvme0n1", "loop3", "sda1"
  uint64_t read_ios = 0;          ///< Δ reads completed (requests, after merging)
  uint64_t write_ios = 0;         ///< Δ writes completed
  uint64_t read_merges = 0;       ///< Δ reads merged into a neighbouring request
  uint64_t write_merges = 0;
  uint64_t read_bytes = 0;        ///< Δ sectors read × 512
  uint64_t write_bytes = 0;
  uint64_t host_ios = 0;          ///< ios + merges: the I/Os as the host issued them
  uint64_t ticks_ms = 0;          ///< Δ read + write ticks: summed lifetimes of the completed I/Os
  uint64_t weighted_ms = 0;       ///< Δ time_in_queue: request-milliseconds in flight
  uint64_t busy_ms = 0;           ///< Δ io_ticks: time with at least one request in flight
  uint64_t wall_ns = 0;           ///< between the two reads
  double avg_in_flight = 0;       ///< weighted_ms / wall: requests in flight on average
  double mean_device_time_ns = 0; ///< ticks_ms / (read_ios + write_ios)
  double utilization = 0;         ///< busy_ms / wall
  /// Most requests the kernel can hold in flight on this device: queue/nr_requests (tags per
  /// hardware queue) × hardware queues. 0 when sysfs does not say.
  uint32_t in_flight_limit = 0;
  /// TC×QD > in_flight_limit: requests beyond the limit wait for a tag above the block layer,
  /// where the kernel's counters do not see them, so its average in flight cannot reach TC×QD.
  bool saturated = false;
};

/// How the engine waited for and reaped completions in a cell (the batching it used).
struct CompletionStats {
  uint32_t wait_min = 1;           ///< completions each wait asked for (1: refill on every completion)
  uint64_t reaps = 0;              ///< reap passes that found at least one completion
  double completions_per_reap = 0; ///< measured batching: completions / reaps
  uint64_t submissions = 0;        ///< submission calls that carried I/Os (io_uring_enter)
  double ios_per_submission = 0;   ///< I/Os / submissions: 1 = each I/O on its own call
  uint64_t poll_busy_ns = 0;       ///< time spent polling for completions (CPU it cost)
  uint64_t poll_expired = 0;       ///< polls that used up their budget and then slept
  /// Auto budget: the completion probe's mean read latency sleeping and polling
  /// (engine/completion_probe.h: at QD 1 at low depth, at the cell's depth above it) that the
  /// choice rests on; the workers polled only if polling was faster. 0 = no probe.
  uint64_t probe_sleep_ns = 0;
  uint64_t probe_poll_ns = 0;
};

/// Where one job of a multi-job cell ran (model/job.h): its name in the cell, its target and
/// its LBA range there. Absent on a single-job cell.
struct JobPlacement {
  std::string id;              ///< the job's name in its cell ("read", "write", "ns3")
  std::string target;          ///< the target as records store it (sim: canonical, with #NSID)
  uint32_t target_index = 0;   ///< which of the cell's targets (0-based, in the order given)
  uint64_t offset_bytes = 0;   ///< the job's range on the target: [offset, offset + size)
  uint64_t size_bytes = 0;
};

/// Result of running one AccessSpec, or of one multi-job cell (then `jobs` holds each job's
/// own result and this one the cell's combined figures: I/Os, bytes and rates summed,
/// histograms merged, over the one interval all jobs were measured on).
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
  /// The whole host's CPU use over the cell, % of all CPUs (100 = every CPU busy), from
  /// /proc/stat as the kernel counts it (engine/host_cpu.h); null when not read (a cell
  /// shorter than one kernel tick, or an older record).
  std::optional<double> system_cpu_pct;
  double littles_law_oio = 0; ///< iops × mean latency; ≈ TC×QD when the engine keeps up
  /// Each worker polled for completions until they arrived, up to this budget per wait, before
  /// sleeping (keeps the issuing CPU from idling between I/Os; costs CPU, see
  /// completion.poll_busy_ns): at low depth up to a whole read, above it a short spin
  /// (model::kDepthSpinNs). 0 = workers slept.
  uint64_t completion_poll_ns = 0;
  CompletionStats completion;
  /// Paced cells (rate_iops > 0): "schedule" — latency runs from each I/O's scheduled release
  /// time, so a late device is charged for the wait (no coordinated omission), and
  /// submission_latency holds the figure from submission. Unpaced: "submission" (the two are
  /// the same, submission_latency is empty).
  std::string latency_from = "submission";
  LatencySummary submission_latency;
  std::optional<KernelCounters> kernel;  ///< null: no block counters (file, simulated drive)
  /// Measurement-fidelity checks that failed for this cell (engine/fidelity_check.h):
  /// "io-count" (kernel and engine I/O counts differ by > 1 %), "in-flight" (kernel average
  /// in flight < 0.9 × TC×QD × kernel requests per host I/O (merges), or × the limit when
  /// saturated), "littles-law" (IOPS × mean
  /// latency < 0.9 × TC×QD). Paced cells skip the two depth checks.
  std::vector<std::string> fidelity_flags;
  /// The depth checks ("in-flight", "littles-law") this cell was not judged on because it ran
  /// shorter than engine::kMinJudgedCellSeconds (0.5 s: ramp-up and drain would dominate);
  /// empty when every check applied.
  std::vector<std::string> fidelity_not_judged;
  std::vector<uint64_t> ios_per_second;  ///< completions in each whole second
  /// Sequential specs: the offset each stream would write or read next (one per thread), the
  /// next sequential run's AccessSpec::stream_start_bytes. Empty for random specs.
  std::vector<uint64_t> stream_end_bytes;
  uint64_t io_errors = 0;
  std::string error;          ///< first I/O error, if any
  std::optional<SimulatedCell> simulated;  ///< set by the simulated drive's engine only
  /// A job of a multi-job cell: where it ran (absent on a single-job cell and on the combined
  /// result). Its CPU figures are 0: CPU is the process's, on the combined result only.
  std::optional<JobPlacement> job;
  /// A multi-job cell's jobs, in the order they were given (empty for a single-job cell).
  std::vector<CellResult> jobs;
};

}  // namespace pts::model
