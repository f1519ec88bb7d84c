// config/procedure.cpp — see procedure.h: the shared definition keys a row may read.
#include "config/procedure.h"

#include <algorithm>

namespace pts::config {

const std::vector<std::string>& shared_keys() {
  static const std::vector<std::string> keys = {
      "matrix", "subtest", "workload", "engine",
      "steady_state.window_rounds", "steady_state.max_rounds", "steady_state.data_excursion_pct",
      "steady_state.slope_excursion_pct",
      "preconditioning.wipc", "preconditioning.wipc_capacity_multiple", "preconditioning.wipc_block_size",
      "preconditioning.wipc_threads", "preconditioning.wipc_queue_depth",
      "editions.tracking", "editions.subtests", "editions.workloads", "editions.active_range_segments",
      "editions.active_range_amount",
  };
  return keys;
}

bool reads(const ProcedureRow& row, const std::string& key) {
  return std::find(row.reads.begin(), row.reads.end(), key) != row.reads.end();
}

}  // namespace pts::config
