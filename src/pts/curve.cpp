// pts/curve.cpp — see curve.h.
#include "pts/curve.h"

#include <cmath>

#include "pts/phase_steps.h"
#include "pts/review_precondition.h"

namespace pts::runner {

namespace {

using core::ErrorKind;

const model::CellResult* find_cell(const model::RoundRecord& round, const std::string& id) {
  for (const auto& c : round.cells)
    if (c.cell_id == id) return &c;
  return nullptr;
}

bool is_warmup(const std::string& id) { return id.size() > 7 && id.compare(id.size() - 7, 7, "-warmup") == 0; }

std::string us(double ns) { return short_number(std::round(ns / 100.0) / 10.0); }

/// "1.12 M", "657 k", "950".
std::string iops_words(double v) {
  if (v >= 1e6) return short_number(std::round(v / 1e4) / 100) + " M";
  if (v >= 1e4) return short_number(std::round(v / 1e3)) + " k";
  return short_number(std::round(v));
}

/// The first measured point past the stopcurve limit, as the reason the curve ended; "" when none.
std::string stop_reason(const model::CurvePlan& cp, const model::RoundRecord* round) {
  if (!round || !(cp.stop_response_ms > 0)) return "";
  for (const auto& p : curve_points(cp, *round))
    if (p.fraction_pct > 0 && p.response_ns > cp.stop_response_ms * 1e6)
      return "stopcurve: the " + short_number(p.fraction_pct) + " % point's mean response time " +
             short_number(p.response_ns / 1e6) + " ms exceeds " + short_number(cp.stop_response_ms) +
             " ms; the points after it were not run";
  return "";
}

core::Result<StepOutcome> run_curve(RunContext& ctx, size_t i) {
  const auto& plan = ctx.record().plan;
  const auto& sub = plan.subtests[i];
  const auto& cp = *plan.params<model::CurvePlan>();
  OnceCells how;
  how.state = "Curve";
  how.detail = "latency vs load: " + std::to_string(sub.cells.size()) + " runs (warm-ups included)";
  how.prepare = [&](const model::CellPlan& cell, model::AccessSpec& spec) {
    // The maximum and the points wait for completions the same way: a paced worker sleeps
    // between releases and cannot poll, so a maximum measured polling is a rate the points
    // cannot reach at low depth (a loop device at 1 x 1: 59,211 IOPS polling, ~27,000
    // sleeping; the 50 % point fell 9 % short). Every run of the curve sleeps.
    spec.poll_budget_ns = 0;
    const auto f = curve_fraction(cp, cell.id);
    if (!f) return;
    const auto& rounds = ctx.record().subtests[i].rounds;
    const model::CellResult* max = rounds.empty() ? nullptr : find_cell(rounds.back(), "max");
    const double peak = max ? max->iops : 0;
    spec.rate_iops = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(peak * *f / 100.0)));
  };
  how.stop_before = [&](const model::CellPlan&) {
    const auto& rounds = ctx.record().subtests[i].rounds;
    return !stop_reason(cp, rounds.empty() ? nullptr : &rounds.back()).empty();
  };
  auto done = run_cells_once(ctx, i, how);
  if (!done.ok() || *done == StepOutcome::Interrupted) return done;
  const auto& round = ctx.record().subtests[i].rounds.back();
  if (!find_cell(round, "max")) return core::Error(ErrorKind::Internal, sub.id + ": no maximum run in the record");
  const auto points = curve_points(cp, round);
  const std::string stopped = stop_reason(cp, &round);
  model::SubTestRecord summary;
  summary.findings = curve_findings(cp, points, stopped);
  std::string headline;
  for (const auto& f : summary.findings)
    if (f.key == "peak_iops") headline = f.detail;
  auto st = finish_subtest_summary(ctx, i, summary,
                                   std::to_string(points.size()) + " points; " + headline + (stopped.empty() ? "" : "; " + stopped));
  if (!st.ok()) return st.take_error();
  return StepOutcome::Done;
}

}  // namespace

std::optional<double> curve_fraction(const model::CurvePlan& plan, const std::string& cell_id) {
  const std::string id = is_warmup(cell_id) ? cell_id.substr(0, cell_id.size() - 7) : cell_id;
  for (double f : plan.fractions_pct)
    if (model::curve_point_id(f) == id) return f;
  return std::nullopt;
}

std::vector<CurvePoint> curve_points(const model::CurvePlan& plan, const model::RoundRecord& round) {
  std::vector<CurvePoint> out;
  for (const auto& c : round.cells) {
    if (is_warmup(c.cell_id) || c.cell_id == "qd1") continue;
    CurvePoint p;
    p.cell_id = c.cell_id;
    p.fraction_pct = curve_fraction(plan, c.cell_id).value_or(0);
    p.offered_iops = static_cast<double>(c.spec.rate_iops);
    p.achieved_iops = c.iops;
    p.response_ns = c.latency.mean_ns;
    p.response_p99_ns = c.latency.p99_ns;
    const bool paced = c.spec.rate_iops > 0;
    p.service_ns = paced ? c.submission_latency.mean_ns : c.latency.mean_ns;
    p.service_p99_ns = paced ? c.submission_latency.p99_ns : c.latency.p99_ns;
    out.push_back(p);
  }
  return out;
}

std::vector<model::Finding> curve_findings(const model::CurvePlan& plan, const std::vector<CurvePoint>& points,
                                           const std::string& stopped) {
  std::vector<model::Finding> out;
  const CurvePoint* max = nullptr;
  for (const auto& p : points)
    if (p.cell_id == "max") max = &p;
  if (max)
    out.push_back(finding("peak_iops", "Peak (the maximum run)", max->achieved_iops, "IOPS",
                          "peak " + iops_words(max->achieved_iops) + " IOPS at " + us(max->response_ns) + " µs"));
  if (max) out.push_back(finding("peak_response_us", "Mean response time at the peak", max->response_ns / 1e3, "µs"));
  (void)plan;
  const CurvePoint* lowest = nullptr;
  for (const auto& p : points) {
    if (p.fraction_pct <= 0) continue;
    if (!lowest || p.fraction_pct < lowest->fraction_pct) lowest = &p;
    const std::string k = p.cell_id, at = short_number(p.fraction_pct) + " %";
    out.push_back(finding(k + "_offered_iops", at + " offered", p.offered_iops, "IOPS"));
    out.push_back(finding(k + "_achieved_iops", at + " achieved", p.achieved_iops, "IOPS"));
    out.push_back(finding(k + "_achieved_pct", at + " achieved ÷ offered",
                          p.offered_iops > 0 ? p.achieved_iops / p.offered_iops * 100 : 0, "%"));
    out.push_back(finding(k + "_response_us", at + " mean response time", p.response_ns / 1e3, "µs"));
    out.push_back(finding(k + "_service_us", at + " mean service time", p.service_ns / 1e3, "µs"));
  }
  if (!stopped.empty()) out.push_back(finding("stopped", "Curve stopped early", std::nullopt, "", stopped));
  return out;
}

core::Result<StepOutcome> CurveProcedure::run_subtest(RunContext& ctx, size_t i) const {
  const auto& plan = ctx.record().plan;
  const auto& sub = plan.subtests[i];
  if (ctx.record().subtests[i].complete) return StepOutcome::Done;
  if (!plan.params<model::CurvePlan>()) return core::Error(ErrorKind::Internal, "plan has no curve parameters");
  if (sub.role == model::SubTestRole::ReviewPrecondition) return run_review_precondition(ctx, i);
  if (sub.role == model::SubTestRole::CurvePoints) return run_curve(ctx, i);
  return core::Error(ErrorKind::Internal, "sub-test " + sub.id + " is not a curve sub-test");
}

}  // namespace pts::runner
