// model/run_record.h — the canonical record of a run (run.json): enough to recompute every
// reported number without the device. May use: core.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/cell.h"
#include "model/device.h"
#include "model/plan.h"
#include "model/purge.h"
#include "model/verdict.h"

namespace pts::model {

/// 2: AccessSpec.zones (zoned random distribution). 3: per-cell latency histograms and
/// window percentiles from the merged histograms. 4: the advanced tests (plan procedure,
/// time_scale, interpretations and their parameters, sub-test role, Round idle_after,
/// sub-test findings, window cpu_pct). Older records load unchanged.
inline constexpr int kRunRecordSchemaVersion = 4;

/// A preconditioning pass (WIPC), as run.
struct PreconditionRecord {
  std::string kind = "WIPC";
  uint64_t target_bytes = 0;   ///< what the plan asked for (2 × capacity × AR)
  uint64_t bytes_written = 0;
  bool completed = false;
  CellResult result;
};

/// One Round: every applicable cell of the matrix, in order.
struct RoundRecord {
  uint32_t round = 0;  ///< 1-based
  uint64_t started_wall_ns = 0;
  uint64_t ended_wall_ns = 0;
  std::vector<CellResult> cells;
  uint64_t max_cell_gap_ns = 0;   ///< idle time between consecutive cells
  double mean_cell_gap_ns = 0;
  /// Every measured gap (one run() returning to the next starting) that preceded a cell of
  /// this round, in order; the first cell after a start or resume has none.
  std::vector<uint64_t> cell_gaps_ns;
  std::optional<SteadyStateVerdict> verdict;  ///< from round window_rounds on
  /// Host idle after this Round's cells (HIR Access B); absent for every other Round.
  std::optional<IdleRecord> idle_after;
};

/// The reported value of one cell: the mean over the Measurement Window only (rounds
/// window_first_round … window_last_round); MRT is the maximum over the window; percentiles
/// are those of every I/O of the window (the Rounds' histograms merged), never an average of
/// the Rounds' percentiles.
struct CellWindowResult {
  std::string cell_id;
  uint32_t rounds = 0;          ///< rounds averaged (5, or fewer when the cap was lower)
  double iops = 0;
  double read_iops = 0;
  double write_iops = 0;
  double mbps = 0;
  double read_mbps = 0;
  double write_mbps = 0;
  double mean_latency_ns = 0;   ///< ART: mean of the per-round means
  uint64_t max_latency_ns = 0;  ///< MRT: maximum over the window
  double p99_999_latency_ns = 0;///< 5 nines of the merged window histogram (= latency.p99_999_ns)
  /// Percentiles of the merged window histograms (all I/Os, reads, writes); max_ns is exact.
  /// samples = every I/O of the window; mean_ns their pooled mean (ART above is the mean of
  /// the Rounds' means, as the spec reports it).
  LatencySummary latency;
  LatencySummary read_latency;
  LatencySummary write_latency;
  /// True when the percentiles above come from the merged window histograms. False in a
  /// record from before schema 3, or when a window cell carried no histogram: then the
  /// summaries are empty and p99_999_latency_ns is the mean of the Rounds' values.
  bool percentiles_pooled = false;
  double cpu_pct = 0;           ///< mean of the Rounds' process CPU (user + system, 100 = one core)
};

/// Progress and results of one sub-test.
struct SubTestRecord {
  std::string id;
  std::optional<PurgeRecord> purge;
  std::optional<PreconditionRecord> wipc;
  std::vector<RoundRecord> rounds;
  bool complete = false;
  bool steady_state_reached = false;
  uint32_t window_first_round = 0;  ///< Measurement Window reported (x−4 … x)
  uint32_t window_last_round = 0;
  std::optional<SteadyStateVerdict> final_verdict;
  std::vector<CellWindowResult> window_results;  ///< one per applicable cell, in plan order
  /// What an advanced procedure derived (cliff, plateaus, recovery, MaxIOPS point, ...).
  std::vector<Finding> findings;
};

/// Anything that departs from the spec, in plain words; printed on every report sheet.
struct Deviation {
  std::string code;  ///< stable key, e.g. "cell-seconds", "purge-discard", "resume-gap"
  std::string text;
};

/// A state-machine transition, journaled as it happens.
struct Transition {
  std::string state;     ///< "Identify", "Guard", "Purge", "VerifyPurge", "WIPC", "Round", ...
  std::string subtest;
  uint32_t round = 0;
  uint64_t wall_ns = 0;
  std::string detail;
};

struct HostInfo {
  std::string hostname;
  std::string cpu_model;
  uint32_t cpu_count = 0;
  uint64_t memory_bytes = 0;
  std::string os;
  std::string kernel;
};

enum class RunState { Running, Complete, Interrupted, Failed };

/// The whole run.
struct RunRecord {
  int schema_version = kRunRecordSchemaVersion;
  std::string tool_version;
  std::string git_revision;
  std::string run_id;
  std::string command_line;
  HostInfo host;
  uint64_t started_wall_ns = 0;
  uint64_t ended_wall_ns = 0;
  RunState state = RunState::Running;
  std::string failure;
  DeviceIdentity device;
  WriteCacheState write_cache = WriteCacheState::Unknown;
  TestPlan plan;
  std::vector<SubTestRecord> subtests;
  std::vector<Deviation> deviations;
  std::vector<Transition> transitions;
};

}  // namespace pts::model
