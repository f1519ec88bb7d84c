// engine/io_engine.h — the load-generator contract. pts/ and app/ see only this interface;
// the liburing implementation (the only code that includes liburing) lives behind
// open_uring_engine(). A simulated engine in virtual time will implement the same interface.
// May use: core, model.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/result.h"
#include "model/access_spec.h"
#include "model/cell.h"
#include "model/engine_limits.h"
#include "model/job.h"

namespace pts::engine {

/// What the engine opens. `size_bytes` bounds the ActiveRange; offsets and sizes are
/// multiples of `logical_block_bytes`. `fd` >= 0 is a borrowed descriptor (the guard's
/// exclusively opened, O_DIRECT one, device/held_target.h): the engine then uses it, never
/// opens `path` (kept for messages) and never closes it; the owner keeps it open for longer
/// than the engine lives.
struct IoTarget {
  std::string path;
  uint64_t size_bytes = 0;
  uint32_t logical_block_bytes = 512;
  int fd = -1;
};

/// Cumulative I/O counters of an engine, read between runs: they prove that nothing reached
/// the target while the host was idle (HIR Access B).
struct IoCounters {
  uint64_t engine_ios = 0;                   ///< I/Os this engine completed since it was opened
  std::optional<uint64_t> kernel_ios;        ///< the target's block-layer reads + writes completed
  std::optional<uint64_t> kernel_in_flight;  ///< block-layer requests in flight right now
};

/// The I/O phase of one run(): its first submission and its last completion, in ns on the
/// monotonic clock the engine measures with, which is the run's clock (RunEnv::clock): the
/// io_uring engine's is CLOCK_MONOTONIC, the simulated drive's is the drive's virtual time
/// (its power-on time). Set-up before the first submission and drain or teardown after the
/// last completion lie outside it: the drive is idle then.
struct IoPhase {
  uint64_t first_submit_ns = 0;
  uint64_t last_completion_ns = 0;  ///< >= first_submit_ns
};

/// Called about once per second from the runner thread with I/Os completed so far.
using ProgressFn = std::function<void(double elapsed_seconds, uint64_t ios_done)>;

class IoEngine {
 public:
  virtual ~IoEngine() = default;

  /// Runs one access spec for spec.seconds (or until spec.bytes_limit bytes) and returns its
  /// measured result. Cells run back to back on warm rings: threads and buffers persist
  /// between calls. `abort` (may be null) ends the run early; the result then covers the
  /// time actually run. I/O errors are counted in the result; a failure to run at all is an
  /// Error.
  virtual core::Result<model::CellResult> run(const model::AccessSpec& spec,
                                              const std::atomic<bool>* abort = nullptr,
                                              const ProgressFn& progress = {}) = 0;

  /// Runs a multi-job cell (model/job.h): every job started together (one barrier, one t0),
  /// measured over one interval on the engine's one clock, each on its target (an index into
  /// job_targets()) and range. The result holds the cell's combined figures and, in `jobs`,
  /// each job's own CellResult (histograms, per-second series, kernel counters where its
  /// target has them and it is the target's only job). Checked before any I/O: job_problems()
  /// with `allow_overlap`, writes only on writable targets. The default: this engine runs
  /// single-job cells only (BadInput).
  virtual core::Result<model::CellResult> run_jobs(const std::vector<model::JobSpec>& jobs, bool allow_overlap,
                                                   const std::atomic<bool>* abort = nullptr,
                                                   const ProgressFn& progress = {}) {
    (void)jobs, (void)allow_overlap, (void)abort, (void)progress;
    return core::bad_input(describe() + " runs one job per cell");
  }

  /// The targets run_jobs() may address, in order (size and logical block of each); empty
  /// when the engine runs single-job cells only.
  virtual std::vector<model::JobTargetSize> job_targets() const { return {}; }

  /// The I/O phase of the last run() (see IoPhase); nullopt when that run submitted nothing
  /// or failed, or when the engine keeps none (the default: the io_uring and the simulated
  /// drive's engines keep it). Never called while run() runs.
  virtual std::optional<IoPhase> last_io_phase() const { return std::nullopt; }

  /// The counters above; nullopt when the engine keeps none. Never called while run() runs.
  virtual std::optional<IoCounters> counters() { return std::nullopt; }

  /// Engine name and version for the run record, e.g. "io_uring (liburing 2.3)".
  virtual std::string describe() const = 0;
};

/// What the io_uring engine can run on this host: QD ≤ 32768 per worker (the kernel's ring
/// entries; the completion ring is twice that), one registered buffer region ≤ 1 GiB (the
/// kernel's limit per registered buffer), TC ≤ open-file limit − 64 (a ring descriptor per
/// worker), all buffers ≤ half the RAM (and ≤ RLIMIT_MEMLOCK without CAP_IPC_LOCK, which
/// registered buffers are charged to), cells ≥ 10 ms.
model::EngineLimits uring_engine_limits();

/// Opens TARGET with O_DIRECT (or borrows target.fd, which must be open with O_DIRECT, and
/// O_RDWR when `writable`) and prepares an io_uring engine. Fails with BadInput when the
/// target cannot be opened for direct I/O (never falls back to buffered I/O).
core::Result<std::unique_ptr<IoEngine>> open_uring_engine(const IoTarget& target, bool writable);

/// The same over several targets (each borrowed or opened as above; `writable[i]` for
/// targets[i]): run() runs on targets[0], run_jobs() on any of them. Each target keeps its
/// own workers (a ring registers one file) and its own kernel counters.
core::Result<std::unique_ptr<IoEngine>> open_uring_engine(const std::vector<IoTarget>& targets,
                                                          const std::vector<bool>& writable);

}  // namespace pts::engine
