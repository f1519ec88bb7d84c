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
#include "model/procedure_records.h"
#include "model/purge.h"
#include "model/verdict.h"

namespace pts::model {

/// 2: AccessSpec.zones (zoned random distribution). 3: per-cell latency histograms and
/// window percentiles from the merged histograms. 4: DeviceIdentity.pcie_link and
/// RunRecord.operator_fields. 5: failed_cells and failed_purges in SubTestRecord,
/// verification.method in PurgeRecord, the confirmed identity (DeviceIdentity.wwid/nguid/eui64/
/// serial_made_up/subsystem_*) and RunRecord.consent, WIPC's own TC/QD, sequential stream positions, client
/// ActiveRange segments, the cell's kernel counters, fidelity flags, completion batching and
/// paced latency from the schedule, a simulated drive's marks (RunRecord.virtual_time and
/// simulated_drive, CellResult.simulated), and the tests with procedures of their own (plan procedure, time_scale,
/// interpretations and their parameters, sub-test role, Round idle_after, sub-test findings,
/// window cpu_pct). Older records load unchanged (new fields take their defaults).
inline constexpr int kRunRecordSchemaVersion = 5;

/// A preconditioning pass (WIPC), as run.
struct PreconditionRecord {
  std::string kind = "WIPC";
  uint64_t target_bytes = 0;   ///< what the plan asked for (2 × user capacity)
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
  uint64_t max_cell_gap_ns = 0;   ///< the largest of cell_gaps_ns (0: none)
  double mean_cell_gap_ns = 0;    ///< their mean (0: none)
  /// The tool's gap before each cell of this round that had one, in order: the time the drive
  /// sat idle from the previous engine run's last completion (the previous cell, or WIPC) to
  /// this cell's first submission. The engine's own set-up and drain count, as does whatever
  /// the tool did between the runs (journal, checks); host idle the procedure asked for (HIR's
  /// Access B, kept in idle_after) does not. On the run's monotonic clock: CLOCK_MONOTONIC,
  /// or, when RunRecord.virtual_time, the simulated drive's virtual time, which stands still
  /// between cells (its gaps are 0). From an engine that reports no I/O phase (none does in
  /// ptsuite itself) a run's side is run() called or returned instead. The first cell after a
  /// start or resume has none.
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
  /// Mean of the Rounds' host CPU use (% of all CPUs, CellResult::system_cpu_pct) over the
  /// Rounds that carry it; null when none does.
  std::optional<double> system_cpu_pct;
};

/// A cell that ended with I/O errors. It is not a result: it never enters a Round or a
/// Measurement Window, and the run (or its resume) runs that cell again.
struct FailedCell {
  uint32_t round = 0;  ///< the Round it was run for
  CellResult cell;     ///< as measured, io_errors > 0
};

/// Progress and results of one sub-test.
struct SubTestRecord {
  std::string id;
  std::optional<PurgeRecord> purge;          ///< the purge the sub-test stands on (the latest)
  std::vector<PurgeRecord> failed_purges;    ///< earlier attempts that were not settled, then repeated
  std::vector<FailedCell> failed_cells;      ///< cells that ended with I/O errors, in order
  std::optional<PreconditionRecord> wipc;
  std::vector<RoundRecord> rounds;
  bool complete = false;
  bool steady_state_reached = false;
  uint32_t window_first_round = 0;  ///< Measurement Window reported (x−4 … x)
  uint32_t window_last_round = 0;
  std::optional<SteadyStateVerdict> final_verdict;
  std::vector<CellWindowResult> window_results;  ///< one per applicable cell, in plan order
  /// What the sub-test's procedure derived (cliff, plateaus, recovery, MaxIOPS point, ...).
  std::vector<Finding> findings;
};

/// Anything that departs from the spec, in plain words; printed on every report sheet.
struct Deviation {
  std::string code;  ///< stable key, e.g. "cell-seconds", "purge-discard", "resume-gap"
  std::string text;
};

/// A header field the operator states (`--meta key=value`, `--lab FILE.toml`): who tested,
/// for whom, NAND type, form factor, notes and any other key a lab uses. Printed on every
/// report page in the order stored; keys are kept as given.
struct OperatorField {
  std::string key;    ///< "tested_by", "test_sponsor", "nand_type", "form_factor", "notes", or any other
  std::string value;
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

/// Set when the target is a simulated drive (never a measurement of hardware).
struct SimulatedDriveInfo {
  std::string target;       ///< sim:PROFILE[,overrides]@STATE_FILE, as resume reopens it
  std::string profile;
  std::string parameters;   ///< every parameter as name=value, comma separated
  std::string state_file;
  uint32_t state_format = 0;
  std::string note;         ///< what is virtual, in plain words
};

/// One drive of a multi-drive run (`ptsuite run TEST TARGET1 TARGET2 ...`).
struct LockstepDrive {
  std::string label;    ///< its run directory's name under the run root, and its job's id in each cell
  std::string target;   ///< as records store it
  std::string serial;
  uint32_t job_target = 0;  ///< the cell's target index its worker runs on (the job → target mapping)
};

/// Set when the run was one drive of several run in lockstep: each cell ran on every drive in
/// the same interval, as one multi-job cell with one job per drive (docs/multi-drive.md).
struct LockstepInfo {
  std::string run_root;              ///< the directory holding every drive's run and the aggregate
  std::string label;                 ///< this drive's
  std::vector<LockstepDrive> drives; ///< every drive of the run, in the order given
  std::string rule;                  ///< how steady state and the Measurement Window are judged, in words
};

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
  Consent consent;  ///< what the destruction of `device` was confirmed with
  WriteCacheState write_cache = WriteCacheState::Unknown;  ///< the state the run established
  /// The operator's setting, read before the run first changed the cache; set back (current
  /// and, where the drive saved one, saved) when the run or a resume of it ends.
  WriteCacheSetting write_cache_original;
  TestPlan plan;
  std::vector<SubTestRecord> subtests;
  std::vector<Deviation> deviations;
  std::vector<Transition> transitions;
  std::vector<OperatorField> operator_fields;  ///< as the operator stated them; see OperatorField
  /// True when every time in the record (wall stamps, durations, gaps, latencies) is the
  /// target's virtual time (a simulated drive), anchored to real time when the process
  /// attached; false for real time.
  bool virtual_time = false;
  std::optional<SimulatedDriveInfo> simulated_drive;
  std::optional<LockstepInfo> lockstep;  ///< one drive of a multi-drive run
};

}  // namespace pts::model
