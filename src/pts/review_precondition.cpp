// pts/review_precondition.cpp — see review_precondition.h.
#include "pts/review_precondition.h"

#include "core/units.h"
#include "pts/phase_steps.h"
#include "pts/phases.h"

namespace pts::runner {

core::Result<StepOutcome> run_cells_once(RunContext& ctx, size_t i, const OnceCells& how) {
  const auto& plan = ctx.record().plan;
  const auto& sub = plan.subtests[i];
  if (purge_pending(ctx.record(), i)) {
    if (ctx.stop_requested()) return StepOutcome::Interrupted;
    auto st = purge_step(ctx, i);
    if (!st.ok()) return st.take_error();
  }
  const RoundCursor cur = round_cursor(ctx, i);
  if (!cur.in_flight && cur.next_round > 1) return StepOutcome::Done;  // measured; only the summary is missing
  if (ctx.stop_requested()) return StepOutcome::Interrupted;
  size_t k = cur.in_flight ? cur.cells_done : 0;
  auto st = ctx.transition(how.state, i, 1,
                           k == 0 ? how.detail : how.detail + " (continues at step " + std::to_string(k + 1) + ")");
  if (!st.ok()) return st.take_error();
  ctx.start_round();
  for (; k < sub.cells.size(); ++k) {
    if (ctx.stop_requested()) return StepOutcome::Interrupted;
    const model::CellPlan& cell = sub.cells[k];
    if (how.stop_before && how.stop_before(cell)) break;
    model::AccessSpec spec = cell.spec;
    if (how.prepare) how.prepare(cell, spec);
    CellPosition pos;
    pos.max_rounds = 1;
    pos.cell_index = k;
    pos.cells_in_round = sub.cells.size();
    pos.bytes_limit = spec.bytes_limit;
    auto run = run_cell(ctx, i, 1, k, cell, spec, pos);
    if (!run.ok()) return run.take_error();
    if (run->stopped) return StepOutcome::Interrupted;
  }
  const auto& rounds = ctx.record().subtests[i].rounds;
  if (rounds.empty()) return core::Error(core::ErrorKind::Internal, sub.id + ": no step ran");
  st = close_round_plain(ctx, i, 1, std::nullopt);
  if (!st.ok()) return st.take_error();
  return StepOutcome::Done;
}

core::Result<StepOutcome> run_review_precondition(RunContext& ctx, size_t i) {
  const auto& sub = ctx.record().plan.subtests[i];
  if (ctx.record().subtests[i].complete) return StepOutcome::Done;
  OnceCells how;
  how.state = "Precondition";
  how.detail = "review preconditioning (not the PTS's): " + std::to_string(sub.cells.size()) + " steps";
  auto done = run_cells_once(ctx, i, how);
  if (!done.ok() || *done == StepOutcome::Interrupted) return done;
  model::SubTestRecord summary;
  for (const auto& c : ctx.record().subtests[i].rounds.back().cells) {
    const uint64_t planned = [&] {
      for (const auto& pc : sub.cells)
        if (pc.id == c.cell_id) return pc.spec.bytes_limit;
      return uint64_t{0};
    }();
    const std::string what = c.cell_id + ": " + core::format_bytes(c.write_bytes) + " written in " +
                             short_number(c.seconds) + " s (" + short_number(c.write_mbps) + " MB/s)";
    summary.findings.push_back(finding(c.cell_id + "_bytes", c.cell_id + " bytes written",
                                       static_cast<double>(c.write_bytes), "B", what));
    summary.findings.push_back(finding(c.cell_id + "_seconds", c.cell_id + " time", c.seconds, "s"));
    summary.findings.push_back(finding(c.cell_id + "_mbps", c.cell_id + " write rate", c.write_mbps, "MB/s"));
    if (planned > 0)
      summary.findings.push_back(finding(c.cell_id + "_complete", c.cell_id + " wrote its bytes",
                                         c.write_bytes >= planned ? 1.0 : 0.0, "",
                                         c.write_bytes >= planned ? "complete" : "short of " + core::format_bytes(planned)));
  }
  auto st = finish_subtest_summary(ctx, i, summary, "review preconditioning done");
  if (!st.ok()) return st.take_error();
  return StepOutcome::Done;
}

}  // namespace pts::runner
