// model/plan.h — a fully resolved PTS test plan: what config/ produces from a tests-pts
// definition plus CLI overrides, what pts/ executes and what the run record stores.
// May use: core.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/access_spec.h"
#include "model/advanced_plan.h"
#include "model/purge.h"

namespace pts::model {

/// The quantity of a cell that a Tracking Variable follows round by round.
enum class Metric {
  Iops,          ///< read + write IOPS
  Mbps,          ///< MB/s (10^6 B/s)
  MeanLatencyNs, ///< ART
  MaxLatencyNs   ///< MRT
};

/// A Tracking Variable: one metric of one cell, tested for steady state.
struct TrackingVariable {
  std::string cell_id;
  Metric metric = Metric::Iops;
  std::string label;  ///< e.g. "RND 4 KiB 0/100 IOPS"
};

/// One cell of the test matrix (one access spec within a Round).
struct CellPlan {
  std::string id;     ///< stable id, e.g. "rw65-bs4096"
  std::string label;  ///< e.g. "4 KiB 65/35"
  AccessSpec spec;
  bool applicable = true;              ///< false e.g. for 0.5 KiB on a 4Kn namespace
  std::string not_applicable_reason;
};

/// A sub-test with its own purge and WIPC (Throughput has SEQ 128 KiB and SEQ 1024 KiB).
struct SubTestPlan {
  std::string id;      ///< "main", "bs128k", "bs1024k"
  std::string title;   ///< e.g. "TP – SEQ 1024KiB"
  bool purge = true;
  bool wipc_enabled = true;
  AccessSpec wipc;     ///< SEQ writes over the ActiveRange; bytes_limit = multiple × user capacity
  std::vector<CellPlan> cells;  ///< in spec order: R/W mix outer, block size inner
  std::vector<TrackingVariable> tracking;
  /// How the procedure runs this sub-test (model::role, advanced_plan.h); empty = steady Rounds.
  std::string role;
  uint32_t role_index = 0;  ///< which wait state (HIR) or histogram point (DIRTH: 0 Max, 1 Mid, 2 Min)
};

/// A resolved test plan.
struct TestPlan {
  std::string test_id;        ///< "iops", "throughput", "latency"
  std::string title;          ///< "IOPS"
  std::string pts_edition;    ///< "pts-e-1.1" | "pts-2.0.2"
  std::string device_class;   ///< "enterprise" | "client"
  std::string template_name;  ///< report layout in templates/
  std::string definition_file;
  bool write_cache_enabled = false;  ///< required cache state (E: disabled, C: enabled)
  double active_range_pct = 100.0;
  /// Client AR segmentation as run (count 0 = none): every cell touches only these segments;
  /// their total is the AR Amount; the layout (start offsets, ascending) is drawn from the
  /// seed by model::segment_layout and recorded here once. WIPC is not segmented.
  ArSegmentation ar_segments;
  uint64_t ar_amount_bytes = 0;
  std::vector<uint64_t> ar_segment_starts_bytes;
  uint32_t threads = 1;              ///< TC of the Rounds
  uint32_t queue_depth = 1;          ///< QD per thread of the Rounds
  uint32_t wipc_threads = 1;         ///< WIPC's own TC (definition key, --wipc-threads)
  uint32_t wipc_queue_depth = 32;    ///< WIPC's own QD per thread (definition key, --wipc-oio)
  uint64_t poll_budget_ns = kDefaultPollBudgetNs;  ///< low-depth poll budget ([engine], --poll-budget)
  double cell_seconds = 60.0;        ///< as run
  double spec_cell_seconds = 60.0;   ///< as the spec requires
  uint32_t window_rounds = 5;        ///< Measurement Window length
  uint32_t max_rounds = 25;
  bool continue_past_max = false;
  double wipc_capacity_multiple = 2.0;  ///< WIPC writes multiple × user capacity over the AR
  double data_excursion_limit = 0.20;   ///< of the window average
  double slope_excursion_limit = 0.10;  ///< of the window average
  PurgeMethod purge_method = PurgeMethod::None;
  bool purge_auto = true;
  bool accept_purge_failure = false;  ///< operator accepts a failed/unverified purge (then a deviation)
  std::string data_pattern = "random";
  std::vector<SubTestPlan> subtests;
  /// The registered procedure that runs the plan (pts/procedure.cpp); empty in records older
  /// than the advanced tests = found by test_id.
  std::string procedure;
  double time_scale = 1.0;  ///< --time-scale: every phase length multiplied by it (1 = the spec's)
  /// How ptsuite reads details the spec leaves open or sources leave unconfirmed, in plain
  /// words (printed by `plan` and on the report).
  std::vector<std::string> interpretations;
  std::optional<WsatPlan> wsat;
  std::optional<HirPlan> hir;
  std::optional<XsrPlan> xsr;
  std::optional<DirthPlan> dirth;
};

}  // namespace pts::model
