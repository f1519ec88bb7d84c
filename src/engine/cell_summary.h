// engine/cell_summary.h — merges what the workers measured into one CellResult: counts,
// IOPS and MB/s (10^6 B), latency summaries from the merged histograms, the per-second
// series, CPU % from process rusage, the Little's-law check, and the workers' I/O phases into
// the cell's. Pure: no I/O, no clock. May use: core, model, engine/latency_histogram.h,
// engine/io_engine.h.
#pragma once

#include <optional>
#include <vector>

#include "engine/io_engine.h"
#include "engine/uring_worker.h"
#include "model/cell.h"

namespace pts::engine {

/// Process CPU time consumed during the cell.
struct CpuTimes {
  double user_seconds = 0;
  double system_seconds = 0;
  double wall_seconds = 0;  ///< the interval the two times were measured over
};

/// Builds the result of a cell that started at t0_ns (monotonic) from its workers' stats.
/// The measured duration runs from t0 to the last completion of any worker.
model::CellResult summarize_cell(const model::AccessSpec& spec, const std::vector<const WorkerStats*>& workers,
                                 uint64_t t0_ns, const CpuTimes& cpu);

/// A multi-job cell's combined figures over its jobs' results (each from summarize_cell over
/// its own workers): every worker's stats merged as one cell (summarize_cell over `workers`,
/// all jobs' workers, with the spec combined_spec() makes), `cpu` the process's over the cell.
/// `jobs` are moved into the result's `jobs`; their fidelity flags are collected (each code
/// once) into the combined result's.
model::CellResult combine_jobs(std::vector<model::CellResult> jobs, const std::vector<const WorkerStats*>& workers,
                               uint64_t t0_ns, const CpuTimes& cpu);

/// The spec a multi-job cell's combined result records: the first job's, with TC the jobs'
/// total, QD their total TC × QD over that TC (rounded down, at least 1), the read share
/// weighted by each job's TC × QD and the rate the jobs' sum.
model::AccessSpec combined_spec(const std::vector<model::CellResult>& jobs);

/// The cell's I/O phase: the earliest first submission and the latest last completion of the
/// workers that submitted anything; nullopt when none did.
std::optional<IoPhase> merge_io_phases(const std::vector<const WorkerStats*>& workers);

}  // namespace pts::engine
