// app/cmd_analyze.cpp — `ptsuite analyze SERIES.csv [--window 5] [--json]`: the steady-state
// assessment of every window of a series (one value per Round), so a lab can audit a
// vendor's data. Reading the CSV is config/series_csv, the maths steady/analyze_series; this
// file parses flags and prints. May use: config, steady, nlohmann json.
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "app/json_out.h"
#include "config/series_csv.h"
#include "core/option_text.h"
#include "steady/steady_state.h"

namespace pts::app {
namespace {

constexpr double kDataLimit = 0.20;
constexpr double kSlopeLimit = 0.10;

/// Up to 4 decimals, trailing zeros removed: 11726.8, 219.6692, -6.4, 0.
std::string fmt(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

nlohmann::json window_json(const model::WindowAssessment& w) {
  return {{"first_round", w.first_round},
          {"last_round", w.last_round},
          {"values", w.values},
          {"average", w.average},
          {"slope", w.slope},
          {"intercept", w.intercept},
          {"data_excursion", w.data_excursion},
          {"slope_excursion", w.slope_excursion},
          {"allowed_data_excursion", w.allowed_data_excursion},
          {"allowed_slope_excursion", w.allowed_slope_excursion},
          {"data_ok", w.data_ok},
          {"slope_ok", w.slope_ok},
          {"steady", w.steady}};
}

void print_json(const std::string& file, const std::vector<double>& values, const steady::SeriesAnalysis& a) {
  nlohmann::json out;
  out["series"] = file;
  out["rounds"] = values.size();
  out["window_rounds"] = a.window_rounds;
  out["data_excursion_limit"] = kDataLimit;
  out["slope_excursion_limit"] = kSlopeLimit;
  out["windows"] = nlohmann::json::array();
  for (const auto& w : a.windows) out["windows"].push_back(window_json(w));
  out["first_steady_round"] = a.first_steady_round ? nlohmann::json(*a.first_steady_round) : nlohmann::json(nullptr);
  std::printf("%s\n", json_text(out).c_str());
}

void print_table(const std::string& file, const std::vector<double>& values, const steady::SeriesAnalysis& a) {
  std::printf("Series %s: %zu Rounds; Measurement Window %u Rounds\n", file.c_str(), values.size(), a.window_rounds);
  std::printf("Steady when Data Excursion <= 20 %% and Slope Excursion <= 10 %% of the window average "
              "(inclusive, full precision)\n\n");
  std::printf("%-9s %14s %12s %14s %12s %12s %12s %12s  %-5s %-5s %s\n", "Rounds", "Average", "Slope", "Intercept",
              "Data exc", "Allowed", "Slope exc", "Allowed", "Data", "Slope", "Steady");
  for (const auto& w : a.windows) {
    const std::string rounds = std::to_string(w.first_round) + "-" + std::to_string(w.last_round);
    std::printf("%-9s %14s %12s %14s %12s %12s %12s %12s  %-5s %-5s %s\n", rounds.c_str(), fmt(w.average).c_str(),
                fmt(w.slope).c_str(), fmt(w.intercept).c_str(), fmt(w.data_excursion).c_str(),
                fmt(w.allowed_data_excursion).c_str(), fmt(w.slope_excursion).c_str(),
                fmt(w.allowed_slope_excursion).c_str(), w.data_ok ? "pass" : "FAIL", w.slope_ok ? "pass" : "FAIL",
                w.steady ? "STEADY" : "no");
  }
  if (a.first_steady_round) {
    const uint32_t x = *a.first_steady_round;
    std::printf("\nFirst steady round: %u (Measurement Window Rounds %u-%u)\n", x, x - a.window_rounds + 1, x);
  } else {
    std::printf("\nSteady state not achieved in any window (last window Rounds %zu-%zu)\n",
                values.size() - a.window_rounds + 1, values.size());
  }
}

}  // namespace

int cmd_analyze(const AnalyzeArgs& args) {
  std::vector<std::string> errors = args.errors;
  const std::string& file = args.series;
  uint32_t window = 5;
  const bool json = args.json;
  if (args.window) {
    const std::string& v = *args.window;
    char* end = nullptr;
    const long n = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || n < 2 || n > 1000)
      errors.push_back(core::bad_option_value("--window", v, "is not a Round count (2…1000)"));
    else
      window = static_cast<uint32_t>(n);
  }
  if (file.empty()) errors.push_back("SERIES.csv: missing (see ptsuite analyze --help)");
  std::vector<double> values;
  if (!file.empty()) {
    auto loaded = config::load_series_csv(file);
    if (!loaded) errors.insert(errors.end(), loaded.error().messages.begin(), loaded.error().messages.end());
    else values = std::move(loaded.value());
  }
  if (errors.empty() && values.size() < window)
    errors.push_back(file + ": " + std::to_string(values.size()) + " value(s); a Measurement Window of " +
                     std::to_string(window) + " Rounds needs at least " + std::to_string(window));
  if (!errors.empty()) {
    for (const auto& e : errors) std::fprintf(stderr, "ptsuite analyze: %s\n", e.c_str());
    return 2;
  }
  const auto analysis = steady::analyze_series(values, window, kDataLimit, kSlopeLimit);
  if (json) print_json(file, values, analysis);
  else print_table(file, values, analysis);
  return 0;
}

}  // namespace pts::app
