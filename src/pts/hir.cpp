// pts/hir.cpp — see hir.h.
#include "pts/hir.h"

#include <cstdio>

#include "pts/phase_steps.h"
#include "pts/steady_rounds.h"

namespace pts::runner {

namespace {

using core::ErrorKind;

std::string g(double v) { return short_number(v); }

/// The Access C samples of a wait-state sub-test, in order.
std::vector<const model::CellResult*> access_c(const model::SubTestRecord& rec) {
  std::vector<const model::CellResult*> out;
  for (const auto& r : rec.rounds)
    for (const auto& c : r.cells)
      if (c.cell_id == "access-c") out.push_back(&c);
  return out;
}

std::optional<double> mean_iops(const std::vector<const model::CellResult*>& cells) {
  if (cells.empty()) return std::nullopt;
  double sum = 0;
  for (const auto* c : cells) sum += c->iops;
  return sum / static_cast<double>(cells.size());
}

/// Index of the preconditioning sub-test (the one run as steady Rounds).
std::optional<size_t> precondition_index(const model::RunRecord& record) {
  for (size_t s = 0; s < record.plan.subtests.size(); ++s)
    if (record.plan.subtests[s].role == model::SubTestRole::SteadyRounds) return s;
  return std::nullopt;
}

bool idle_was_idle(const model::IdleRecord& idle) {
  if (!idle.completed) return false;
  if (idle.engine_ios_before && idle.engine_ios_after && *idle.engine_ios_before != *idle.engine_ios_after) return false;
  if (idle.kernel_ios_before && idle.kernel_ios_after && *idle.kernel_ios_before != *idle.kernel_ios_after) return false;
  if (idle.kernel_in_flight_before && *idle.kernel_in_flight_before != 0) return false;
  return true;
}

}  // namespace

std::optional<double> hir_baseline(const model::RunRecord& record, size_t w) {
  const auto& plan = record.plan;
  const auto pc = precondition_index(record);
  auto pc_average = [&]() -> std::optional<double> {
    if (!pc || !record.subtests[*pc].final_verdict || record.subtests[*pc].final_verdict->variables.empty())
      return std::nullopt;
    return record.subtests[*pc].final_verdict->variables[0].window.average;
  };
  const auto* h = plan.params<model::HirPlan>();
  if (!h || h->baseline == "precondition") return pc_average();
  // "preceding-return": the Access C of the wait state before this one.
  for (size_t s = w; s-- > 0;) {
    if (plan.subtests[s].role != model::SubTestRole::HirWaitState) break;
    return mean_iops(access_c(record.subtests[s]));
  }
  return pc_average();
}

std::vector<model::Finding> hir_findings(const model::RunRecord& record, size_t w) {
  const auto& plan = record.plan;
  const auto& rec = record.subtests[w];
  std::vector<model::Finding> out;
  double a_sum = 0;
  size_t a_n = 0, idles = 0, idle_ok = 0, with_counters = 0;
  uint64_t max_idle_ns = 0, min_idle_ns = UINT64_MAX;
  for (const auto& r : rec.rounds) {
    for (const auto& c : r.cells)
      if (c.cell_id == "access-a") a_sum += c.iops, ++a_n;
    if (r.idle_after) {
      ++idles;
      idle_ok += idle_was_idle(*r.idle_after) ? 1 : 0;
      with_counters += r.idle_after->engine_ios_before ? 1 : 0;
      max_idle_ns = std::max(max_idle_ns, r.idle_after->measured_ns);
      min_idle_ns = std::min(min_idle_ns, r.idle_after->measured_ns);
    }
  }
  const auto* h = plan.params<model::HirPlan>();
  const double idle_s = h && plan.subtests[w].role_index < h->wait_seconds.size()
                            ? h->wait_seconds[plan.subtests[w].role_index]
                            : 0;
  out.push_back(finding("wait_seconds", "Host idle per repetition (Access B)", idle_s, "s"));
  const auto base = hir_baseline(record, w);
  const std::string base_how = h && h->baseline == "preceding-return"
                                   ? "mean Access C IOPS of the previous wait state (the preconditioning's "
                                     "window average before the first)"
                                   : "steady-state window average IOPS of the preconditioning";
  out.push_back(finding("baseline_iops", "Baseline", base, "IOPS", base ? base_how : "not in the record: " + base_how));
  const std::optional<double> a_mean = a_n ? std::optional<double>(a_sum / static_cast<double>(a_n)) : std::nullopt;
  out.push_back(finding("access_a_iops", "Mean IOPS of the writes after idle (Access A)", a_mean, "IOPS",
                        "mean of " + std::to_string(a_n) + " Access A runs"));
  std::optional<double> ratio;
  if (a_mean && base && *base > 0) ratio = *a_mean / *base;
  out.push_back(finding("recovery_ratio", "Recovery (Access A ÷ baseline)", ratio, "ratio"));
  const auto c = access_c(rec);
  const auto c_mean = mean_iops(c);
  out.push_back(finding("access_c_iops", "Access C (back to baseline), mean", c_mean, "IOPS",
                        "mean of " + std::to_string(c.size()) + " Access C samples"));
  out.push_back(finding("access_c_last_iops", "Access C, last sample",
                        c.empty() ? std::nullopt : std::optional<double>(c.back()->iops), "IOPS",
                        "where the return to baseline ended"));
  std::optional<double> c_ratio;
  if (c_mean && base && *base > 0) c_ratio = *c_mean / *base;
  out.push_back(finding("access_c_ratio", "Access C ÷ baseline", c_ratio, "ratio"));
  std::string idle_detail = std::to_string(idle_ok) + " of " + std::to_string(idles) +
                            " idle periods completed with no I/O in the counters (" + std::to_string(with_counters) +
                            " with engine counters)";
  if (idles)
    idle_detail += "; measured idle " + g(static_cast<double>(min_idle_ns) / 1e9) + "–" +
                   g(static_cast<double>(max_idle_ns) / 1e9) + " s";
  out.push_back(finding("idle_periods_idle", "Idle periods with no I/O", static_cast<double>(idle_ok), "periods",
                        idle_detail));
  return out;
}

core::Result<StepOutcome> HirProcedure::run_subtest(RunContext& ctx, size_t i) const {
  const auto& plan = ctx.record().plan;
  const auto& sub = plan.subtests[i];
  if (ctx.record().subtests[i].complete) return StepOutcome::Done;
  if (sub.role == model::SubTestRole::SteadyRounds) return run_steady_rounds(ctx, i);
  const auto* hp = plan.params<model::HirPlan>();
  if (!hp || sub.role != model::SubTestRole::HirWaitState || sub.role_index >= hp->wait_seconds.size())
    return core::Error(ErrorKind::Internal, "sub-test " + sub.id + " is not an HIR wait state");
  const model::HirPlan& h = *hp;
  const double idle_s = h.wait_seconds[sub.role_index];
  const auto idle_ns = static_cast<uint64_t>(idle_s * 1e9 + 0.5);
  auto a = plan_cell(ctx, i, "access-a");
  auto c = plan_cell(ctx, i, "access-c");
  if (!a.ok()) return a.take_error();
  if (!c.ok()) return c.take_error();
  bool announced = false;
  for (;;) {
    const RoundCursor cur = round_cursor(ctx, i);
    if (cur.in_flight) {  // the Round's cell is journaled; its idle (or end) is not
      std::optional<model::IdleRecord> idle;
      if (cur.round <= h.repetitions) {
        idle = host_idle(ctx, idle_ns);
        if (!idle->completed) return StepOutcome::Interrupted;  // not journaled: redone in full on resume
      }
      auto st = close_round_plain(ctx, i, cur.round, idle);
      if (!st.ok()) return st.take_error();
      continue;
    }
    const uint32_t r = cur.next_round;
    if (r > h.repetitions + h.access_c_samples) {
      model::SubTestRecord summary;
      summary.findings = hir_findings(ctx.record(), i);
      std::string detail = "wait state " + std::to_string(sub.role_index + 1) + " (" + g(idle_s) + " s idle) done";
      for (const auto& f : summary.findings)
        if (f.key == "recovery_ratio" && f.value) detail += "; recovery " + g(*f.value) + " × baseline";
      auto st = finish_subtest_summary(ctx, i, summary, detail);
      if (!st.ok()) return st.take_error();
      return StepOutcome::Done;
    }
    if (ctx.stop_requested()) return StepOutcome::Interrupted;
    const bool is_c = r > h.repetitions;
    if (!announced || r == h.repetitions + 1) {
      const std::string what =
          is_c ? "Access C: " + std::to_string(h.access_c_samples) + " × " + g(h.access_c_sample_seconds) +
                     " s of writes back to baseline, no idle" +
                     (r > h.repetitions + 1 ? ", continuing at sample " + std::to_string(r - h.repetitions) : "")
               : "wait state " + std::to_string(sub.role_index + 1) + ": " + std::to_string(h.repetitions) + " × (" +
                     g(h.access_a_seconds) + " s Access A + " + g(idle_s) + " s host idle)" +
                     (r > 1 ? ", continuing at repetition " + std::to_string(r) : "");
      auto st = ctx.transition(is_c ? "AccessC" : "WaitState", i, r, what);
      if (!st.ok()) return st.take_error();
      announced = true;
    }
    ctx.start_round();
    CellPosition pos;
    pos.max_rounds = h.repetitions + h.access_c_samples;
    pos.cells_in_round = 1;
    const model::CellPlan& cell = is_c ? **c : **a;
    auto run = run_cell(ctx, i, r, is_c ? 1 : 0, cell, cell.spec, pos);
    if (!run.ok()) return run.take_error();
    if (run->stopped) return StepOutcome::Interrupted;
    std::optional<model::IdleRecord> idle;
    if (!is_c) {
      idle = host_idle(ctx, idle_ns);
      if (!idle->completed) return StepOutcome::Interrupted;
    }
    auto st = close_round_plain(ctx, i, r, idle);
    if (!st.ok()) return st.take_error();
  }
}

}  // namespace pts::runner
