// report/record_view.h — read-only questions the report asks of a RunRecord: which Rounds are
// reported (the stored Measurement Window), a cell's metric in display units, window
// aggregates, SNIA labels. Never recomputes steady state. May use: core, model.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/run_record.h"
#include "report/template_spec.h"

namespace pts::report {

/// A metric a template may select, with its display unit and xlsx number format.
struct MetricInfo {
  std::string_view name;           ///< "iops", "mbps", "art_ms", ...
  std::string_view unit;           ///< "IOPS", "MB/s", "ms"
  std::string_view number_format;  ///< e.g. "#,##0.0" (IOPS to 0.1, MB/s to 0.01)
  bool in_window_results = false;  ///< pts stores its Measurement Window value (matrix, headline)
};

/// nullptr when `name` is not a known metric.
const MetricInfo* find_metric(std::string_view name);
/// Every known metric name, comma separated (for error messages); `window_only`: only those
/// pts stores per cell for the Measurement Window.
std::string metric_names(bool window_only = false);

/// The metric of one cell in display units (IOPS, MB/s = 10^6 B/s, milliseconds).
/// Precondition: find_metric(metric) != nullptr.
double metric_value(const model::CellResult& cell, std::string_view metric);

/// Display unit, scale from the stored unit and formats of a Tracking Variable's metric.
struct TrackingUnit {
  std::string unit;            ///< "IOPS", "MB/s", "ART (ms)", "MRT (ms)"
  double scale = 1.0;          ///< stored value × scale = displayed value (ns → ms: 1e-6)
  std::string number_format;   ///< for values and averages
  std::string detail_format;   ///< for the determination table (more decimals)
  int fit_decimals = 3;        ///< decimals in the "b·R + a" text
};
TrackingUnit tracking_unit(model::Metric metric);

/// The Rounds a sub-test reports. `from_record` is true when they are the stored
/// Measurement Window (window_first_round..window_last_round); false for a partial record
/// without one, where the last ≤ window_rounds recorded Rounds are shown instead.
struct ReportedRounds {
  uint32_t first = 0;
  uint32_t last = 0;
  bool from_record = false;
  bool empty() const { return last == 0; }
};
ReportedRounds reported_rounds(const model::TestPlan& plan, const model::SubTestRecord& st);

/// The stored verdict to show for a sub-test: final_verdict, else the last Round's verdict.
const model::SteadyStateVerdict* shown_verdict(const model::SubTestRecord& st);

const model::CellResult* find_cell(const model::RoundRecord& round, std::string_view cell_id);
const model::RoundRecord* find_round(const model::SubTestRecord& st, uint32_t round);

/// The stored Measurement Window result of `cell_id` (SubTestRecord::window_results, which
/// pts computed over the window Rounds only); nullptr when none is stored.
const model::CellWindowResult* find_window_result(const model::SubTestRecord& st, std::string_view cell_id);

/// `metric` of a stored window result in display units (MRT is the stored maximum, percentiles
/// those of the window's merged histograms, the others the stored means); nullopt for a metric
/// pts did not store for this window (p99/p99.99 in a record from before schema 3), and for a
/// read_*/write_* figure of a cell that had no I/O of that direction.
std::optional<double> window_metric_value(const model::CellWindowResult& w, std::string_view metric);

/// "65/35" (read/write percent).
std::string rw_mix_label(uint32_t read_pct);
/// Block size in KiB as a number (0.5, 4, 1024).
double block_size_kib(uint32_t bytes);
/// "PTS-E 1.1", "PTS 2.0.2" from the plan's edition key.
std::string edition_label(const std::string& edition);
/// Plain words for enums.
std::string purge_method_label(model::PurgeMethod method);
std::string write_cache_label(model::WriteCacheState state);
std::string run_state_label(model::RunState state);
/// Shortest exact decimal text of `v` (locale independent): used by CSV.
std::string exact_number(double v);
/// `v` with at most `decimals` decimals, trailing zeros dropped ("-6.4", "11746").
std::string trimmed_number(double v, int decimals);
/// "Rounds 21–25" or "Round 5".
std::string rounds_label(uint32_t first, uint32_t last);

}  // namespace pts::report

namespace pts::report {

/// The record of plan sub-test `plan_subtest` (matched by id); nullptr if it never started.
const model::SubTestRecord* record_for(const model::RunRecord& record, const model::SubTestPlan& plan_subtest);

}  // namespace pts::report
