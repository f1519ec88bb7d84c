// config/procedure.h — the procedure table, definition side. A procedure is one row, in the
// spirit of fio's ioengine_ops: its name (what a definition's [test] procedure says and the
// record's plan.procedure keeps), its own TOML table, which shared definition keys it reads, and
// the functions that read that table (definition TOML → its definition struct, problems as
// file:line), check the whole definition, resolve it (definition + run options + identity → the
// plan's sub-tests and the procedure's own model::ProcedurePlan), state a sub-test's worst-case
// duration and describe it for `ptsuite plan`. Running a plan is the other half of the row, in
// pts/procedure.h, joined to this one there (config/ may not use pts/).
//
// This header is what a row is (a row's file includes it); the table of rows is
// procedure_table.h. The built-in rows (procedure_rows.h) are one file each: steady_rounds.cpp,
// wsat.cpp, hir.cpp, xsr.cpp, dirth.cpp. Nothing above the table asks for a procedure by name:
// it looks a row up and calls it. May use: core, model.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "config/definition.h"
#include "config/resolved_plan.h"
#include "config/run_options.h"
#include "model/device.h"
#include "model/plan.h"

namespace pts::config {

namespace detail {
class TableReader;  // toml_reader.h (config/ internal; a row's read includes it)
class Problems;
}  // namespace detail

/// Everything one resolution reads and writes (a row's resolve gets it after the run-wide
/// settings — edition/class, durations, TC/QD, ActiveRange, purge — are in r.plan).
struct ResolveCtx {
  const TestDefinition& d;
  const ClassSettings& cs;
  const RunOptions& o;
  const model::DeviceIdentity& id;
  ResolvedPlan& r;
  std::vector<std::string>& errors;             ///< BadInput messages, all reported at once
  std::vector<std::string> checked = {};        ///< workloads already checked against the target
  /// Block-size mixes as the target can run them (workloads.h runnable()), by workload id.
  std::map<std::string, WorkloadDef> runnable = {};

  model::TestPlan& plan() { return r.plan; }
  double scaled(double spec_seconds) const { return spec_seconds * r.plan.time_scale; }
  void deviate(std::string code, std::string text) { r.deviations.push_back({std::move(code), std::move(text)}); }
  void interpret(std::string text) { r.plan.interpretations.push_back(std::move(text)); }
  void note(std::string text) { r.notes.push_back(std::move(text)); }
  /// "file:line: " for a message about the definition.
  std::string at(int line) const { return d.file + ":" + std::to_string(line) + ": "; }
};

/// Worst case of one sub-test.
struct SubtestWorstCase {
  double seconds = 0;
  std::string how;  ///< e.g. "until 4 × capacity is written or 24 h, whichever first"
};

/// What `ptsuite plan` prints for one sub-test beyond its purge and WIPC.
struct SubtestText {
  std::vector<std::string> phases;  ///< one line per phase, in plain words; empty = cells only
  bool then_cells = false;          ///< also list the Tracking Variables and cells (DIRTH's sweep)
};

/// One procedure, definition side. Functions a procedure does not need stay null.
struct ProcedureRow {
  const char* name = "";        ///< "steady-rounds", "wsat", ...: the only place the name is spelt
  const char* table = nullptr;  ///< its own table ("wsat" = [wsat]), required; nullptr = none
  /// The shared definition keys it reads, from shared_keys(); the loader refuses every other
  /// one in a definition of this procedure (file:line, "does not read this key"). Reading
  /// "matrix", "workload" or "editions.tracking" makes them required.
  std::vector<std::string> reads;
  /// Its sub-tests are the definition's [matrix] run in Rounds: `plan` lists them in matrix
  /// order and names no procedure (IOPS, Throughput, Latency).
  bool matrix_rounds = false;
  bool scaled = false;            ///< has phases beyond its cells: --time-scale multiplies them
  bool takes_workload = false;    ///< --workload picks its stimulus among the definition's workloads
  bool takes_art_ceiling = false; ///< --art-ceiling sets its MaxIOPS ceiling
  /// Not a SNIA PTS test: `ptsuite list` shows its definitions apart, under this heading;
  /// nullptr for the PTS's own tests.
  const char* not_snia_group = nullptr;

  /// Reads the procedure's own table (`own`, named "[<table>]") into d.own_table.
  void (*read)(detail::TableReader& own, TestDefinition& d) = nullptr;
  /// Cross-checks once the whole definition is read (workloads it names exist, ...).
  /// `shared_ok` is false when the shared tables ([matrix], [[subtest]], [workload.*]) had
  /// problems: cross-checks against them would only repeat those.
  void (*check)(const TestDefinition& d, detail::Problems& p, bool shared_ok) = nullptr;
  /// Adds the plan's sub-tests and the procedure's own parameters (c.plan().procedure_plan);
  /// departures from the spec are deviations, readings of unconfirmed details interpretations.
  void (*resolve)(ResolveCtx& c) = nullptr;
  /// Worst-case duration of one of its sub-tests.
  SubtestWorstCase (*worst_case)(const model::TestPlan& plan, const model::SubTestPlan& sub) = nullptr;
  /// What one of its sub-tests does, for `ptsuite plan`.
  SubtestText (*describe)(const model::TestPlan& plan, const model::SubTestPlan& sub) = nullptr;
  /// Restates an engine-limit problem of one of its cells in the definition's words (a DIRTH
  /// grid point's TC/QD come from [dirth], not from --threads/--oio); null = as it is.
  std::string (*explain_limit)(const TestDefinition& d, const model::SubTestPlan& sub, const model::CellPlan& cell,
                               const std::string& problem) = nullptr;
};

/// The shared definition keys a row may list in `reads`: tables ("matrix", "subtest",
/// "workload", "engine") and keys ("steady_state.max_rounds", "preconditioning.wipc",
/// "editions.tracking", ...). Every other key is read for every procedure.
const std::vector<std::string>& shared_keys();

/// True when `row` reads the shared key `key`.
bool reads(const ProcedureRow& row, const std::string& key);

}  // namespace pts::config
