// config/procedure_table.cpp — see procedure_table.h: the built-in rows, then any a caller
// registered.
#include "config/procedure_table.h"

#include "config/procedure_rows.h"

namespace pts::config {

namespace {

std::vector<const ProcedureRow*>& table() {
  static std::vector<const ProcedureRow*> rows = {
      &steady_rounds_procedure(), &wsat_procedure(), &hir_procedure(), &xsr_procedure(), &dirth_procedure(),
      &curve_procedure(), &sweep_procedure(),
      &pressure_procedure(), &neighbour_procedure(),
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

}  // namespace pts::config
