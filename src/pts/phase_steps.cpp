// pts/phase_steps.cpp — see phase_steps.h.
#include "pts/phase_steps.h"

#include <cstdio>

#include <algorithm>

#include "pts/steady_rounds.h"

namespace pts::runner {

using core::ErrorKind;

RoundCursor round_cursor(const RunContext& ctx, size_t i) {
  RoundCursor c;
  const auto& rounds = ctx.record().subtests[i].rounds;
  if (rounds.empty()) return c;
  const auto& last = rounds.back();
  if (last.ended_wall_ns == 0) {
    c.in_flight = true;
    c.round = last.round;
    c.cells_done = last.cells.size();
    c.next_round = last.round;
  } else {
    c.next_round = last.round + 1;
  }
  return c;
}

void set_round_gaps(model::RoundRecord& round, const std::vector<uint64_t>& gaps) {
  round.cell_gaps_ns = gaps;
  round.max_cell_gap_ns = 0;
  round.mean_cell_gap_ns = 0;
  if (gaps.empty()) return;
  double sum = 0;
  for (uint64_t g : gaps) {
    sum += static_cast<double>(g);
    round.max_cell_gap_ns = std::max(round.max_cell_gap_ns, g);
  }
  round.mean_cell_gap_ns = sum / static_cast<double>(gaps.size());
}

core::Result<const model::CellPlan*> plan_cell(const RunContext& ctx, size_t i, const std::string& cell_id) {
  const auto& sub = ctx.record().plan.subtests[i];
  for (const auto& c : sub.cells)
    if (c.id == cell_id) return &c;
  return core::Error(ErrorKind::Internal, "sub-test " + sub.id + " has no cell '" + cell_id + "' in its plan");
}

core::Result<CellRun> run_cell(RunContext& ctx, size_t i, uint32_t round, size_t cell_index,
                               const model::CellPlan& cell, model::AccessSpec spec, CellPosition pos) {
  const auto& plan = ctx.record().plan;
  pos.subtest = i;
  pos.subtest_count = plan.subtests.size();
  pos.subtest_id = plan.subtests[i].id;
  pos.round = round;
  pos.cell_id = cell.id;
  pos.label = cell.label;
  pos.cell_seconds = spec.seconds;
  if (auto* obs = ctx.env().observer) obs->cell_started(pos);
  if (spec.seed != 0) spec.seed = cell_seed(spec.seed, i, round, cell_index);
  auto run = ctx.run_engine(spec, /*abort_on_stop=*/false, pos);
  if (!run.ok()) return run.take_error();
  CellRun out;
  if (run->stopped_early) {
    out.stopped = true;
    return out;
  }
  run->result.cell_id = cell.id;
  auto st = ctx.cell(i, round, run->result);
  if (!st.ok()) return st.take_error();
  if (auto* obs = ctx.env().observer) obs->cell_finished(pos, run->result);
  if (run->result.io_errors)
    return core::Error(ErrorKind::Io, plan.subtests[i].id + " round " + std::to_string(round) + " cell " + cell.id +
                                          ": " + std::to_string(run->result.io_errors) + " I/O errors (first: " +
                                          run->result.error + ")");
  out.result = std::move(run->result);
  return out;
}

core::Status close_round_plain(RunContext& ctx, size_t i, uint32_t round, std::optional<model::IdleRecord> idle,
                               std::optional<model::SteadyStateVerdict> verdict) {
  const auto& rounds = ctx.record().subtests[i].rounds;
  if (rounds.empty() || rounds.back().round != round)
    return core::Error(ErrorKind::Internal, "closing round " + std::to_string(round) + " that has no cells");
  model::RoundRecord summary;
  summary.round = round;
  summary.started_wall_ns = rounds.back().started_wall_ns;
  summary.ended_wall_ns = ctx.wall_ns();
  set_round_gaps(summary, ctx.round_gaps());
  summary.idle_after = std::move(idle);
  summary.verdict = std::move(verdict);
  return ctx.round_end(i, summary);
}

model::IdleRecord host_idle(RunContext& ctx, uint64_t ns) {
  RunEnv& env = ctx.env();
  model::IdleRecord rec;
  rec.requested_ns = ns;
  if (auto c = env.engine.counters()) {
    rec.engine_ios_before = c->engine_ios;
    rec.kernel_ios_before = c->kernel_ios;
    rec.kernel_in_flight_before = c->kernel_in_flight;
  }
  rec.started_wall_ns = env.clock.wall_ns();
  const uint64_t t0 = env.clock.monotonic_ns();
  rec.completed = env.clock.idle_ns(ns, env.controls.stop_after_cell);
  rec.measured_ns = env.clock.monotonic_ns() - t0;
  ctx.procedure_idle(rec.measured_ns);  // not the tool's gap before the next cell
  rec.ended_wall_ns = env.clock.wall_ns();
  if (auto c = env.engine.counters()) {
    rec.engine_ios_after = c->engine_ios;
    rec.kernel_ios_after = c->kernel_ios;
  }
  return rec;
}

core::Status finish_subtest_summary(RunContext& ctx, size_t i, model::SubTestRecord summary, const std::string& detail) {
  const auto& sub = ctx.record().plan.subtests[i];
  summary.id = sub.id;
  summary.complete = true;
  auto st = ctx.subtest_end(i, summary);
  if (!st.ok()) return st;
  const auto& rounds = ctx.record().subtests[i].rounds;
  return ctx.transition("Done", i, rounds.empty() ? 0 : rounds.back().round, detail);
}

model::Finding finding(std::string key, std::string label, std::optional<double> value, std::string unit,
                       std::string detail) {
  model::Finding f;
  f.key = std::move(key);
  f.label = std::move(label);
  f.value = value;
  f.unit = std::move(unit);
  f.detail = std::move(detail);
  return f;
}

std::string short_number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace pts::runner
