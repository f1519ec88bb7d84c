// report/template_spec.h — a report layout as plain data: what templates/*.toml describe and
// what the generic writer renders. No rendering and no record access here.
//
// Vocabulary (docs/report.md): a template has sheets; a sheet may repeat per sub-test or per
// Tracking Variable; a sheet holds tables (selections from the RunRecord) and charts (drawn
// from one table of the same sheet). Every sheet gets the SNIA header block automatically.
// May use: model (the sub-test roles a sheet selects).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/plan.h"

namespace pts::report {

/// How often a sheet appears.
enum class SheetRepeat {
  Once,      ///< one sheet for the whole run
  Subtest,   ///< one sheet per sub-test (Throughput: SEQ 128 KiB, SEQ 1024 KiB)
  Tracking   ///< one sheet per Tracking Variable of every sub-test
};

/// What a table selects from the record.
enum class TableKind {
  Convergence,    ///< rows = Rounds 1…n, columns = selected cells, value = metric per Round
  Window,         ///< rows = Measurement Window Rounds: value, average, 110 %/90 % of it, fit
  Determination,  ///< the stored steady-state determination of one Tracking Variable
  Matrix,         ///< rows × columns of cells, value = the stored window result of the metric
  Raw,            ///< every Round's every cell, every field (the same columns as the CSV)
  // The tests with phases of their own (report/phase_tables.cpp):
  Samples,        ///< every cell in Round order (WSAT/XSR samples, HIR Access A/C): x = `x`, columns = `metrics`
  Findings,       ///< the findings pts stored per sub-test: long form, or rows = sub-tests × `keys`
  Interpretations,///< the plan's readings of unconfirmed details and the time scale, in words
  Points,         ///< one row per cell: x = window `x_metric`, a column per `series_label` value = `metric`
  Histogram,      ///< the response-time histogram of a sub-test's `capture` cell, in log bins (ms)
  // DIRTH / ECW (report/demand_tables.cpp):
  Toio,           ///< one row per TC × QD point: x = total OIO (TC × QD), window IOPS and ART
  AccessMix,      ///< the stimulus's block-size × LBA-range access probabilities, as run
  // Curves and sweeps (report/run_tables.cpp):
  Runs,           ///< one row per measured run (curve, sweep): x = `x_metric`, then `metrics` (run_tables.h)
  // Multi-job cells (report/phase_tables.cpp):
  Jobs            ///< a multi-job cell's jobs: a row per job of `job_prefix`, a column per cell (step) = `metrics[0]`
};

/// The x axis of a Samples table.
enum class SampleAxis {
  Minutes,     ///< elapsed time from the sub-test's first cell: cell seconds + host idle
  Tgbw,        ///< total GB (10^9 B) written by the sub-test so far (TGBW)
  DriveFills,  ///< bytes written so far ÷ the user capacity
  Sample,      ///< 1, 2, 3, …
  Round,       ///< the Round a sample ends, as a fraction: sample k of n in Round r at r − 1 + k / n
  WriteMbps    ///< the cell's achieved write MB/s (the write-pressure steps)
};

/// A cell dimension used for matrix rows/columns and series labels.
enum class Dimension { BlockSize, RwMix, Cell, Threads, QueueDepth };

/// Keeps only cells whose spec matches every set field.
struct CellFilter {
  std::optional<uint32_t> read_pct;
  std::optional<uint32_t> block_bytes;
  std::string id_prefix;  ///< cell id starts with it ("tc": DIRTH's sweep points); empty = any
  /// Only the cells with the most threads among those the other fields keep (DIRTH's "TC 32
  /// IOPS vs Round, all QD" whatever the grid's largest TC is).
  bool max_threads = false;
};

struct TableSpec {
  std::string id;            ///< referenced by charts on the same sheet
  TableKind kind = TableKind::Matrix;
  std::string caption;       ///< printed above the table ("{metric}" etc. expanded)
  std::string metric;        ///< see record_view.h metric names ("iops", "art_ms", ...)
  CellFilter filter;
  Dimension rows = Dimension::BlockSize;
  Dimension columns = Dimension::RwMix;
  Dimension series_label = Dimension::BlockSize;  ///< convergence column headers
  bool printed = true;       ///< false: chart data only, written below the printed page
  // Samples / Points / Findings (the tests with phases of their own):
  SampleAxis x = SampleAxis::Minutes;
  std::vector<std::string> metrics;  ///< Samples: one column per metric
  std::vector<std::string> levels;   ///< Samples: a constant column per finding key (a plateau, a baseline)
  std::string mark;                  ///< Samples: a finding holding a sample number; its first metric there only
  bool series_by_subtest = false;    ///< Samples: one column per sub-test (rows grouped by sub-test)
  bool series_by_cell = false;       ///< Samples, with series_by_subtest: one column per sub-test × cell
  bool continuous_time = false;      ///< Samples: x runs on across the sub-tests in scope (plan order)
  std::string x_metric;              ///< Points: the window metric on the x axis
  std::vector<std::string> keys;     ///< Findings: columns (rows = sub-tests); empty = long form
  /// Runs: "read_pct" or "total_qd" = one column of metrics[0] per value of it (a chart line
  /// each); empty = one column per metric.
  std::string pivot;
  std::string job_prefix;            ///< Jobs: only jobs whose id starts with it ("read"); x = its trailing number
  int source_line = 0;       ///< template line, for error messages
};

enum class ChartType { Line, Scatter, Column };

/// Per-series look, matched by the table column's key ("value", "average", "fit", ...).
struct SeriesStyle {
  std::string key;
  std::string color;   ///< "#RRGGBB"; empty = automatic
  std::string dash;    ///< "solid", "dash", "round_dot", "long_dash"; empty = solid
  bool line = true;    ///< false: markers only
  std::string marker;  ///< "none", "circle", "diamond", "square", "triangle"; empty = automatic
  double width = 0;    ///< points; 0 = automatic
};

struct ChartSpec {
  std::string table;        ///< id of a table on the same sheet
  ChartType type = ChartType::Line;
  std::string title;
  std::string x_title;
  std::string y_title;
  int x_log_base = 0;       ///< 0 = linear
  int y_log_base = 0;
  std::vector<SeriesStyle> styles;
  /// The table columns drawn, by key, in table order; empty = every column after the first.
  std::vector<std::string> series;
  bool y_range_from_data = false;  ///< y axis spans the data (not from 0): window plots
  /// A text column whose cells label each point of every series drawn ("10 %", "max"); "" = none.
  std::string point_labels;
  int width_px = 0;         ///< 0 = the page's width
  int height_px = 380;
  int source_line = 0;
};

struct SheetSpec {
  std::string name;    ///< sheet tab name; "{subtest}", "{index}" expanded, ≤ 31 chars
  std::string title;   ///< page sub-title, e.g. "IOPS – Block Size x RW Mix Matrix"
  SheetRepeat repeat = SheetRepeat::Once;
  /// Only sub-tests with this plan role (model::role_name: role = "" selects the steady-Rounds
  /// sub-tests); any_role = every one (no `role` key).
  model::SubTestRole role = model::SubTestRole::SteadyRounds;
  bool any_role = true;
  /// Consecutive sheets repeated per sub-test with the same group are laid out sub-test by
  /// sub-test (DIRTH: MaxIOPS pre-writes, MaxIOPS histogram, MidIOPS pre-writes, …), not sheet
  /// by sheet. Empty = none.
  std::string group;
  std::vector<TableSpec> tables;
  std::vector<ChartSpec> charts;
  int source_line = 0;
};

/// A headline number of the summary page: the stored window result of `metric` for the cell
/// that `filter` selects (the first match in plan order, in `subtest` when given).
struct HeadlineSpec {
  std::string label;    ///< "RND 4 KiB write IOPS"
  std::string metric;   ///< a window metric (record_view.h)
  CellFilter filter;
  std::string subtest;  ///< plan sub-test id; empty = any
  std::string finding;  ///< instead of a metric: a finding key pts stored (first sub-test holding it)
  int source_line = 0;
};

/// One report layout (templates/<name>.toml). Tables and charts are placed top to bottom in
/// template order (source_line); every report sheet is one printed page (docs/report.md).
struct ReportTemplate {
  std::string name;       ///< matches TestPlan::template_name
  std::string test_name;  ///< "IOPS", printed as "<test_name> Test – Report Page"
  std::string subtitle;   ///< title-bar sub-title, e.g. "IOPS – Block Size x RW Mix Matrix"; "" = test_name
  std::string source_file;
  std::vector<SheetSpec> sheets;
  std::vector<HeadlineSpec> headlines;  ///< summary page, in order
};

}  // namespace pts::report
