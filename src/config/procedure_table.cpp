// config/procedure_table.cpp — see procedure.h: the table itself (built-in rows, then any a
// caller registered) and the shared keys a row may read.
#include <algorithm>

#include "config/procedure.h"
#include "config/procedure_rows.h"

namespace pts::config {

namespace {

std::vector<const ProcedureRow*>& table() {
  static std::vector<const ProcedureRow*> rows = {
      &steady_rounds_procedure(), &wsat_procedure(), &hir_procedure(), &xsr_procedure(), &dirth_procedure(),
  };
  return rows;
}

}  // namespace

const std::vector<const ProcedureRow*>& procedures() { return table(); }

const ProcedureRow* find_procedure(const std::string& name) {
  if (name.empty()) return table().front();
  for (const ProcedureRow* row : table())
    if (name == row->name) return row;
  return nullptr;
}

std::string procedure_names() {
  std::string out;
  for (const ProcedureRow* row : table()) out += (out.empty() ? "" : ", ") + std::string(row->name);
  return out;
}

bool register_procedure(const ProcedureRow& row) {
  if (std::string(row.name).empty() || find_procedure(row.name)) return false;
  table().push_back(&row);
  return true;
}

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
