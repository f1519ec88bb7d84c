// report/demand_tables.h — the table selections only the DIRTH procedure's pages use (DIRTH,
// ECW): IOPS and ART of every TC × QD point against its total outstanding I/O, and the
// stimulus's block-size × LBA-range access probabilities as run (ECW's composite mix; on a
// 4096-byte LBA format the mix without its sizes below the sector). Like tables.cpp it prints
// what pts stored. May use: core, model, report/tables.
#pragma once

#include "report/document.h"
#include "report/tables.h"
#include "report/template_spec.h"

namespace pts::report {

/// Builds a Toio or AccessMix table (tables.h's build_table dispatches here).
Table demand_table(const TableSpec& spec, const Scope& scope);

}  // namespace pts::report
