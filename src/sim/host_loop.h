// sim/host_loop.h — the host side of a simulated cell: TC workers x QD slots in a closed
// loop, in virtual time. Each worker draws its I/Os through the io_uring engine's own code
// (engine/workload.h: plan_workers, draw_io with its R/W threshold, block-size table and
// offset generators, the per-worker Rng stream, engine/rate_pacer.h), submits them to the
// Drive when a slot is free (and the pacer allows), and the next event is always the
// earliest completion. Used for measured cells (with statistics) and for replaying the state
// file's log (without).
//
// Why this is not engine/io_loop.h (the io_uring worker's refill loop): that loop is one
// thread per worker against a real queue, in real time — it waits in the kernel, reaps
// batches, polls at low depth, fills write buffers with data. Here all workers share one
// thread and one virtual clock: a completion is an event in a queue ordered by virtual time
// (ties by slot, so runs are deterministic), nothing waits, no data is made, and the drive
// is told which mapping entries to prefetch before their I/Os come up. The shared part —
// what each I/O is — is shared (draw_io); the refill rule is the same (every completion
// refills its slot at once, no batch that lets the queue drain).
// May use: core, model, engine (workload, rng, rate pacer, worker stats), sim drive.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "engine/io_engine.h"
#include "engine/uring_worker.h"
#include "model/access_spec.h"
#include "sim/drive.h"

namespace pts::sim {

struct LoopOutcome {
  uint64_t t0_ns = 0;        ///< virtual start
  uint64_t end_ns = 0;       ///< virtual time of the last completion
  uint64_t events = 0;       ///< completions and pacing wake-ups processed
  /// Event count at which issuing stopped because of the abort flag; UINT64_MAX if never.
  uint64_t stopped_at_event = UINT64_MAX;
  /// Set when the run had to stop early on its own (e.g. a cell past the virtual-time limit).
  std::string error;
};

/// Limits the simulated host loop enforces (beyond plan_workers' checks).
inline constexpr uint32_t kMaxSlots = 65535;           ///< TC x QD
inline constexpr uint64_t kMaxCellNs = uint64_t{1} << 48;  ///< 78 hours of virtual time per cell

/// Checks what the simulated host loop cannot run (every problem at once, BadInput).
core::Status check_spec(const model::AccessSpec& spec, const engine::IoTarget& target);

/// One job of a simulated multi-job cell: its spec (seed set) over a range of the drive's LBA
/// space (a namespace's extent or a part of it), which its ActiveRange is a share of.
struct SimJob {
  model::AccessSpec spec;
  uint64_t offset_bytes = 0;
  uint64_t size_bytes = 0;
};

/// Runs every job's workers together from drive.now() on the drive's one clock, one event
/// queue over all their slots (TC × QD of all jobs together at most kMaxSlots), as
/// run_workload() runs one. `stats` (may be null) receives one entry per job, each one per
/// worker. A single job over the whole drive runs exactly as run_workload() runs its spec.
/// A paced worker's latency runs from each I/O's scheduled release (the submission figure
/// kept beside it), as the io_uring loop measures it.
core::Result<LoopOutcome> run_jobs_workload(Drive& drive, const std::vector<SimJob>& jobs,
                                            const std::atomic<bool>* abort, const engine::ProgressFn& progress,
                                            uint64_t stop_at_event,
                                            std::vector<std::vector<engine::WorkerStats>>* stats);

/// Runs `spec` (seed set) from drive.now(); the drive's clock ends at the last completion.
/// `abort` (may be null) is polled every 1024 events; `stop_at_event` replays an aborted run
/// (issuing stops at that event). `stats` (may be null) receives one entry per worker.
core::Result<LoopOutcome> run_workload(Drive& drive, const model::AccessSpec& spec, const std::atomic<bool>* abort,
                                       const engine::ProgressFn& progress, uint64_t stop_at_event,
                                       std::vector<engine::WorkerStats>* stats);

}  // namespace pts::sim
