// pts/procedure.cpp — see procedure.h. The table is one explicit list: each built-in definition
// row (config/procedure_rows.h) joined with the procedure that runs it.
#include "pts/procedure.h"

#include "config/procedure_rows.h"
#include "pts/curve.h"
#include "pts/sweep.h"
#include "pts/dirth.h"
#include "pts/hir.h"
#include "pts/qos.h"
#include "pts/steady_rounds.h"
#include "pts/wsat.h"
#include "pts/xsr.h"

namespace pts::runner {

namespace {

std::vector<ProcedureEntry>& table() {
  static const SteadyRoundsProcedure steady_rounds;
  static const WsatProcedure wsat;
  static const HirProcedure hir;
  static const XsrProcedure xsr;
  static const DirthProcedure dirth;
  static const CurveProcedure curve;
  static const SweepProcedure sweep;
  static const QosProcedure qos;
  static std::vector<ProcedureEntry> rows = {
      {&config::steady_rounds_procedure(), &steady_rounds},
      {&config::wsat_procedure(), &wsat},
      {&config::hir_procedure(), &hir},
      {&config::xsr_procedure(), &xsr},
      {&config::dirth_procedure(), &dirth},
      {&config::curve_procedure(), &curve},
      {&config::sweep_procedure(), &sweep},
      {&config::pressure_procedure(), &qos},
      {&config::neighbour_procedure(), &qos},
  };
  return rows;
}

}  // namespace

const std::vector<ProcedureEntry>& procedures() { return table(); }

const Procedure* find_procedure(const config::ProcedureRow& definition) {
  for (const auto& e : table())
    if (e.definition == &definition) return e.run;
  return nullptr;
}

const Procedure* find_procedure_for(const model::TestPlan& plan) {
  const config::ProcedureRow* row = config::find_procedure(plan.procedure);
  return row ? find_procedure(*row) : nullptr;
}

bool register_procedure(const config::ProcedureRow& definition, const Procedure& run) {
  const config::ProcedureRow* known = config::find_procedure(definition.name);
  if (known && find_procedure(*known)) return false;
  if (!known && !config::register_procedure(definition)) return false;
  table().push_back({known ? known : &definition, &run});
  return true;
}

std::vector<std::string> rows_without_run() {
  std::vector<std::string> out;
  for (const config::ProcedureRow* row : config::procedures())
    if (!find_procedure(*row)) out.push_back(row->name);
  return out;
}

}  // namespace pts::runner
