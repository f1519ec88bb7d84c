// steady/steady_state.h — the PTS steady-state assessment (PTS-E 1.1 / PTS 2.0.2 §2.1.24):
// pure functions over a Measurement Window of Tracking Variable values, returning a verdict
// with every number an auditor needs. No I/O, no clocks, no printing.
// May use: core, model. Eigen is used inside steady_state.cpp only.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/result.h"
#include "model/cell.h"
#include "model/plan.h"
#include "model/run_record.h"
#include "model/verdict.h"

namespace pts::steady {

/// Relative tolerance of the inclusive comparisons: a measured excursion passes when
/// `measured <= allowed + kRelativeEpsilon × max(|allowed|, |average|)`. It only absorbs
/// floating-point noise (values exactly at the limit pass); nothing is rounded.
inline constexpr double kRelativeEpsilon = 1e-9;

/// Assesses one Measurement Window: `values[i]` is the Tracking Variable in round
/// `first_round + i` (rounds are 1-based and consecutive). Computes the average, the
/// least-squares line y = slope·round + intercept (Eigen), the Data Excursion (max − min),
/// the Slope Excursion |slope| × (last_round − first_round), the allowed excursions
/// (`data_limit` and `slope_limit` × average) and pass/fail per criterion, compared
/// inclusively at full precision. Needs at least 2 finite values; with fewer (or with a
/// non-finite value) the window is returned with `steady == false` and no fit. A window whose
/// average is not positive (nothing completed) is never steady.
model::WindowAssessment assess_window(const std::vector<double>& values, uint32_t first_round,
                                      double data_limit = 0.20, double slope_limit = 0.10);

/// The same assessment with the closed-form least-squares formulas
/// b = Σ(R−R̄)(y−ȳ)/Σ(R−R̄)², a = ȳ − b·R̄ (no Eigen). Kept as the oracle for the agreement
/// test; production code calls assess_window().
model::WindowAssessment assess_window_closed_form(const std::vector<double>& values, uint32_t first_round,
                                                  double data_limit = 0.20, double slope_limit = 0.10);

/// The value of a Tracking Variable's metric in a measured cell: Iops → iops (read + write),
/// Mbps → mbps, MeanLatencyNs → latency.mean_ns, MaxLatencyNs → latency.max_ns.
double tracking_value(const model::CellResult& cell, model::Metric metric);

/// The value of `variable` in one round: the cell whose `cell_id` equals
/// `variable.cell_id`; nullopt when the round has no such cell.
std::optional<double> tracking_value(const model::RoundRecord& round, const model::TrackingVariable& variable);

/// Verdict after round `round` (1-based) of a sub-test. `series[v][r − 1]` is Tracking
/// Variable `sub.tracking[v]` in round r; each series needs at least `round` values (extra
/// values are ignored). The window is rounds round − window + 1 … round, with
/// window = plan.window_rounds and the limits plan.data_excursion_limit /
/// plan.slope_excursion_limit. Steady only when EVERY Tracking Variable passes both criteria
/// in that same window (PTS 2.0.2 IOPS: three variables).
/// Before round `window` the verdict is not steady and each variable's window holds the
/// values so far (first_round = 1) without a fit.
/// Errors (ErrorKind::Internal): series count ≠ tracking count, a series shorter than `round`,
/// round == 0.
core::Result<model::SteadyStateVerdict> assess_round(const model::TestPlan& plan, const model::SubTestPlan& sub,
                                                     const std::vector<std::vector<double>>& series,
                                                     uint32_t round);

/// Convenience for pts/: extracts every Tracking Variable from `rounds` (rounds[i] is round
/// i + 1; at least `round` of them) with tracking_value() and calls assess_round() above.
/// A round missing a tracking cell is an Internal error naming the cell and round.
core::Result<model::SteadyStateVerdict> assess_round(const model::TestPlan& plan, const model::SubTestPlan& sub,
                                                     const std::vector<model::RoundRecord>& rounds,
                                                     uint32_t round);

/// Every window of a whole series (`ptsuite analyze`): windows ending at rounds
/// window … values.size(), in order, and the first round x whose window x − window + 1 … x
/// is steady (nullopt when none is).
struct SeriesAnalysis {
  uint32_t window_rounds = 5;
  std::vector<model::WindowAssessment> windows;
  std::optional<uint32_t> first_steady_round;
};

/// Assesses every window of `values` (value i = round i + 1). Fewer values than
/// `window_rounds` gives no windows. `window_rounds` must be ≥ 2.
SeriesAnalysis analyze_series(const std::vector<double>& values, uint32_t window_rounds = 5,
                              double data_limit = 0.20, double slope_limit = 0.10);

}  // namespace pts::steady
