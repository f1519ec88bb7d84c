// config/procedure_table.h — the procedure table itself, definition side: the built-in rows
// (procedure_rows.h) in table order, then any a caller registered at run time; looked up by the
// name a definition's [test] procedure and a record's plan.procedure keep. The rows never call
// this (they include procedure.h only), so the table depends on its rows and never the other
// way. May use: core, model.
#pragma once

#include <string>
#include <vector>

#include "config/procedure.h"

namespace pts::config {

/// Every row, built-in first, in table order (the first is the default procedure).
const std::vector<const ProcedureRow*>& procedures();
/// The row named `name`; nullptr when none is. An empty name is the default procedure (a record
/// from before the table).
const ProcedureRow* find_procedure(const std::string& name);
/// "steady-rounds, wsat, hir, xsr, dirth" for messages.
std::string procedure_names();
/// Adds a row at run time (a procedure from outside the built-in table, e.g. a test's own).
/// `row` must outlive every use; a name already in the table is refused (false).
bool register_procedure(const ProcedureRow& row);

}  // namespace pts::config
