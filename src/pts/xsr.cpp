// pts/xsr.cpp — see xsr.h.
#include "pts/xsr.h"

#include <algorithm>
#include <cstdio>

#include "pts/phase_steps.h"
#include "pts/phases.h"
#include "pts/steady_rounds.h"

namespace pts::runner {

namespace {

using core::ErrorKind;

std::string g(double v) { return short_number(v); }

std::vector<const model::CellResult*> samples_of(const model::SubTestRecord& rec) {
  std::vector<const model::CellResult*> out;
  for (const auto& r : rec.rounds)
    for (const auto& c : r.cells) out.push_back(&c);
  return out;
}

}  // namespace

size_t xsr_current_group(const model::XsrPlan& plan, const model::SubTestRecord& rec) {
  const auto samples = samples_of(rec);
  for (size_t gi = 0; gi < plan.groups.size(); ++gi) {
    double spent = 0;
    for (const auto* s : samples)
      if (s->cell_id == plan.groups[gi].cell_id) spent += s->seconds;
    if (spent + 1e-9 * plan.groups[gi].seconds < plan.groups[gi].seconds) return gi;
  }
  return plan.groups.size();
}

std::vector<model::Finding> xsr_findings(const model::XsrPlan& plan, const model::SubTestRecord& rec) {
  const auto samples = samples_of(rec);
  std::vector<model::Finding> out;
  std::vector<double> mean_mbps(plan.groups.size(), 0);
  // Samples of each group in order. Group ids may repeat cells (groups 1 and 3 share a
  // workload but never a cell id), so membership is by cell id.
  std::vector<std::vector<const model::CellResult*>> by_group(plan.groups.size());
  for (const auto* s : samples)
    for (size_t gi = 0; gi < plan.groups.size(); ++gi)
      if (s->cell_id == plan.groups[gi].cell_id) by_group[gi].push_back(s);
  for (size_t gi = 0; gi < plan.groups.size(); ++gi) {
    const auto& v = by_group[gi];
    const std::string k = plan.groups[gi].cell_id, n = "Access Group " + std::to_string(gi + 1);
    if (v.empty()) {
      out.push_back(finding(k + "_mbps", n + " mean throughput", std::nullopt, "MB/s", "no samples"));
      continue;
    }
    double mbps = 0, art = 0;
    uint64_t mrt = 0;
    for (const auto* s : v) {
      mbps += s->mbps;
      art += s->latency.mean_ns;
      mrt = std::max(mrt, s->latency.max_ns);
    }
    const double m = static_cast<double>(v.size());
    mean_mbps[gi] = mbps / m;
    out.push_back(finding(k + "_samples", n + " samples", m, "samples"));
    out.push_back(finding(k + "_mbps", n + " mean throughput", mbps / m, "MB/s"));
    out.push_back(finding(k + "_art_ms", n + " mean ART", art / m / 1e6, "ms"));
    out.push_back(finding(k + "_mrt_ms", n + " MRT", static_cast<double>(mrt) / 1e6, "ms", "maximum over the group"));
  }
  if (plan.groups.size() < 3 || by_group[0].empty()) {
    out.push_back(finding("recovery_minutes", "Recovery time of Access Group 3", std::nullopt, "min",
                          "group 1 has no samples"));
    return out;
  }
  const double ref = mean_mbps[0];
  const double bar = ref * (1 - plan.recovery_tolerance);  // group 1's mean less the tolerance
  const std::string bar_text = "group 1's mean " + g(ref) + " MB/s" +
                               (plan.recovery_tolerance > 0 ? " less " + g(100 * plan.recovery_tolerance) + " % (" +
                                                                  g(bar) + " MB/s)"
                                                            : "");
  const auto& g3 = by_group[2];
  double before = 0;
  for (size_t k = 0; k < g3.size(); ++k) {
    if (g3[k]->mbps >= bar * (1 - 1e-9)) {  // the epsilon absorbs floating-point noise only
      out.push_back(finding("recovery_minutes", "Recovery time of Access Group 3", before / 60.0, "min",
                            "sample " + std::to_string(k + 1) + " of group 3 (" + g(g3[k]->mbps) +
                                " MB/s) is the first to reach " + bar_text));
      out.push_back(finding("recovery_sample", "First recovered sample of Access Group 3",
                            static_cast<double>(k + 1), "sample"));
      return out;
    }
    before += g3[k]->seconds;
  }
  out.push_back(finding("recovery_minutes", "Recovery time of Access Group 3", std::nullopt, "min",
                        "not recovered: none of group 3's " + std::to_string(g3.size()) + " samples reached " +
                            bar_text + " within its " + g(before / 60.0) + " min"));
  return out;
}

core::Result<StepOutcome> XsrProcedure::run_subtest(RunContext& ctx, size_t i) const {
  const auto& plan = ctx.record().plan;
  if (ctx.record().subtests[i].complete) return StepOutcome::Done;
  const auto* xp = plan.params<model::XsrPlan>();
  if (!xp || plan.subtests[i].role != model::SubTestRole::XsrGroups)
    return core::Error(ErrorKind::Internal, "sub-test " + plan.subtests[i].id + " is not an XSR sub-test");
  const model::XsrPlan& x = *xp;
  if (purge_pending(ctx.record(), i)) {  // none yet, or one that did not settle: purge (again)
    if (ctx.stop_requested()) return StepOutcome::Interrupted;
    auto st = purge_step(ctx, i);
    if (!st.ok()) return st.take_error();
  }
  size_t announced = x.groups.size();
  for (;;) {
    const RoundCursor cur = round_cursor(ctx, i);
    if (cur.in_flight) {
      auto st = close_round_plain(ctx, i, cur.round, std::nullopt);
      if (!st.ok()) return st.take_error();
      continue;
    }
    const auto& rec = ctx.record().subtests[i];
    const size_t gi = xsr_current_group(x, rec);
    if (gi == x.groups.size()) {
      model::SubTestRecord summary;
      summary.findings = xsr_findings(x, rec);
      std::string detail = "three Access Groups done in " + std::to_string(rec.rounds.size()) + " samples";
      for (const auto& f : summary.findings)
        if (f.key == "recovery_minutes") detail += f.value ? "; recovery " + g(*f.value) + " min" : "; " + f.detail;
      auto st = finish_subtest_summary(ctx, i, summary, detail);
      if (!st.ok()) return st.take_error();
      return StepOutcome::Done;
    }
    if (ctx.stop_requested()) return StepOutcome::Interrupted;
    auto cell = plan_cell(ctx, i, x.groups[gi].cell_id);
    if (!cell.ok()) return cell.take_error();
    const uint32_t r = cur.next_round;
    if (announced != gi) {
      auto st = ctx.transition("AccessGroup", i, r,
                               (*cell)->label + " for " + g(x.groups[gi].seconds) + " s in " + g(plan.cell_seconds) +
                                   " s samples" + (r > 1 ? " (from sample " + std::to_string(r) + ")" : ""));
      if (!st.ok()) return st.take_error();
      announced = gi;
    }
    ctx.start_round();
    CellPosition pos;
    pos.cells_in_round = 1;
    auto run = run_cell(ctx, i, r, gi, **cell, (*cell)->spec, pos);
    if (!run.ok()) return run.take_error();
    if (run->stopped) return StepOutcome::Interrupted;
    auto st = close_round_plain(ctx, i, r, std::nullopt);
    if (!st.ok()) return st.take_error();
  }
}

}  // namespace pts::runner
