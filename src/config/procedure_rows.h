// config/procedure_rows.h — the built-in rows of the procedure table (config/procedure.h), one
// file each; pts/procedure.cpp joins each with the part that runs it. May use: core, model.
#pragma once

#include "config/procedure.h"

namespace pts::config {

const ProcedureRow& steady_rounds_procedure();  ///< steady_rounds.cpp: IOPS, Throughput, Latency
const ProcedureRow& wsat_procedure();           ///< wsat.cpp
const ProcedureRow& hir_procedure();            ///< hir.cpp
const ProcedureRow& xsr_procedure();            ///< xsr.cpp
const ProcedureRow& dirth_procedure();          ///< dirth.cpp: DIRTH and ECW
const ProcedureRow& curve_procedure();          ///< curve.cpp: latency-vs-load curves (not SNIA)
const ProcedureRow& sweep_procedure();          ///< sweep.cpp: Iometer-style sweeps (not SNIA)
const ProcedureRow& pressure_procedure();       ///< pressure.cpp: write pressure (not a PTS test)
const ProcedureRow& neighbour_procedure();      ///< neighbour.cpp: noisy neighbour (not a PTS test)

}  // namespace pts::config
