// pts/procedure.cpp — see procedure.h. The registry is one explicit table.
#include "pts/procedure.h"

#include <algorithm>

#include "pts/dirth.h"
#include "pts/hir.h"
#include "pts/steady_rounds.h"
#include "pts/wsat.h"
#include "pts/xsr.h"

namespace pts::runner {

const std::vector<ProcedureEntry>& procedures() {
  static const SteadyRoundsProcedure steady_rounds;
  static const WsatProcedure wsat;
  static const HirProcedure hir;
  static const XsrProcedure xsr;
  static const DirthProcedure dirth;
  static const std::vector<ProcedureEntry> table = {
      {"steady-rounds", {"iops", "throughput", "latency"}, &steady_rounds},
      {"wsat", {"wsat"}, &wsat},
      {"hir", {"hir"}, &hir},
      {"xsr", {"xsr"}, &xsr},
      {"dirth", {"dirth", "ecw"}, &dirth},
  };
  return table;
}

const Procedure* find_procedure(const std::string& test_id) {
  for (const auto& e : procedures())
    if (std::find(e.test_ids.begin(), e.test_ids.end(), test_id) != e.test_ids.end()) return e.impl;
  return nullptr;
}

const Procedure* find_procedure_for(const model::TestPlan& plan) {
  if (!plan.procedure.empty()) {
    for (const auto& e : procedures())
      if (plan.procedure == e.procedure) return e.impl;
    return nullptr;
  }
  return find_procedure(plan.test_id);
}

}  // namespace pts::runner
