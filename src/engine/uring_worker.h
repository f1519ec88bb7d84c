// engine/uring_worker.h — one persistent worker thread with its own io_uring (registered
// file and buffers) that runs its share of a cell. Threads, rings and buffers live across
// cells so back-to-back cells start on warm rings; a cell only resizes what grew. The ring
// is created, used and registered on the worker thread (IORING_SETUP_SINGLE_ISSUER).
// May use: core, model, liburing (this file's .cpp is one of the two that include it).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/result.h"
#include "engine/latency_histogram.h"
#include "engine/workload.h"

namespace pts::engine {

struct CompletionProbe;  // engine/completion_probe.h

/// What one worker measured in one cell.
struct WorkerStats {
  LatencyHistogram read_latency;   ///< paced: from each I/O's scheduled release
  LatencyHistogram write_latency;
  LatencyHistogram submission_latency;  ///< paced only: all I/Os, from submission
  uint64_t read_ios = 0, write_ios = 0;
  uint64_t read_bytes = 0, write_bytes = 0;
  std::vector<uint64_t> completions_per_second;  ///< indexed by whole seconds since t0
  /// Where this worker's share of the measured duration ends: the reap of its last completion,
  /// or the deadline a paced worker slept to with nothing in flight.
  uint64_t end_ns = 0;
  /// When this worker first submitted I/O in the cell; UINT64_MAX: it submitted nothing.
  uint64_t first_submit_ns = UINT64_MAX;
  uint64_t last_completion_ns = 0;               ///< when its last reaped I/O completed
  uint64_t stream_next_bytes = 0;                ///< sequential: the offset the stream would use next
  uint64_t io_errors = 0;
  std::string first_error;
  uint32_t wait_min = 1;       ///< completions each wait asked for
  uint64_t reaps = 0;          ///< reap passes that found at least one completion
  uint64_t submissions = 0;    ///< io_uring_enter calls that carried I/Os
  uint64_t poll_busy_ns = 0;   ///< time spent polling for completions
  uint64_t poll_expired = 0;   ///< polls that used up their budget
  uint64_t completion_poll_ns = 0;  ///< the poll budget this worker ran with (0: slept)
  /// The completion probe's mean read latency sleeping and polling that this cell's choice
  /// rests on (0: no probe), see engine/completion_probe.h.
  uint64_t probe_sleep_ns = 0, probe_poll_ns = 0;
  void reset();
};

/// The runner's side of one cell, shared by all its workers.
struct CellControl {
  std::mutex mutex;
  std::condition_variable changed;
  uint32_t ready = 0;      ///< workers prepared and waiting for go
  uint32_t done = 0;       ///< workers finished
  std::atomic<uint32_t> go{0};  ///< bumped once per cell when t0 is set
  std::atomic<bool> cancelled{false};  ///< set before go when a worker failed to prepare
  uint64_t t0_ns = 0;
  uint64_t deadline_ns = UINT64_MAX;
  const std::atomic<bool>* abort = nullptr;  ///< never null while a cell runs
};

class UringWorker {
 public:
  /// Starts the thread; its ring is created at the first cell.
  UringWorker(int fd, bool writable);
  ~UringWorker();
  UringWorker(const UringWorker&) = delete;
  UringWorker& operator=(const UringWorker&) = delete;

  /// Hands the worker a cell: it prepares (ring, buffers), reports ready to `control`, waits
  /// for control->go to change, runs the loop and reports done.
  void start_cell(const WorkerPlan& plan, CellControl* control);

  /// Valid after the worker reported done.
  const WorkerStats& stats() const { return stats_; }
  /// Non-empty when preparing failed (the worker then did no I/O).
  const std::string& setup_error() const { return setup_error_; }
  /// Completions so far in the current cell (for progress).
  uint64_t ios_done() const { return ios_done_.load(std::memory_order_relaxed); }
  /// io_uring setup flags actually in use, e.g. "SINGLE_ISSUER|DEFER_TASKRUN".
  const std::string& ring_flags() const { return ring_flags_; }

 private:
  struct Ring;  // liburing state, defined in the .cpp
  void thread_main();
  bool prepare(const WorkerPlan& plan);
  /// The poll budget the cell runs with: plan.completion_poll_ns, or where the plan asks for a
  /// probe, the auto budget if the probe (run before the cell when the last is over a minute
  /// old) found polling faster. Records the probe in stats_.
  uint64_t poll_budget_for(const WorkerPlan& plan);
  /// Above low depth: model::kDepthSpinNs if the depth probe (reads at the cell's depth, both
  /// ways, run when the last is stale) found spinning faster, else 0. Records it in stats_.
  uint64_t depth_spin_for(const WorkerPlan& plan);
  /// Records `probe` in stats_; returns `budget_ns` if polling won, else 0.
  uint64_t adopt_probe(const CompletionProbe& probe, uint64_t budget_ns);
  /// After a probe's read failed (maybe still in flight): a fresh ring for the cell.
  bool reopen_after_failed_probe(const WorkerPlan& plan);
  void run_cell(const WorkerPlan& plan, CellControl& control);
  template <class Offsets, class Pacer>
  void loop(const WorkerPlan& plan, CellControl& control, Offsets offsets, Pacer pacer);

  int fd_;
  bool writable_;
  std::unique_ptr<Ring> ring_;
  WorkerStats stats_;
  std::string setup_error_;
  std::string ring_flags_;
  static constexpr uint64_t kProbeValidNs = 60'000'000'000ull;
  std::unique_ptr<CompletionProbe> probe_;  ///< the last completion probe
  uint64_t probe_at_ns_ = 0;
  std::unique_ptr<CompletionProbe> depth_probe_;  ///< the last depth probe, for this QD and size
  uint64_t depth_probe_at_ns_ = 0;
  uint32_t depth_probe_qd_ = 0, depth_probe_bytes_ = 0;
  alignas(64) std::atomic<uint64_t> ios_done_{0};

  std::mutex mutex_;
  std::condition_variable wake_;
  bool has_cell_ = false;
  bool exit_ = false;
  WorkerPlan plan_;
  CellControl* control_ = nullptr;
  std::thread thread_;
};

/// Whether registered buffers are free of RLIMIT_MEMLOCK: CAP_IPC_LOCK (bit 14) is in this
/// process's effective set (as root has it) or the limit is unlimited. Otherwise every
/// worker's registered buffers count against the user's locked-memory limit.
bool locked_memory_unbounded();

}  // namespace pts::engine
