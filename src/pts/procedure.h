// pts/procedure.h — the procedure table, run side. A procedure runs one sub-test of a plan from
// wherever the record says it stands (fresh, or reloaded for resume) to its end. Each row joins
// the definition side of a procedure (config/procedure.h: its name, read, resolve, duration,
// describe) with the Procedure that runs it: steady Rounds (IOPS, Throughput, Latency), WSAT,
// HIR, XSR and DIRTH (which ECW runs too), one file each. The runner looks the plan's row up
// by the name the plan records and never asks which procedure it is.
// May use: core, model, config, pts/run_context.
#pragma once

#include <string>
#include <vector>

#include "config/procedure_table.h"
#include "core/result.h"
#include "pts/run_context.h"

namespace pts::runner {

class Procedure {
 public:
  virtual ~Procedure() = default;
  /// Runs sub-test `subtest` of ctx.record().plan to its end (Done) or until the operator
  /// stops it (Interrupted). Errors carry their exit kind (Device, Io, Internal, ...).
  virtual core::Result<StepOutcome> run_subtest(RunContext& ctx, size_t subtest) const = 0;
};

/// One row: the definition side of a procedure and the part that runs it.
struct ProcedureEntry {
  const config::ProcedureRow* definition;
  const Procedure* run;
};

/// Every row, built-in first.
const std::vector<ProcedureEntry>& procedures();

/// The Procedure that runs plans of `definition`'s procedure; nullptr when none does.
const Procedure* find_procedure(const config::ProcedureRow& definition);

/// The Procedure that runs `plan` (by the name TestPlan::procedure records; a record from
/// before the table names none: steady Rounds); nullptr when none does.
const Procedure* find_procedure_for(const model::TestPlan& plan);

/// Adds a procedure at run time: its definition row (config::register_procedure, unless the
/// table holds it already) and the part that runs it. Both must outlive every use. False when
/// a run side for that name is registered already or the definition row is refused.
bool register_procedure(const config::ProcedureRow& definition, const Procedure& run);

/// The names of the definition rows no run side joins (empty: every row can run): the table's
/// check at start-up and in the unit tests.
std::vector<std::string> rows_without_run();

}  // namespace pts::runner
