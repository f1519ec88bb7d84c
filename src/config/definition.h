// config/definition.h — a PTS test definition as read from tests-pts/<test>.toml: the parts
// every procedure shares (durations, preconditioning, the per-edition / per-class settings:
// write cache, ActiveRange, TC/QD), the shared tables a procedure may read (the [matrix] and
// its [[subtest]]s, Tracking Variables, named [workload.ID]s) and the procedure's own table as
// its row read it (config/procedure.h). A definition carries only the keys its procedure reads.
// Loading validates everything and reports every problem at once as "file:line: message".
// May use: core, model (toml++ only in the .cpp files, through the internal toml_reader.h).
#pragma once

#include <any>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/result.h"
#include "model/access_spec.h"
#include "model/plan.h"

namespace pts::config {

/// How binding the definition's TC/QD is for an edition/class (decides whether an override
/// is a deviation).
enum class TcQdRule {
  Required,       ///< the spec fixes TC/QD (Latency: TC 1 / QD 1): an override is a deviation
  Recommended,    ///< the spec recommends it (PTS 2.0.2): an override is a deviation
  OperatorChoice  ///< the spec leaves it to the operator (PTS-E 1.1): ptsuite default, recorded
};

/// A Tracking Variable as written in a definition: one metric of the cell (read_pct, block).
struct TrackingDef {
  uint32_t read_pct = 0;
  uint32_t block_bytes = 0;
  model::Metric metric = model::Metric::Iops;
  int line = 0;  ///< source line, for messages
};

/// Settings of one edition × class, e.g. [editions."pts-2.0.2".enterprise].
struct ClassSettings {
  bool write_cache_enabled = false;   ///< required cache state (WCE / WCD)
  double active_range_pct = 100.0;    ///< the spec's ActiveRange for this class
  /// AR Segments the spec asks for (PTS-C / 2.0.2 client: 2048); 1 = one contiguous range.
  uint32_t active_range_segments = 1;
  /// AR Amount: the capacity the segments cover together (needed with segments > 1). The
  /// spec digest marks its value UNCONFIRMED (8 or 16 GiB); the definition states the choice.
  uint64_t active_range_amount_bytes = 0;
  int segments_line = 0;  ///< source lines, for messages
  int amount_line = 0;
  uint32_t threads = 1;               ///< TC
  uint32_t queue_depth = 1;           ///< QD per thread
  TcQdRule tc_qd_rule = TcQdRule::OperatorChoice;
  std::vector<TrackingDef> tracking;  ///< each belongs to the sub-test holding its cell
  std::vector<std::string> subtests;  ///< sub-test ids run in this class; empty = all
  /// The [workload.ID]s this edition/class lists as its stimulus (--workload may pick one
  /// without a deviation). Empty = only the procedure table's default.
  std::vector<std::string> workloads;
  int line = 0;
};

/// A sub-test with its own purge and WIPC ([[subtest]]); a test without [[subtest]] has one
/// implicit sub-test "main" using the [matrix] block sizes.
struct SubTestDef {
  std::string id;
  std::string title;
  std::vector<uint32_t> block_sizes;  ///< bytes, in spec order (largest first)
  int line = 0;
};

/// A named access spec ([workload.ID]): pattern, R/W mix, one block size or a split.
struct WorkloadDef {
  std::string id;
  std::string title;                          ///< e.g. "Write Intensive RND 4 KiB W"
  model::AccessPattern pattern = model::AccessPattern::Random;
  uint32_t read_pct = 0;
  uint32_t block_bytes = 0;                   ///< 0 when bs_split is set
  std::vector<model::BlockSizeShare> bs_split;
  std::vector<model::AccessZone> zones;       ///< zoned random distribution (zones = "50/5:30/15:20/80"); empty = uniform
  int line = 0;
  int zones_line = 0;
};

/// A whole definition file, validated.
struct TestDefinition {
  std::string file;                  ///< path it was loaded from
  std::string id;                    ///< "iops"
  std::string title;                 ///< "IOPS"
  std::vector<std::string> aliases;  ///< CLI aliases, e.g. "tp"
  std::string template_name;         ///< report layout in templates/
  std::string description;
  /// [test] procedure: the row of the procedure table that resolves and runs it (omitted: the
  /// table's first row, steady Rounds).
  std::string procedure;

  // [steady_state]
  double cell_seconds = 60.0;        ///< the spec's cell duration
  uint32_t window_rounds = 5;        ///< Measurement Window length
  uint32_t max_rounds = 25;
  double data_excursion_pct = 20.0;  ///< allowed Data Excursion, % of window average
  double slope_excursion_pct = 10.0; ///< allowed Slope Excursion, % of window average

  // [preconditioning]
  bool purge = true;
  bool wipc = true;
  double wipc_capacity_multiple = 2.0;  ///< WIPC writes multiple × user capacity (over the AR)
  uint32_t wipc_block_bytes = 0;        ///< SEQ write block; 0 = the sub-test's block size
  /// WIPC's own TC/QD (the spec leaves them to the operator; not the test's TC/QD).
  uint32_t wipc_threads = 1;
  uint32_t wipc_queue_depth = 32;

  // [engine]
  /// Low-depth completion poll budget (poll_budget_us): at TC×QD ≤ 4 each worker polls for
  /// the completion up to this long before sleeping. 0 = never poll; omitted = auto
  /// (model::kPollBudgetAuto: the engine decides by the target).
  uint64_t poll_budget_ns = model::kDefaultPollBudgetNs;

  // [matrix]: R/W mix outer loop, block size inner loop
  model::AccessPattern pattern = model::AccessPattern::Random;
  std::vector<uint32_t> rw_mix;       ///< read % in spec order (100 … 0)
  std::vector<uint32_t> block_sizes;  ///< bytes, spec order (1024 KiB … 0.5 KiB)
  std::string data_pattern = "random";
  /// Zoned random distribution of every cell ([matrix] zones = "50/5:30/15:20/80", fio's
  /// zoned syntax, from the start of the ActiveRange); empty = uniform.
  std::vector<model::AccessZone> zones;
  int zones_line = 0;                 ///< source line of zones, for messages

  /// The matrix's sub-tests (never empty when the procedure reads a [matrix]: "main" if none is
  /// written); empty for a procedure that defines its own.
  std::vector<SubTestDef> subtests;

  /// editions[edition][class], e.g. editions["pts-2.0.2"]["client"].
  std::map<std::string, std::map<std::string, ClassSettings>> editions;

  /// [workload.ID] tables, by id (for procedures that run named workloads).
  std::map<std::string, WorkloadDef> workloads;

  /// The procedure's own table ([wsat], [hir], ...) as its row read it: a type only that row
  /// knows (own<T>()). Empty for a procedure without a table of its own.
  std::any own_table;

  template <typename T>
  const T& own() const { return std::any_cast<const T&>(own_table); }
};

/// Reads and validates a definition file. Every problem (TOML syntax, unknown key, wrong
/// type, negative or zero duration, bad block size, tracking cell outside the matrix, ...)
/// is reported in one BadInput error, one message per problem, "file:line: message".
core::Result<TestDefinition> load_definition(const std::string& path);

/// The same from text already in memory (`file` is used in messages only).
core::Result<TestDefinition> parse_definition(const std::string& text, const std::string& file);

/// Known editions ("pts-e-1.1", "pts-2.0.2") and classes ("enterprise", "client").
const std::vector<std::string>& known_editions();
const std::vector<std::string>& known_classes();

/// Stable cell id, e.g. cell_id(65, 4096) == "rw65-bs4096".
std::string cell_id(uint32_t read_pct, uint32_t block_bytes);

/// Metric names as written in definitions: "iops", "mbps", "mean_latency", "max_latency".
const char* metric_name(model::Metric metric);

}  // namespace pts::config
