// pts/steady_rounds.cpp — see steady_rounds.h.
#include "pts/steady_rounds.h"

#include <algorithm>
#include <cstdio>

#include "config/run_options.h"
#include "core/units.h"
#include "steady/steady_state.h"
#include "pts/phase_steps.h"
#include "pts/phases.h"
#include "pts/window_results.h"

namespace pts::runner {

namespace {

using core::ErrorKind;

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

/// An operator seed (--seed) must not repeat the same offset sequence in every Round: each
/// cell of each Round gets its own seed derived from it (splitmix64), reproducible run to run.
uint64_t derive_seed(uint64_t base, size_t subtest, uint32_t round, size_t cell) {
  uint64_t z = base ^ (static_cast<uint64_t>(subtest) << 48) ^ (static_cast<uint64_t>(round) << 20) ^ cell;
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return z ? z : 1;
}

core::Result<StepOutcome> do_wipc(RunContext& ctx, size_t i) {
  const auto& plan = ctx.record().plan;
  const auto& sub = plan.subtests[i];
  auto st = ctx.check_identity("WIPC of sub-test " + sub.id);
  if (!st.ok()) return st.take_error();
  const uint64_t target = sub.wipc.bytes_limit;
  st = ctx.transition("WIPC", i, 0,
                      "SEQ " + core::format_block_size(sub.wipc.block_bytes) + " write of " +
                          core::format_bytes(target) + " (" + fmt("%g", plan.wipc_capacity_multiple) +
                          " x user capacity) over the " + fmt("%g", sub.wipc.active_range_pct) +
                          " % ActiveRange, TC " + std::to_string(sub.wipc.threads) + " / QD " +
                          std::to_string(sub.wipc.queue_depth));
  if (!st.ok()) return st.take_error();
  CellPosition pos;
  pos.subtest = i;
  pos.subtest_count = plan.subtests.size();
  pos.subtest_id = sub.id;
  pos.cell_id = "WIPC";
  pos.label = "WIPC SEQ " + core::format_block_size(sub.wipc.block_bytes) + " W";
  pos.bytes_limit = target;
  if (auto* obs = ctx.env().observer) obs->cell_started(pos);
  auto run = ctx.run_engine(sub.wipc, /*abort_on_stop=*/true, pos);
  if (!run.ok()) return run.take_error();
  model::PreconditionRecord rec;
  rec.kind = "WIPC";
  rec.target_bytes = target;
  rec.bytes_written = run->result.write_bytes;
  rec.completed = !run->stopped_early && run->result.io_errors == 0 && rec.bytes_written >= target;
  rec.result = run->result;
  rec.result.cell_id = "WIPC";
  if (auto* obs = ctx.env().observer) obs->cell_finished(pos, rec.result);
  st = ctx.precondition(i, rec);
  if (!st.ok()) return st.take_error();
  if (rec.result.io_errors)
    return core::Error(ErrorKind::Io, "WIPC of sub-test " + sub.id + ": " + std::to_string(rec.result.io_errors) +
                                          " I/O errors (first: " + rec.result.error + ")");
  if (!rec.completed) {
    if (run->stopped_early) return StepOutcome::Interrupted;
    return core::Error(ErrorKind::Io, "WIPC of sub-test " + sub.id + " wrote " + std::to_string(rec.bytes_written) +
                                          " of " + std::to_string(target) + " bytes");
  }
  return StepOutcome::Done;
}

/// Closes round `r` (all its cells recorded): verdict, gaps, round_end, SteadyCheck.
core::Status close_round(RunContext& ctx, size_t i, uint32_t r) {
  const auto& plan = ctx.record().plan;
  const auto& sub = plan.subtests[i];
  const auto& rounds = ctx.record().subtests[i].rounds;
  auto verdict = steady::assess_round(plan, sub, rounds, r);
  if (!verdict.ok()) return verdict.take_error();
  model::RoundRecord summary;
  summary.round = r;
  summary.started_wall_ns = rounds.back().started_wall_ns;
  summary.ended_wall_ns = ctx.wall_ns();
  set_round_gaps(summary, ctx.round_gaps());
  summary.verdict = *verdict;
  auto st = ctx.round_end(i, summary);
  if (!st.ok()) return st;
  std::string detail = "round " + std::to_string(r) + ": ";
  if (r < plan.window_rounds) {
    detail += "no full Measurement Window yet";
  } else {
    detail += verdict->steady ? "steady" : "not steady";
    for (const auto& v : verdict->variables)
      detail += "; " + v.variable.label + " window " + std::to_string(v.window.first_round) + "-" +
                std::to_string(v.window.last_round) + " avg " + fmt("%.6g", v.window.average) + " data exc " +
                fmt("%.4g", v.window.data_excursion) + "/" + fmt("%.4g", v.window.allowed_data_excursion) +
                " slope exc " + fmt("%.4g", v.window.slope_excursion) + "/" +
                fmt("%.4g", v.window.allowed_slope_excursion);
  }
  st = ctx.transition("SteadyCheck", i, r, detail);
  if (!st.ok()) return st;
  return check_write_cache(ctx, i, r, "at the end of Round " + std::to_string(r) + " of sub-test " + sub.id);
}

/// After a closed round: should the sub-test end here?
bool round_ends_subtest(const model::TestPlan& plan, const model::RoundRecord& round) {
  if (round.verdict && round.verdict->steady) return true;
  return round.round >= plan.max_rounds && !plan.continue_past_max;
}

core::Status finish_subtest(RunContext& ctx, size_t i, const SummaryHook& on_finish) {
  const auto& plan = ctx.record().plan;
  const auto& sub = plan.subtests[i];
  const auto& rec = ctx.record().subtests[i];
  const auto& last = rec.rounds.back();
  model::SubTestRecord summary;
  summary.id = sub.id;
  summary.complete = true;
  summary.steady_state_reached = last.verdict && last.verdict->steady;
  summary.window_last_round = last.round;
  summary.window_first_round = last.round >= plan.window_rounds ? last.round - plan.window_rounds + 1 : 1;
  summary.final_verdict = last.verdict;
  summary.window_results = window_results(sub, rec.rounds, summary.window_first_round, summary.window_last_round);
  if (on_finish) {
    auto added = on_finish(ctx, i, summary);
    if (!added.ok()) return added;
  }
  auto st = ctx.subtest_end(i, summary);
  if (!st.ok()) return st;
  const std::string window =
      "Measurement Window rounds " + std::to_string(summary.window_first_round) + "-" +
      std::to_string(summary.window_last_round);
  return ctx.transition("Done", i, last.round,
                        summary.steady_state_reached
                            ? "steady state reached in round " + std::to_string(last.round) + "; " + window
                            : "steady state not achieved by round " + std::to_string(last.round) + "; " + window +
                                  " (the last rounds run) reported");
}

}  // namespace

uint64_t cell_seed(uint64_t base, size_t subtest, uint32_t round, size_t cell) {
  return derive_seed(base, subtest, round, cell);
}

core::Result<StepOutcome> SteadyRoundsProcedure::run_subtest(RunContext& ctx, size_t i) const {
  return run_steady_rounds(ctx, i);
}

core::Result<StepOutcome> run_steady_rounds(RunContext& ctx, size_t i, const SummaryHook& on_finish) {
  const auto& plan = ctx.record().plan;
  const auto& sub = plan.subtests[i];
  if (ctx.record().subtests[i].complete) return StepOutcome::Done;

  if (purge_pending(ctx.record(), i)) {  // none yet, or one that did not settle: purge (again)
    if (ctx.stop_requested()) return StepOutcome::Interrupted;
    auto st = purge_step(ctx, i);
    if (!st.ok()) return st.take_error();
  }
  const auto& wipc = ctx.record().subtests[i].wipc;
  if (sub.wipc_enabled && ctx.record().subtests[i].rounds.empty() && !(wipc && wipc->completed)) {
    if (ctx.stop_requested()) return StepOutcome::Interrupted;
    auto done = do_wipc(ctx, i);
    if (!done.ok() || *done == StepOutcome::Interrupted) return done;
  }

  std::vector<size_t> cells;
  for (size_t c = 0; c < sub.cells.size(); ++c)
    if (sub.cells[c].applicable) cells.push_back(c);
  if (cells.empty()) return core::Error(ErrorKind::Internal, "sub-test " + sub.id + " has no applicable cell");

  const auto& rounds = ctx.record().subtests[i].rounds;
  for (;;) {
    uint32_t r = 1;
    size_t k = 0;
    if (!rounds.empty() && rounds.back().ended_wall_ns == 0) {  // a round in flight (resume)
      r = rounds.back().round;
      k = rounds.back().cells.size();
    } else if (!rounds.empty()) {
      if (round_ends_subtest(plan, rounds.back())) {
        auto st = finish_subtest(ctx, i, on_finish);
        if (!st.ok()) return st.take_error();
        return StepOutcome::Done;
      }
      r = rounds.back().round + 1;
    }
    if (ctx.stop_requested()) return StepOutcome::Interrupted;
    ctx.start_round();
    auto st = ctx.transition("Round", i, r,
                             k == 0 ? "round " + std::to_string(r) + ", " + std::to_string(cells.size()) + " cells"
                                    : "round " + std::to_string(r) + " continues at cell " + std::to_string(k + 1) +
                                          " of " + std::to_string(cells.size()));
    if (!st.ok()) return st.take_error();
    for (; k < cells.size(); ++k) {
      if (ctx.stop_requested()) return StepOutcome::Interrupted;
      const model::CellPlan& cell = sub.cells[cells[k]];
      CellPosition pos;
      pos.subtest = i;
      pos.subtest_count = plan.subtests.size();
      pos.subtest_id = sub.id;
      pos.round = r;
      pos.max_rounds = plan.max_rounds;
      pos.unbounded_rounds = plan.continue_past_max;
      pos.cell_index = k;
      pos.cells_in_round = cells.size();
      pos.cell_id = cell.id;
      pos.label = cell.label;
      pos.cell_seconds = cell.spec.seconds;
      if (auto* obs = ctx.env().observer) obs->cell_started(pos);
      model::AccessSpec spec = cell.spec;
      if (spec.seed != 0) spec.seed = derive_seed(spec.seed, i, r, cells[k]);
      auto run = ctx.run_engine(spec, /*abort_on_stop=*/false, pos);
      if (!run.ok()) return run.take_error();
      if (run->stopped_early) return StepOutcome::Interrupted;  // a cut cell is not recorded; resume re-runs it
      run->result.cell_id = cell.id;
      st = ctx.cell(i, r, run->result);
      if (!st.ok()) return st.take_error();
      if (auto* obs = ctx.env().observer) obs->cell_finished(pos, run->result);
      if (run->result.io_errors)  // journaled as failed (never a result); resume runs the cell again
        return core::Error(ErrorKind::Io, "round " + std::to_string(r) + " cell " + cell.id + ": " +
                                              std::to_string(run->result.io_errors) + " I/O errors (first: " +
                                              run->result.error + "); the cell is recorded as failed and " +
                                              "`ptsuite resume` runs it again");
    }
    st = close_round(ctx, i, r);
    if (!st.ok()) return st.take_error();
  }
}

}  // namespace pts::runner
