// steady/steady_state.cpp — see steady_state.h. The least-squares fit uses Eigen (the only
// file of ptsuite that includes it); the closed-form twin exists for the agreement test.
#include "steady/steady_state.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <string>

namespace pts::steady {
namespace {

struct Line {
  double slope = 0;
  double intercept = 0;
};

/// `measured <= allowed` with a relative tolerance for floating-point noise only.
bool within(double measured, double allowed, double average) {
  const double scale = std::max(std::fabs(allowed), std::fabs(average));
  return measured <= allowed + kRelativeEpsilon * scale;
}

bool all_finite(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

/// Least squares y = b·R + a with Eigen. Rounds are centred on their mean, which makes the
/// two columns orthogonal: the normal equations are then diagonal (condition number ≤ n),
/// as accurate as a QR solve for any window position, and exact on integer data (TV-9's
/// slope comes out as 25, not 24.99999999999996).
Line fit_eigen(const std::vector<double>& values, uint32_t first_round) {
  const Eigen::Index n = static_cast<Eigen::Index>(values.size());
  const double mean_round = first_round + (static_cast<double>(n) - 1.0) / 2.0;
  Eigen::MatrixXd a(n, 2);
  Eigen::VectorXd y(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    a(i, 0) = static_cast<double>(first_round + i) - mean_round;
    a(i, 1) = 1.0;
    y(i) = values[static_cast<size_t>(i)];
  }
  const Eigen::Vector2d x = (a.transpose() * a).ldlt().solve(a.transpose() * y);
  return Line{x(0), x(1) - x(0) * mean_round};
}

/// Closed-form least squares: b = Σ(R−R̄)(y−ȳ) / Σ(R−R̄)², a = ȳ − b·R̄.
Line fit_closed_form(const std::vector<double>& values, uint32_t first_round) {
  const double n = static_cast<double>(values.size());
  const double mean_round = first_round + (n - 1.0) / 2.0;
  double mean_y = 0;
  for (double v : values) mean_y += v;
  mean_y /= n;
  double sxy = 0, sxx = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    const double dx = static_cast<double>(first_round + i) - mean_round;
    sxy += dx * (values[i] - mean_y);
    sxx += dx * dx;
  }
  const double b = sxy / sxx;
  return Line{b, mean_y - b * mean_round};
}

template <typename Fit>
model::WindowAssessment assess(const std::vector<double>& values, uint32_t first_round, double data_limit,
                               double slope_limit, Fit fit) {
  model::WindowAssessment w;
  w.first_round = first_round;
  w.last_round = values.empty() ? first_round : first_round + static_cast<uint32_t>(values.size()) - 1;
  w.values = values;
  if (values.size() < 2 || !all_finite(values)) return w;  // nothing to fit: not steady

  double sum = 0;
  for (double v : values) sum += v;
  w.average = sum / static_cast<double>(values.size());
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  w.data_excursion = *hi - *lo;

  const Line line = fit(values, first_round);
  w.slope = line.slope;
  w.intercept = line.intercept;
  w.slope_excursion = std::fabs(line.slope) * static_cast<double>(w.last_round - w.first_round);

  w.allowed_data_excursion = data_limit * w.average;
  w.allowed_slope_excursion = slope_limit * w.average;
  w.data_ok = within(w.data_excursion, w.allowed_data_excursion, w.average);
  w.slope_ok = within(w.slope_excursion, w.allowed_slope_excursion, w.average);
  // A window whose average is 0 (nothing completed) or below is never steady: its limits are
  // 0, and "no I/O at all, every Round" would otherwise pass both criteria.
  w.steady = w.data_ok && w.slope_ok && w.average > 0;
  return w;
}

core::Error internal(std::string msg) { return core::Error(core::ErrorKind::Internal, std::move(msg)); }

}  // namespace

model::WindowAssessment assess_window(const std::vector<double>& values, uint32_t first_round, double data_limit,
                                      double slope_limit) {
  return assess(values, first_round, data_limit, slope_limit, fit_eigen);
}

model::WindowAssessment assess_window_closed_form(const std::vector<double>& values, uint32_t first_round,
                                                  double data_limit, double slope_limit) {
  return assess(values, first_round, data_limit, slope_limit, fit_closed_form);
}

double tracking_value(const model::CellResult& cell, model::Metric metric) {
  switch (metric) {
    case model::Metric::Iops: return cell.iops;
    case model::Metric::Mbps: return cell.mbps;
    case model::Metric::MeanLatencyNs: return cell.latency.mean_ns;
    case model::Metric::MaxLatencyNs: return static_cast<double>(cell.latency.max_ns);
  }
  return 0;
}

std::optional<double> tracking_value(const model::RoundRecord& round, const model::TrackingVariable& variable) {
  for (const auto& cell : round.cells)
    if (cell.cell_id == variable.cell_id) return tracking_value(cell, variable.metric);
  return std::nullopt;
}

core::Result<model::SteadyStateVerdict> assess_round(const model::TestPlan& plan, const model::SubTestPlan& sub,
                                                     const std::vector<std::vector<double>>& series,
                                                     uint32_t round) {
  if (round == 0) return internal("assess_round: rounds are numbered from 1");
  if (series.size() != sub.tracking.size())
    return internal("assess_round: " + std::to_string(series.size()) + " series for " +
                    std::to_string(sub.tracking.size()) + " Tracking Variables of sub-test " + sub.id);
  const uint32_t window = std::max<uint32_t>(plan.window_rounds, 2);
  model::SteadyStateVerdict verdict;
  verdict.round = round;
  verdict.steady = !sub.tracking.empty() && round >= window;
  for (size_t v = 0; v < sub.tracking.size(); ++v) {
    if (series[v].size() < round)
      return internal("assess_round: Tracking Variable " + sub.tracking[v].label + " has " +
                      std::to_string(series[v].size()) + " values, round " + std::to_string(round) + " needs " +
                      std::to_string(round));
    model::TrackingVerdict tv;
    tv.variable = sub.tracking[v];
    if (round < window) {
      tv.window.first_round = 1;
      tv.window.last_round = round;
      tv.window.values.assign(series[v].begin(), series[v].begin() + round);
    } else {
      const uint32_t first = round - window + 1;
      std::vector<double> values(series[v].begin() + (first - 1), series[v].begin() + round);
      tv.window = assess_window(values, first, plan.data_excursion_limit, plan.slope_excursion_limit);
    }
    verdict.steady = verdict.steady && tv.window.steady;
    verdict.variables.push_back(std::move(tv));
  }
  return verdict;
}

core::Result<model::SteadyStateVerdict> assess_round(const model::TestPlan& plan, const model::SubTestPlan& sub,
                                                     const std::vector<model::RoundRecord>& rounds,
                                                     uint32_t round) {
  if (rounds.size() < round)
    return internal("assess_round: " + std::to_string(rounds.size()) + " rounds recorded, round " +
                    std::to_string(round) + " asked");
  std::vector<std::vector<double>> series(sub.tracking.size());
  for (size_t v = 0; v < sub.tracking.size(); ++v) {
    for (uint32_t r = 0; r < round; ++r) {
      auto value = tracking_value(rounds[r], sub.tracking[v]);
      if (!value)
        return internal("assess_round: round " + std::to_string(r + 1) + " has no cell " +
                        sub.tracking[v].cell_id + " (Tracking Variable " + sub.tracking[v].label + ")");
      series[v].push_back(*value);
    }
  }
  return assess_round(plan, sub, series, round);
}

SeriesAnalysis analyze_series(const std::vector<double>& values, uint32_t window_rounds, double data_limit,
                              double slope_limit) {
  SeriesAnalysis out;
  out.window_rounds = window_rounds;
  if (window_rounds < 2 || values.size() < window_rounds) return out;
  for (size_t last = window_rounds; last <= values.size(); ++last) {
    const size_t first = last - window_rounds;  // 0-based index of the window's first value
    std::vector<double> w(values.begin() + first, values.begin() + last);
    out.windows.push_back(assess_window(w, static_cast<uint32_t>(first + 1), data_limit, slope_limit));
    if (!out.first_steady_round && out.windows.back().steady) out.first_steady_round = static_cast<uint32_t>(last);
  }
  return out;
}

}  // namespace pts::steady
