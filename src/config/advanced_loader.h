// config/advanced_loader.h — internal to config/: reads and checks the advanced tests' parts of
// a definition ([workload.ID], [wsat], [hir], [xsr], [dirth]; advanced_definition.h), adding
// every problem as file:line to the loader's Problems. Included by config/*.cpp only.
#pragma once

#include <string>

#include "config/definition.h"
#include "config/toml_reader.h"

namespace pts::config::detail {

/// True for "steady-rounds", "wsat", "hir", "xsr", "dirth".
bool known_procedure(const std::string& name);
/// "steady-rounds, wsat, hir, xsr, dirth" for messages.
std::string procedure_names();

/// Reads [workload.*] and the procedure's table (required) into d.advanced; a table of
/// another procedure is a problem. d.procedure is already set.
void read_advanced(const toml::table& root, TableReader& top, Problems& p, TestDefinition& d);

/// A steady-rounds definition must not carry advanced tables.
void reject_advanced_tables(const toml::table& root, TableReader& top, Problems& p);

/// Once everything is read: workloads named by the procedure table and by the editions exist,
/// the procedure has no WIPC.
void cross_check_advanced(const TestDefinition& d, Problems& p);

}  // namespace pts::config::detail
