// pts/sweep.cpp — see sweep.h.
#include "pts/sweep.h"

#include <cmath>
#include <map>

#include "pts/phase_steps.h"
#include "pts/review_precondition.h"

namespace pts::runner {

namespace {

using core::ErrorKind;

/// A gain in per cent to 0.01 ("2.87", "0").
std::string pct_text(double v) { return short_number(std::round(v * 100) / 100); }

bool is_ramp(const std::string& id) { return id.size() > 5 && id.compare(id.size() - 5, 5, "-ramp") == 0; }

std::string depth_text(const SweepStep& s) {
  return std::to_string(s.workers) + " × " + std::to_string(s.outstanding) + " (total QD " +
         std::to_string(s.total_depth()) + ")";
}

core::Result<StepOutcome> run_sweep(RunContext& ctx, size_t i) {
  const auto& plan = ctx.record().plan;
  const auto& sub = plan.subtests[i];
  const auto& sp = *plan.params<model::SweepPlan>();
  OnceCells how;
  how.state = "Sweep";
  how.detail = "sweep: " + std::to_string(sub.cells.size()) + " runs (ramps included)";
  auto done = run_cells_once(ctx, i, how);
  if (!done.ok() || *done == StepOutcome::Interrupted) return done;
  const auto steps = sweep_steps(ctx.record().subtests[i].rounds.back());
  model::SubTestRecord summary;
  summary.findings = sweep_findings(sp, steps);
  std::string detail = std::to_string(steps.size()) + " steps";
  for (const auto& f : summary.findings)
    if (f.key == "littles_law") detail += "; " + f.detail;
  auto st = finish_subtest_summary(ctx, i, summary, detail);
  if (!st.ok()) return st.take_error();
  return StepOutcome::Done;
}

}  // namespace

std::vector<SweepStep> sweep_steps(const model::RoundRecord& round) {
  std::vector<SweepStep> out;
  for (const auto& c : round.cells) {
    if (is_ramp(c.cell_id)) continue;
    SweepStep s;
    s.cell_id = c.cell_id;
    s.read_pct = c.spec.read_pct;
    s.workers = c.spec.threads;
    s.outstanding = c.spec.queue_depth;
    s.iops = c.iops;
    s.mean_latency_ns = c.latency.mean_ns;
    s.p99_latency_ns = c.latency.p99_ns;
    s.cpu_pct = c.cpu_usr_pct + c.cpu_sys_pct;
    s.littles_oio = c.iops * c.latency.mean_ns / 1e9;
    out.push_back(s);
  }
  return out;
}

std::vector<model::Finding> sweep_findings(const model::SweepPlan& plan, const std::vector<SweepStep>& steps) {
  std::vector<model::Finding> out;
  std::string off;
  for (const auto& s : steps) {
    const std::string k = s.cell_id, at = std::to_string(s.read_pct) + " % read at " + depth_text(s);
    const double ratio = s.total_depth() ? s.littles_oio / static_cast<double>(s.total_depth()) : 0;
    out.push_back(finding(k + "_iops", at + ": IOPS", s.iops, "IOPS"));
    out.push_back(finding(k + "_mean_us", at + ": mean latency", s.mean_latency_ns / 1e3, "µs"));
    out.push_back(finding(k + "_p99_us", at + ": 99th percentile latency", static_cast<double>(s.p99_latency_ns) / 1e3, "µs"));
    out.push_back(finding(k + "_cpu_pct", at + ": CPU (100 = one core)", s.cpu_pct, "%"));
    out.push_back(finding(k + "_littles_ratio", at + ": IOPS × mean latency ÷ total QD", ratio, "",
                          short_number(s.littles_oio) + " I/Os in flight by Little's law, " +
                              std::to_string(s.total_depth()) + " asked"));
    if (!(std::fabs(ratio - 1) * 100 <= plan.littles_law_tolerance_pct))
      off += (off.empty() ? "" : "; ") + s.cell_id + " " + short_number(ratio);
  }
  out.push_back(finding("littles_law", "Little's law within " + short_number(plan.littles_law_tolerance_pct) +
                                           " % at every step",
                        off.empty() ? 1.0 : 0.0, "",
                        off.empty() ? "Little's law holds within " + short_number(plan.littles_law_tolerance_pct) +
                                          " % at every step"
                                    : "Little's law off by more than " + short_number(plan.littles_law_tolerance_pct) +
                                          " % at: " + off));
  // Where writes stop climbing: per read share with writes, along the total depth.
  std::map<uint32_t, std::vector<const SweepStep*>> by_share;
  for (const auto& s : steps)
    if (s.read_pct < 100) by_share[s.read_pct].push_back(&s);
  for (const auto& [share, list] : by_share) {
    if (list.size() < 2) continue;
    const std::string key = "climb_stops_rw" + std::to_string(share);
    const std::string label = "Writes stop climbing (" + std::to_string(share) + " % read)";
    const SweepStep* stop = nullptr;
    double gain = 0;
    for (size_t k = 1; k < list.size(); ++k) {
      const SweepStep& a = *list[k - 1];
      const SweepStep& b = *list[k];
      if (b.total_depth() != 2 * a.total_depth() || !(a.iops > 0)) continue;  // only doublings
      gain = (b.iops / a.iops - 1) * 100;
      if (gain < plan.climb_gain_pct) {
        stop = &b;
        break;
      }
    }
    if (stop)
      out.push_back(finding(key, label, static_cast<double>(stop->total_depth()), "total QD",
                            "writes stop climbing at " + depth_text(*stop) + ": " + pct_text(gain) +
                                " % from half that depth (less than " + short_number(plan.climb_gain_pct) + " %)"));
    else
      out.push_back(finding(key, label, std::nullopt, "total QD",
                            "writes still gain " + short_number(plan.climb_gain_pct) +
                                " % or more at every doubling of the depth swept"));
  }
  return out;
}

core::Result<StepOutcome> SweepProcedure::run_subtest(RunContext& ctx, size_t i) const {
  const auto& plan = ctx.record().plan;
  const auto& sub = plan.subtests[i];
  if (ctx.record().subtests[i].complete) return StepOutcome::Done;
  if (!plan.params<model::SweepPlan>()) return core::Error(ErrorKind::Internal, "plan has no sweep parameters");
  if (sub.role == model::SubTestRole::ReviewPrecondition) return run_review_precondition(ctx, i);
  if (sub.role == model::SubTestRole::SweepSteps) return run_sweep(ctx, i);
  return core::Error(ErrorKind::Internal, "sub-test " + sub.id + " is not a sweep sub-test");
}

}  // namespace pts::runner
