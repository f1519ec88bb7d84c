// pts/procedure.h — the explicit registry of test procedures. A procedure runs one sub-test
// of a plan from wherever the record says it stands (fresh, or reloaded for resume) to its
// end. IOPS, Throughput and Latency share the generic round/steady-state procedure; WSAT,
// HIR, XSR and DIRTH (which ECW runs too) have their own entries beside it.
// May use: core, model, pts/run_context.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "pts/run_context.h"

namespace pts::runner {

class Procedure {
 public:
  virtual ~Procedure() = default;
  /// Stable name, e.g. "steady-rounds".
  virtual const char* name() const = 0;
  /// Runs sub-test `subtest` of ctx.record().plan to its end (Done) or until the operator
  /// stops it (Interrupted). Errors carry their exit kind (Device, Io, Internal, ...).
  virtual core::Result<StepOutcome> run_subtest(RunContext& ctx, size_t subtest) const = 0;
};

/// One registry row: which test ids a procedure runs.
struct ProcedureEntry {
  const char* procedure;
  std::vector<std::string> test_ids;
  const Procedure* impl;
};

/// Every registered procedure.
const std::vector<ProcedureEntry>& procedures();

/// The procedure for a plan's test_id; nullptr when none runs it.
const Procedure* find_procedure(const std::string& test_id);

/// The procedure a plan names (TestPlan::procedure), else the one for its test_id (records
/// from before the advanced tests); nullptr when none runs it.
const Procedure* find_procedure_for(const model::TestPlan& plan);

}  // namespace pts::runner
