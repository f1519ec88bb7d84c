// pts/dirth.cpp — see dirth.h.
#include "pts/dirth.h"

#include <cmath>
#include <cstdio>

#include "pts/phase_steps.h"
#include "pts/steady_rounds.h"

namespace pts::runner {

namespace {

using core::ErrorKind;

const char* const kKeys[3] = {"max", "mid", "min"};
const char* const kNames[3] = {"MaxIOPS", "MidIOPS", "MinIOPS"};

std::string g(double v) { return short_number(v); }

uint64_t toio(const DemandPoint& p) { return uint64_t{p.threads} * p.queue_depth; }

/// a is a better pick than b at equal score: the lower total OIO, then fewer threads.
bool lower_demand(const DemandPoint& a, const DemandPoint& b) {
  return toio(a) != toio(b) ? toio(a) < toio(b) : a.threads < b.threads;
}

std::string point_text(const DemandPoint& p) {
  return "TC " + std::to_string(p.threads) + " / QD " + std::to_string(p.queue_depth) + " (" + g(p.iops) +
         " IOPS, ART " + g(p.art_ns / 1e6) + " ms)";
}

std::optional<double> finding_value(const model::SubTestRecord& rec, const std::string& key) {
  for (const auto& f : rec.findings)
    if (f.key == key) return f.value;
  return std::nullopt;
}

std::string finding_detail(const model::SubTestRecord& rec, const std::string& key) {
  for (const auto& f : rec.findings)
    if (f.key == key) return f.detail;
  return "";
}

/// The sweep's findings once its Rounds end.
core::Status add_selection(RunContext& ctx, size_t i, model::SubTestRecord& summary) {
  const auto points = demand_points(ctx.record(), i, summary.window_results);
  const auto& dirth = *ctx.record().plan.params<model::DirthPlan>();
  const auto sel = select_demand_points(dirth, points);
  auto f = selection_findings(dirth, sel);
  summary.findings.insert(summary.findings.end(), f.begin(), f.end());
  return core::ok_status();
}

core::Result<StepOutcome> run_histogram(RunContext& ctx, size_t i) {
  const auto& plan = ctx.record().plan;
  const auto& sub = plan.subtests[i];
  const std::string key = kKeys[sub.role_index % 3];
  std::optional<size_t> sweep;
  for (size_t s = 0; s < plan.subtests.size(); ++s)
    if (plan.subtests[s].role == model::SubTestRole::DirthSweep) sweep = s;
  if (!sweep || !ctx.record().subtests[*sweep].complete)
    return core::Error(ErrorKind::Internal, sub.id + ": the sweep has not finished");
  const auto& sweep_rec = ctx.record().subtests[*sweep];
  const auto tc = finding_value(sweep_rec, key + "_tc");
  const auto qd = finding_value(sweep_rec, key + "_qd");
  if (!tc || !qd) {
    model::SubTestRecord summary;
    const std::string why = finding_detail(sweep_rec, key + "_iops");
    summary.findings.push_back(finding("skipped", std::string(kNames[sub.role_index % 3]) + " histogram skipped",
                                       std::nullopt, "", why));
    auto st = finish_subtest_summary(ctx, i, summary, std::string(kNames[sub.role_index % 3]) + " histogram skipped: " + why);
    if (!st.ok()) return st.take_error();
    return StepOutcome::Done;
  }
  const RoundCursor cur = round_cursor(ctx, i);
  const bool measured = !cur.in_flight && cur.next_round > 1;  // only the summary is missing (resume)
  if (!measured) {
    if (ctx.stop_requested()) return StepOutcome::Interrupted;
    size_t k = cur.in_flight ? cur.cells_done : 0;
    if (k == 0) {
      auto st = ctx.transition("Histogram", i, 1,
                               std::string(kNames[sub.role_index % 3]) + " at TC " + g(*tc) + " / QD " + g(*qd) + ": " +
                                   std::to_string(sub.cells.size()) + " cell(s)");
      if (!st.ok()) return st.take_error();
    }
    ctx.start_round();
    for (; k < sub.cells.size(); ++k) {
      if (ctx.stop_requested()) return StepOutcome::Interrupted;
      model::AccessSpec spec = sub.cells[k].spec;
      spec.threads = static_cast<uint32_t>(*tc);      // TC = threads
      spec.queue_depth = static_cast<uint32_t>(*qd);  // QD = per thread
      CellPosition pos;
      pos.max_rounds = 1;
      pos.cell_index = k;
      pos.cells_in_round = sub.cells.size();
      auto run = run_cell(ctx, i, 1, k, sub.cells[k], spec, pos);
      if (!run.ok()) return run.take_error();
      if (run->stopped) return StepOutcome::Interrupted;
    }
    auto st = close_round_plain(ctx, i, 1, std::nullopt);
    if (!st.ok()) return st.take_error();
  }
  model::SubTestRecord summary;
  const model::CellResult* capture = nullptr;
  for (const auto& c : ctx.record().subtests[i].rounds.back().cells)
    if (c.cell_id == "capture") capture = &c;
  if (!capture) return core::Error(ErrorKind::Internal, sub.id + ": no capture cell in the record");
  const auto& l = capture->latency;
  summary.findings = {
      finding("tc", "TC (threads)", *tc, ""),
      finding("qd", "QD (per thread)", *qd, ""),
      finding("iops", "IOPS during the capture", capture->iops, "IOPS"),
      finding("ios", "I/Os in the histogram", static_cast<double>(l.samples), "I/Os"),
      finding("art_ms", "ART", l.mean_ns / 1e6, "ms"),
      finding("p99_9_ms", "3 nines (99.9 %)", static_cast<double>(l.p99_9_ns) / 1e6, "ms"),
      finding("p99_99_ms", "4 nines (99.99 %)", static_cast<double>(l.p99_99_ns) / 1e6, "ms"),
      finding("p99_999_ms", "5 nines (99.999 %)", static_cast<double>(l.p99_999_ns) / 1e6, "ms"),
      finding("mrt_ms", "MRT", static_cast<double>(l.max_ns) / 1e6, "ms"),
  };
  auto st = finish_subtest_summary(ctx, i, summary,
                                   std::string(kNames[sub.role_index % 3]) + " histogram at TC " + g(*tc) + " / QD " +
                                       g(*qd) + ": " + std::to_string(l.samples) + " I/Os");
  if (!st.ok()) return st.take_error();
  return StepOutcome::Done;
}

}  // namespace

DemandSelection select_demand_points(const model::DirthPlan& plan, const std::vector<DemandPoint>& grid) {
  DemandSelection s;
  const double ceiling = plan.art_ceiling_ns;
  for (const auto& p : grid) {
    if (!(p.art_ns <= ceiling)) continue;
    if (!s.max || p.iops > s.max->iops || (p.iops == s.max->iops && lower_demand(p, *s.max))) s.max = p;
  }
  if (!s.max) s.max_why = "no TC × QD point has an ART at or under the " + g(ceiling / 1e6) + " ms ceiling";
  const uint32_t min_tc = plan.thread_counts.empty() ? 1 : plan.thread_counts.back();
  const uint32_t min_qd = plan.queue_depths.empty() ? 1 : plan.queue_depths.back();
  for (const auto& p : grid)
    if (p.threads == min_tc && p.queue_depth == min_qd) s.min = p;
  if (!s.min) s.min_why = "the sweep holds no TC " + std::to_string(min_tc) + " / QD " + std::to_string(min_qd) + " point";
  if (!s.max || !s.min) {
    s.mid_why = "needs both MaxIOPS and MinIOPS";
    return s;
  }
  const double target = (s.max->iops + s.min->iops) / 2;
  const bool under = plan.mid_rule == "closest-to-midpoint-under-ceiling";
  for (const auto& p : grid) {
    if (under && !(p.art_ns <= ceiling)) continue;
    const double d = std::fabs(p.iops - target);
    if (!s.mid || d < std::fabs(s.mid->iops - target) ||
        (d == std::fabs(s.mid->iops - target) && lower_demand(p, *s.mid)))
      s.mid = p;
  }
  return s;
}

std::vector<DemandPoint> demand_points(const model::RunRecord& record, size_t sweep,
                                       const std::vector<model::CellWindowResult>& window) {
  std::vector<DemandPoint> out;
  const auto& sub = record.plan.subtests[sweep];
  for (const auto& w : window) {
    if (w.rounds == 0) continue;
    for (const auto& c : sub.cells) {
      if (c.id != w.cell_id || c.id == "prewrite") continue;
      out.push_back({c.id, c.spec.threads, c.spec.queue_depth, w.iops, w.mean_latency_ns});
    }
  }
  return out;
}

std::vector<model::Finding> selection_findings(const model::DirthPlan& plan, const DemandSelection& s) {
  std::vector<model::Finding> out;
  out.push_back(finding("art_ceiling_ms", "ART ceiling for MaxIOPS", plan.art_ceiling_ns / 1e6, "ms"));
  const std::optional<DemandPoint>* pts[3] = {&s.max, &s.mid, &s.min};
  const std::string* why[3] = {&s.max_why, &s.mid_why, &s.min_why};
  for (int k = 0; k < 3; ++k) {
    const std::string key = kKeys[k], name = kNames[k];
    const auto& p = *pts[k];
    if (!p) {
      out.push_back(finding(key + "_iops", name, std::nullopt, "IOPS", "undefined: " + *why[k]));
      continue;
    }
    out.push_back(finding(key + "_iops", name, p->iops, "IOPS", point_text(*p)));
    out.push_back(finding(key + "_tc", name + " TC", p->threads, "threads"));
    out.push_back(finding(key + "_qd", name + " QD", p->queue_depth, "per thread"));
    out.push_back(finding(key + "_art_ms", name + " ART", p->art_ns / 1e6, "ms"));
  }
  return out;
}

core::Result<StepOutcome> DirthProcedure::run_subtest(RunContext& ctx, size_t i) const {
  const auto& plan = ctx.record().plan;
  const auto& sub = plan.subtests[i];
  if (ctx.record().subtests[i].complete) return StepOutcome::Done;
  if (!plan.params<model::DirthPlan>()) return core::Error(ErrorKind::Internal, "plan has no DIRTH parameters");
  if (sub.role == model::SubTestRole::SteadyRounds) return run_steady_rounds(ctx, i);
  if (sub.role == model::SubTestRole::DirthSweep) return run_steady_rounds(ctx, i, add_selection);
  if (sub.role == model::SubTestRole::DirthHistogram) return run_histogram(ctx, i);
  return core::Error(ErrorKind::Internal, "sub-test " + sub.id + " is not a DIRTH sub-test");
}

}  // namespace pts::runner
