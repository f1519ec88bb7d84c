// pts/wsat.cpp — see wsat.h.
#include "pts/wsat.h"

#include <algorithm>
#include <cstdio>

#include "core/units.h"
#include "pts/phase_steps.h"
#include "pts/phases.h"
#include "pts/steady_rounds.h"
#include "pts/window_results.h"
#include "steady/steady_state.h"

namespace pts::runner {

namespace {

using core::ErrorKind;

std::string g(double v) { return short_number(v); }

uint64_t bytes_written(const std::vector<model::CellResult>& samples) {
  uint64_t b = 0;
  for (const auto& s : samples) b += s.write_bytes;
  return b;
}

double stimulus_seconds(const std::vector<model::CellResult>& samples) {
  double t = 0;
  for (const auto& s : samples) t += s.seconds;
  return t;
}

std::vector<model::CellResult> samples_of(const model::SubTestRecord& rec) {
  std::vector<model::CellResult> out;
  for (const auto& r : rec.rounds)
    for (const auto& c : r.cells) out.push_back(c);
  return out;
}

double mean_iops(const std::vector<model::CellResult>& s, size_t first, size_t last) {
  double sum = 0;
  for (size_t k = first; k <= last; ++k) sum += s[k].iops;
  return sum / static_cast<double>(last - first + 1);
}

/// Samples 1 … n as "samples a–b".
std::string range_text(size_t first, size_t last) {
  return first == last ? "sample " + std::to_string(first + 1)
                       : "samples " + std::to_string(first + 1) + "–" + std::to_string(last + 1);
}

/// The latest steady-state verdict over `samples` (the option): of the last complete Round of
/// ss_interval_samples from the window_rounds-th on; nullopt before that or with the option off.
std::optional<model::SteadyStateVerdict> latest_verdict(const model::TestPlan& plan, const model::SubTestPlan& sub,
                                                        const std::vector<model::CellResult>& samples) {
  const auto* w = plan.params<model::WsatPlan>();
  if (!w || !w->stop_at_steady || w->ss_interval_samples == 0) return std::nullopt;
  return wsat_interval_verdict(plan, sub, samples, samples.size() / w->ss_interval_samples);
}

core::Status close_sample(RunContext& ctx, size_t i, uint32_t round) {
  const auto& plan = ctx.record().plan;
  const auto* w = plan.params<model::WsatPlan>();
  std::optional<model::SteadyStateVerdict> verdict;
  const auto samples = samples_of(ctx.record().subtests[i]);
  if (w->stop_at_steady && w->ss_interval_samples && samples.size() % w->ss_interval_samples == 0)
    verdict = latest_verdict(plan, plan.subtests[i], samples);  // judged at the end of each Round only
  return close_round_plain(ctx, i, round, std::nullopt, verdict);
}

core::Status finish(RunContext& ctx, size_t i, const std::string& stop) {
  const auto& plan = ctx.record().plan;
  const auto& rec = ctx.record().subtests[i];
  const auto& w = *plan.params<model::WsatPlan>();
  model::SubTestRecord summary;
  const auto samples = samples_of(rec);
  summary.findings = wsat_findings(w, samples, ctx.record().device.capacity_bytes, stop);
  if (auto v = latest_verdict(plan, plan.subtests[i], samples)) {
    // The window in the record's Rounds (samples): the tracked samples of its first and last Round.
    summary.window_last_round = v->round * w.ss_interval_samples;
    summary.window_first_round = (v->round - plan.window_rounds + 1) * w.ss_interval_samples;
    summary.steady_state_reached = v->steady;
    for (auto& f : wsat_steady_findings(w, *v)) summary.findings.push_back(std::move(f));
    summary.final_verdict = std::move(*v);
  } else if (w.stop_at_steady) {
    summary.findings.push_back(finding("ss_window_iops", "Steady-state window (the option)", std::nullopt, "IOPS",
                                       "not determined: fewer than " + std::to_string(plan.window_rounds) +
                                           " Rounds of " + std::to_string(w.ss_interval_samples) + " samples ran"));
  }
  return finish_subtest_summary(ctx, i, summary,
                                "WSAT ended after " + std::to_string(samples.size()) + " samples: " + stop);
}

}  // namespace

std::optional<model::SteadyStateVerdict> wsat_interval_verdict(const model::TestPlan& plan,
                                                              const model::SubTestPlan& sub,
                                                              const std::vector<model::CellResult>& samples,
                                                              size_t round) {
  const auto* w = plan.params<model::WsatPlan>();
  const size_t per = w ? w->ss_interval_samples : 0;
  const size_t window = plan.window_rounds;
  if (!per || window == 0 || round < window || round * per > samples.size() || sub.tracking.empty())
    return std::nullopt;
  model::SteadyStateVerdict v;
  v.round = static_cast<uint32_t>(round);
  v.steady = true;
  const auto first = static_cast<uint32_t>(round - window + 1);
  for (const auto& tv : sub.tracking) {
    std::vector<double> values;
    for (size_t r = first; r <= round; ++r) values.push_back(steady::tracking_value(samples[r * per - 1], tv.metric));
    auto a = steady::assess_window(values, first, plan.data_excursion_limit, plan.slope_excursion_limit);
    v.steady = v.steady && a.steady;
    v.variables.push_back({tv, std::move(a)});
  }
  return v;
}

std::vector<model::Finding> wsat_steady_findings(const model::WsatPlan& w, const model::SteadyStateVerdict& v) {
  std::vector<model::Finding> out;
  if (v.variables.empty()) return out;
  const auto& a = v.variables[0].window;
  std::string tracked;
  for (uint32_t r = a.first_round; r <= a.last_round; ++r)
    tracked += (tracked.empty() ? "" : ", ") + std::to_string(r * w.ss_interval_samples);
  const std::string where = "Rounds " + std::to_string(a.first_round) + "–" + std::to_string(a.last_round) + " of " +
                            std::to_string(w.ss_interval_samples) + " samples, tracked on samples " + tracked;
  out.push_back(finding("ss_window_iops", "Steady-state window average (the option)", a.average, "IOPS",
                        std::string(v.steady ? "steady" : "NOT steady") + ": " + where));
  out.push_back(finding("ss_data_excursion_iops", "Steady-state data excursion", a.data_excursion, "IOPS",
                        "allowed " + g(a.allowed_data_excursion)));
  out.push_back(finding("ss_slope_excursion_iops", "Steady-state slope excursion", a.slope_excursion, "IOPS",
                        "allowed " + g(a.allowed_slope_excursion) + "; fit " + g(a.slope) + " × Round + " +
                            g(a.intercept)));
  return out;
}

std::string wsat_stop_reason(const model::WsatPlan& w, size_t samples, uint64_t bytes, double secs,
                             bool last_window_steady) {
  if (samples == 0) return "";
  if (bytes >= w.stop_bytes)
    return g(w.capacity_multiple) + " × user capacity written (" + std::to_string(bytes) + " bytes in " +
           g(secs) + " s of stimulus)";
  if (secs + 1e-9 * w.max_seconds >= w.max_seconds)
    return "time limit of " + g(w.max_seconds) + " s of stimulus reached (" + std::to_string(bytes) + " bytes, " +
           g(static_cast<double>(bytes) / static_cast<double>(w.stop_bytes) * w.capacity_multiple) +
           " × capacity written)";
  if (w.stop_at_steady && last_window_steady)
    return "steady state reached (the optional stop: a window of Rounds of " + std::to_string(w.ss_interval_samples) +
           " samples)";
  return "";
}

std::vector<model::Finding> wsat_findings(const model::WsatPlan& w, const std::vector<model::CellResult>& s,
                                          uint64_t capacity, const std::string& stop) {
  std::vector<model::Finding> out;
  const size_t n = s.size();
  const double cap = capacity ? static_cast<double>(capacity) : 1.0;
  const uint64_t bytes = bytes_written(s);
  out.push_back(finding("samples", "Samples run", static_cast<double>(n), "samples"));
  out.push_back(finding("stop", "Stopped because", static_cast<double>(bytes) / cap, "drive fills", stop));
  // TGBW in GiB (2^30 B), the unit of the spec's term "Total GiB Written" and of both peers'
  // plots (CloudHarmony and ADATA divide fio's KiB by 1024²).
  out.push_back(finding("tgbw_gib", "Total GiB written (TGBW)", static_cast<double>(bytes) / 1073741824.0, "GiB"));
  out.push_back(finding("stimulus_minutes", "Stimulus time", stimulus_seconds(s) / 60.0, "min"));
  if (n == 0) return out;
  const size_t fob_last = std::min<size_t>(w.fob_samples, n) - 1;
  const double fob = mean_iops(s, 0, fob_last);
  out.push_back(finding("fob_plateau_iops", "FOB plateau", fob, "IOPS", "mean IOPS of " + range_text(0, fob_last)));
  std::optional<size_t> cliff;
  for (size_t k = 0; k < n && !cliff; ++k)
    if (s[k].iops < w.cliff_fraction * fob) cliff = k;
  const std::string cliff_rule = "first sample below " + g(w.cliff_fraction * 100) + " % of the FOB plateau (" +
                                 g(w.cliff_fraction * fob) + " IOPS)";
  if (cliff) {
    double secs = 0;
    uint64_t before = 0;
    for (size_t k = 0; k < *cliff; ++k) secs += s[k].seconds, before += s[k].write_bytes;
    out.push_back(finding("cliff_sample", "Write cliff", static_cast<double>(*cliff + 1), "sample", cliff_rule));
    out.push_back(finding("cliff_minutes", "Write cliff, time", secs / 60.0, "min", "stimulus time before the cliff sample"));
    out.push_back(finding("cliff_drive_fills", "Write cliff, drive fills", static_cast<double>(before) / cap,
                          "drive fills", "written before the cliff sample"));
  } else {
    out.push_back(finding("cliff_sample", "Write cliff", std::nullopt, "sample", "none: no " + cliff_rule));
  }
  const size_t first = std::max(n - std::min<size_t>(w.plateau_samples, n), cliff ? *cliff + 1 : size_t{0});
  if (first < n) {
    const double plateau = mean_iops(s, first, n - 1);
    double art = 0, p5 = 0;
    uint64_t mrt = 0;
    for (size_t k = first; k < n; ++k) {
      art += s[k].latency.mean_ns;
      p5 += static_cast<double>(s[k].latency.p99_999_ns);
      mrt = std::max(mrt, s[k].latency.max_ns);
    }
    const double m = static_cast<double>(n - first);
    const std::string over = "over " + range_text(first, n - 1);
    out.push_back(finding("steady_plateau_iops", "Steady plateau", plateau, "IOPS", "mean IOPS " + over));
    out.push_back(finding("steady_plateau_art_ms", "Steady plateau ART", art / m / 1e6, "ms", "mean " + over));
    out.push_back(finding("steady_plateau_p99_999_ms", "Steady plateau 5 nines", p5 / m / 1e6, "ms", "mean " + over));
    out.push_back(finding("steady_plateau_mrt_ms", "Steady plateau MRT", static_cast<double>(mrt) / 1e6, "ms",
                          "maximum " + over));
    out.push_back(finding("fob_to_steady_ratio", "FOB plateau ÷ steady plateau", plateau > 0 ? fob / plateau : 0,
                          "ratio"));
  } else {
    out.push_back(finding("steady_plateau_iops", "Steady plateau", std::nullopt, "IOPS",
                          "no sample after the cliff sample"));
  }
  return out;
}

core::Result<StepOutcome> WsatProcedure::run_subtest(RunContext& ctx, size_t i) const {
  const auto& plan = ctx.record().plan;
  if (ctx.record().subtests[i].complete) return StepOutcome::Done;
  const auto* wp = plan.params<model::WsatPlan>();
  if (!wp || plan.subtests[i].role != model::SubTestRole::WsatSamples)
    return core::Error(ErrorKind::Internal, "sub-test " + plan.subtests[i].id + " is not a WSAT sub-test");
  const model::WsatPlan& w = *wp;
  auto cell = plan_cell(ctx, i, "wsat");
  if (!cell.ok()) return cell.take_error();
  if (purge_pending(ctx.record(), i)) {  // none yet, or one that did not settle: purge (again)
    if (ctx.stop_requested()) return StepOutcome::Interrupted;
    auto st = purge_step(ctx, i);
    if (!st.ok()) return st.take_error();
  }
  const auto expected = static_cast<uint32_t>(w.max_seconds / plan.cell_seconds + 0.999);
  bool announced = false;
  for (;;) {
    const RoundCursor cur = round_cursor(ctx, i);
    if (cur.in_flight) {  // its sample is journaled; the Round's end was not
      auto st = close_sample(ctx, i, cur.round);
      if (!st.ok()) return st.take_error();
      continue;
    }
    const auto& rec = ctx.record().subtests[i];
    const bool steady = !rec.rounds.empty() && rec.rounds.back().verdict && rec.rounds.back().verdict->steady;
    uint64_t bytes = 0;
    double secs = 0;
    for (const auto& round : rec.rounds)
      for (const auto& c : round.cells) bytes += c.write_bytes, secs += c.seconds;
    const std::string stop = wsat_stop_reason(w, rec.rounds.size(), bytes, secs, steady);
    if (!stop.empty()) {
      auto st = finish(ctx, i, stop);
      if (!st.ok()) return st.take_error();
      return StepOutcome::Done;
    }
    if (ctx.stop_requested()) return StepOutcome::Interrupted;
    const uint32_t r = cur.next_round;
    if (!announced) {
      auto st = ctx.transition("Samples", i, r,
                               (r == 1 ? std::string("from FOB: ") : "continuing at sample " + std::to_string(r) + ": ") +
                                   "samples of " + g(plan.cell_seconds) + " s " + (*cell)->label + " until " +
                                   g(w.capacity_multiple) + " × capacity (" + std::to_string(w.stop_bytes) +
                                   " bytes) is written or " + g(w.max_seconds) + " s of stimulus");
      if (!st.ok()) return st.take_error();
      announced = true;
    }
    ctx.start_round();
    CellPosition pos;
    pos.max_rounds = expected;
    pos.cells_in_round = 1;
    auto run = run_cell(ctx, i, r, 0, **cell, (*cell)->spec, pos);
    if (!run.ok()) return run.take_error();
    if (run->stopped) return StepOutcome::Interrupted;
    auto st = close_sample(ctx, i, r);
    if (!st.ok()) return st.take_error();
  }
}

}  // namespace pts::runner
