// model/plan.h — a fully resolved PTS test plan: what config/ produces from a tests-pts
// definition plus CLI overrides, what pts/ executes and what the run record stores.
// May use: core.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/access_spec.h"
#include "model/dirth_plan.h"
#include "model/hir_plan.h"
#include "model/purge.h"
#include "model/review_plan.h"
#include "model/qos_plan.h"
#include "model/wsat_plan.h"
#include "model/xsr_plan.h"

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

/// How a procedure runs one of its sub-tests. Stored in the record and named in templates by
/// role_name(); a new procedure whose sub-tests run in a way of their own adds its roles here.
enum class SubTestRole {
  SteadyRounds,    ///< "": purge, WIPC when planned, Rounds until steady (also preconditioning)
  WsatSamples,     ///< "wsat-samples": one cell per Round until a stop rule
  HirWaitState,    ///< "hir-wait-state": repetitions × (Access A + idle), then Access C
  XsrGroups,       ///< "xsr-groups": Access Groups 1, 2, 3 in turn
  DirthSweep,      ///< "dirth-sweep": steady Rounds over the TC × QD grid
  DirthHistogram,  ///< "dirth-histogram": pre-write + capture at a chosen point
  ReviewPrecondition,  ///< "review-precondition": the review labs' preconditioning steps, once each
  CurvePoints,     ///< "curve-points": max rate, then paced points at fractions of it
  SweepSteps,      ///< "sweep-steps": ramp + measured interval per step
  QosSteps         ///< "qos-steps": purge, preconditioning, then one multi-job cell per step
};

/// "" for SteadyRounds, "wsat-samples", ... as in run.json and templates/*.toml.
const char* role_name(SubTestRole role);
/// The role a name stands for; nullopt for an unknown name.
std::optional<SubTestRole> role_from_name(std::string_view name);
/// Every role's name, quoted, for messages: "\"\", \"wsat-samples\", ...".
std::string role_names();

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
  /// How the procedure runs this sub-test.
  SubTestRole role = SubTestRole::SteadyRounds;
  uint32_t role_index = 0;  ///< which wait state (HIR) or histogram point (DIRTH: 0 Max, 1 Mid, 2 Min)
};

/// The generic steady-Rounds procedure's own parameters: none beyond the TestPlan's Rounds
/// settings (IOPS, Throughput and Latency run it).
struct SteadyRoundsPlan {};

/// What a procedure adds to the plan: exactly one procedure's own parameters. A procedure with
/// parameters of its own adds its plan type here (and its JSON key in results/codec_record.cpp).
using ProcedurePlan = std::variant<SteadyRoundsPlan, WsatPlan, HirPlan, XsrPlan, DirthPlan,
                                   CurvePlan, SweepPlan, QosPlan>;

/// A resolved test plan.
struct TestPlan {
  std::string test_id;        ///< "iops", "throughput", "latency", ...
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
  /// The procedure that runs the plan (a row of config/procedure.h); empty in records older
  /// than the procedure table = the steady-Rounds procedure.
  std::string procedure;
  double time_scale = 1.0;  ///< --time-scale: every phase length multiplied by it (1 = the spec's)
  /// How ptsuite reads details the spec leaves open or sources leave unconfirmed, in plain
  /// words (printed by `plan` and on the report).
  std::vector<std::string> interpretations;
  /// The procedure's own parameters (run.json: the keys "wsat", "hir", "xsr", "dirth").
  ProcedurePlan procedure_plan;

  /// The procedure's own parameters of type P, or nullptr when the plan holds another's.
  template <typename P>
  const P* params() const { return std::get_if<P>(&procedure_plan); }
  template <typename P>
  P* params() { return std::get_if<P>(&procedure_plan); }
};

}  // namespace pts::model
