// pts/procedure.cpp — see procedure.h. The registry is one explicit table.
#include "pts/procedure.h"

#include <algorithm>

#include "pts/steady_rounds.h"

namespace pts::runner {

const std::vector<ProcedureEntry>& procedures() {
  static const SteadyRoundsProcedure steady_rounds;
  static const std::vector<ProcedureEntry> table = {
      {"steady-rounds", {"iops", "throughput", "latency"}, &steady_rounds},
  };
  return table;
}

const Procedure* find_procedure(const std::string& test_id) {
  for (const auto& e : procedures())
    if (std::find(e.test_ids.begin(), e.test_ids.end(), test_id) != e.test_ids.end()) return e.impl;
  return nullptr;
}

}  // namespace pts::runner
