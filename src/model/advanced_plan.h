// model/advanced_plan.h — the advanced PTS tests as plain data: the parameters of WSAT, HIR,
// XSR and DIRTH (ECW runs on the DIRTH procedure) as config/ resolves them from a definition,
// and the two records these procedures add to a run (derived findings, host-idle periods).
// Every duration here is already multiplied by TestPlan::time_scale; the spec_* fields keep
// the unscaled values so a report can say what was shortened. May use: core.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pts::model {

/// How the procedure runs a sub-test (SubTestPlan::role). Empty = generic steady Rounds
/// (also the preconditioning sub-tests of HIR and DIRTH).
namespace role {
inline constexpr const char* kSteadyRounds = "";
inline constexpr const char* kWsatSamples = "wsat-samples";      ///< 1 cell per Round until a stop rule
inline constexpr const char* kHirWaitState = "hir-wait-state";   ///< repetitions × (Access A + idle), Access C
inline constexpr const char* kXsrGroups = "xsr-groups";          ///< Access Groups 1, 2, 3 in turn
inline constexpr const char* kDirthSweep = "dirth-sweep";        ///< steady Rounds over the TC × QD grid
inline constexpr const char* kDirthHistogram = "dirth-histogram";///< pre-write + capture at a chosen point
}  // namespace role

/// WSAT (PTS-E 1.1 §10): samples of the stimulus from FOB until a stop rule.
struct WsatPlan {
  std::string workload;             ///< definition workload id ("write-intensive", "oltp", ...)
  std::string workload_title;
  double max_seconds = 86400;       ///< stop after this much stimulus time (24 h × time_scale)
  double spec_max_seconds = 86400;
  double capacity_multiple = 4;     ///< stop once this many × user capacity has been written
  uint64_t stop_bytes = 0;          ///< capacity_multiple × user capacity
  bool stop_at_steady = false;      ///< also stop at the first steady window of samples (2.0 option)
  uint32_t fob_samples = 5;         ///< FOB plateau = mean IOPS of the first N samples
  double cliff_fraction = 0.5;      ///< cliff = first sample below this fraction of the FOB plateau
  uint32_t plateau_samples = 30;    ///< steady plateau = mean IOPS of the last N samples
};

/// HIR (PTS-E 1.1 §11): after preconditioning to steady state, per wait state
/// repetitions × (Access A writes + Access B host idle), then Access C continuous writes.
struct HirPlan {
  double access_a_seconds = 5;
  double spec_access_a_seconds = 5;
  uint32_t repetitions = 360;
  double access_c_seconds = 1800;
  double spec_access_c_seconds = 1800;
  std::vector<double> wait_seconds;       ///< Access B idle per wait state (scaled)
  std::vector<double> spec_wait_seconds;  ///< 5, 10, 15, 25, 50
  /// What recovery is measured against: "precondition" (the steady-state window average of
  /// the preconditioning) or "preceding-return" (the mean of the Access C before this wait
  /// state; the preconditioning's for the first).
  std::string baseline = "precondition";
};

/// One XSR Access Group: the cell it runs (in the sub-test's cells) and for how long.
struct XsrGroup {
  std::string cell_id;
  double seconds = 0;
  double spec_seconds = 0;
};

/// XSR (PTS-E 1.1 §12): Access Groups in turn, 1-minute samples.
struct XsrPlan {
  std::vector<XsrGroup> groups;
  /// Group 3 has recovered at its first sample whose throughput reaches this reference:
  /// "group1-mean" (the mean MB/s of every group 1 sample).
  std::string recovery_reference = "group1-mean";
  /// ... or comes within this fraction below it (0.05: 95 % of the reference). Group 1's mean
  /// holds its FOB samples, which a drive's steady sequential rate never reaches again.
  double recovery_tolerance = 0.05;
};

/// DIRTH (PTS-E 1.1 §13) and ECW (§14): preconditioning, the TC × QD sweep in steady Rounds,
/// MaxIOPS / MidIOPS / MinIOPS, a response-time histogram at each.
struct DirthPlan {
  std::vector<uint32_t> thread_counts;  ///< TC = worker threads
  std::vector<uint32_t> queue_depths;   ///< QD = outstanding I/Os per thread (never swapped)
  std::string sweep_order = "toio-descending";  ///< or "tc-outer"
  double art_ceiling_ns = 5e6;          ///< MaxIOPS: highest IOPS whose ART is at most this
  double round_prewrite_seconds = 300;  ///< pre-write before each sweep Round (scaled)
  double spec_round_prewrite_seconds = 300;
  double histogram_prewrite_seconds = 3600;
  double spec_histogram_prewrite_seconds = 3600;
  double histogram_seconds = 600;
  double spec_histogram_seconds = 600;
  /// MidIOPS: the point under the ceiling whose IOPS is closest to (MaxIOPS + MinIOPS) / 2.
  std::string mid_rule = "closest-to-midpoint-under-ceiling";
};

/// A figure an advanced procedure derives from its measurements and stores, so the report
/// states it without recomputing (the cliff, a recovery ratio, the MaxIOPS point, ...).
struct Finding {
  std::string key;               ///< stable, e.g. "cliff_sample", "recovery_ratio"
  std::string label;             ///< plain words for the report
  std::optional<double> value;   ///< absent when undefined (no cliff, never recovered, ...)
  std::string unit;              ///< "IOPS", "MB/s", "ms", "min", "ratio", "sample", ...
  std::string detail;            ///< how it was derived, or why it is undefined
};

/// Host idle after a Round's cells (HIR Access B): nothing is submitted to the target. The
/// I/O counters read right before and right after prove it: the engine's own count of the
/// I/Os it completed, and the kernel's block-layer counters where the target has them.
struct IdleRecord {
  uint64_t requested_ns = 0;
  uint64_t measured_ns = 0;        ///< how long the idle took on the run's clock (virtual on a sim)
  uint64_t started_wall_ns = 0;
  uint64_t ended_wall_ns = 0;
  bool completed = false;          ///< false: cut short by the operator
  std::optional<uint64_t> engine_ios_before;  ///< absent when the engine publishes no counters
  std::optional<uint64_t> engine_ios_after;
  std::optional<uint64_t> kernel_ios_before;  ///< block-layer reads + writes completed
  std::optional<uint64_t> kernel_ios_after;
  std::optional<uint64_t> kernel_in_flight_before;  ///< requests in flight when the idle began
};

}  // namespace pts::model
