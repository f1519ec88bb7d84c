// pts/review_precondition.h — the review labs' preconditioning (not the PTS's), run side: the
// sub-test's purge (the secure erase), then its steps (the whole surface with SEQ 64 KiB writes,
// an hour more of them, an hour of RND 4 KiB writes inside the ActiveRange before a random
// profile) once each as one journaled Round, and the bytes, time and rate of each as findings.
// The curve and sweep procedures run it first when their definition asks for `review`.
// May use: core, model, pts.
#pragma once

#include <functional>
#include <string>

#include "pts/procedure.h"

namespace pts::runner {

core::Result<StepOutcome> run_review_precondition(RunContext& ctx, size_t subtest);

/// Purge (or its recorded skip) and the cells of sub-test `i` once each as Round 1, from
/// wherever the record stands, Done once Round 1 is closed. `prepare` (may be empty) sets a
/// cell's rate before it runs; `stop_before` (may be empty) ends the Round early.
struct OnceCells {
  std::function<void(const model::CellPlan& cell, model::AccessSpec& spec)> prepare;
  std::function<bool(const model::CellPlan& cell)> stop_before;
  std::string state;   ///< the transition's name ("Precondition", "Curve", "Sweep")
  std::string detail;  ///< and its text
};
core::Result<StepOutcome> run_cells_once(RunContext& ctx, size_t i, const OnceCells& how);

}  // namespace pts::runner
