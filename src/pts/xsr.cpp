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
  // Samples of each group in order. Group ids may repeat cells (groups 1 and 3 share a
  // workload but never a cell id), so membership is by cell id.
  std::vector<std::vector<const model::CellResult*>> by_group(plan.groups.size());
  for (const auto* s : samples)
    for (size_t gi = 0; gi < plan.groups.size(); ++gi)
      if (s->cell_id == plan.groups[gi].cell_id) by_group[gi].push_back(s);
  auto name = [](size_t gi) { return "Access Group " + std::to_string(gi + 1); };
  // The group table as the peers show it (ADATA's XSR: "The end of TP", "ART (peak)", "MRT
  // (peak)"): each group's last sample's throughput, its highest per-sample ART and MRT.
  for (size_t gi = 0; gi < plan.groups.size(); ++gi) {
    const auto& v = by_group[gi];
    out.push_back(finding(plan.groups[gi].cell_id + "_last_mbps", name(gi) + ": throughput at its end",
                          v.empty() ? std::nullopt : std::optional<double>(v.back()->mbps), "MB/s",
                          v.empty() ? "no samples" : "its last sample (" + std::to_string(v.size()) + ")"));
  }
  for (size_t gi = 0; gi < plan.groups.size(); ++gi) {
    const auto& v = by_group[gi];
    std::optional<double> peak;
    for (const auto* s : v) peak = std::max(peak.value_or(0), s->latency.mean_ns / 1e6);
    out.push_back(finding(plan.groups[gi].cell_id + "_peak_art_ms", name(gi) + ": ART, peak", peak, "ms",
                          "the highest ART of its samples"));
  }
  for (size_t gi = 0; gi < plan.groups.size(); ++gi) {
    const auto& v = by_group[gi];
    std::optional<double> peak;
    for (const auto* s : v) peak = std::max(peak.value_or(0), static_cast<double>(s->latency.max_ns) / 1e6);
    out.push_back(finding(plan.groups[gi].cell_id + "_peak_mrt_ms", name(gi) + ": MRT, peak", peak, "ms",
                          "the highest MRT of its samples"));
  }
  for (size_t gi = 0; gi < plan.groups.size(); ++gi)
    out.push_back(finding(plan.groups[gi].cell_id + "_samples", name(gi) + ": samples",
                          static_cast<double>(by_group[gi].size()), "samples"));
  const std::string rule = std::string("rule: ") + model::xsr_recovery_rule();
  if (plan.groups.size() < 3 || by_group[0].empty()) {
    out.push_back(finding("recovery_minutes", "Recovery time of Access Group 3", std::nullopt, "min",
                          "not determined: group 1 has no samples; " + rule));
    return out;
  }
  double sum = 0;
  for (const auto* s : by_group[0]) sum += s->mbps;
  const double ref = sum / static_cast<double>(by_group[0].size());
  out.push_back(finding("recovery_reference_mbps", "Recovery reference: Access Group 1 mean throughput", ref, "MB/s",
                        "mean of its " + std::to_string(by_group[0].size()) + " samples"));
  const auto& g3 = by_group[2];
  double elapsed = 0;
  for (size_t k = 0; k < g3.size(); ++k) {
    elapsed += g3[k]->seconds;
    if (g3[k]->mbps >= ref * (1 - 1e-9)) {  // the epsilon absorbs floating-point noise only
      out.push_back(finding("recovery_minutes", "Recovery time of Access Group 3", elapsed / 60.0, "min",
                            "recovered: sample " + std::to_string(k + 1) + " of group 3 (" + g(g3[k]->mbps) +
                                " MB/s) is the first to reach " + g(ref) + " MB/s; " + rule));
      out.push_back(finding("recovery_sample", "First recovered sample of Access Group 3",
                            static_cast<double>(k + 1), "sample"));
      return out;
    }
  }
  out.push_back(finding("recovery_minutes", "Recovery time of Access Group 3", std::nullopt, "min",
                        "not recovered: none of group 3's " + std::to_string(g3.size()) + " samples reached " +
                            g(ref) + " MB/s within its " + g(elapsed / 60.0) + " min; " + rule));
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
        if (f.key == "recovery_minutes")
          detail += f.value ? "; recovered in " + g(*f.value) + " min" : "; group 3 not recovered";
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
