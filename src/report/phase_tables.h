// report/phase_tables.h — the table selections of the report pages of the tests whose
// procedures have phases of their own (WSAT, HIR, XSR, DIRTH, ECW): samples over time / TGBW / drive fills, the findings pts stored per
// sub-test, the plan's readings of unconfirmed details, demand points (IOPS vs ART per TC)
// and the response-time histogram of a capture cell. Like tables.cpp it prints what pts
// stored and never derives a finding itself. May use: core, model, report/tables.
#pragma once

#include "report/document.h"
#include "report/tables.h"
#include "report/template_spec.h"

namespace pts::report {

/// Builds a Samples, Findings, Interpretations, Points or Histogram table (tables.h's
/// build_table dispatches here).
Table phase_table(const TableSpec& spec, const Scope& scope);

/// The finding `key` of the first sub-test in `subtests` (plan indices) that stored it.
const model::Finding* find_finding(const model::RunRecord& record, const std::vector<size_t>& subtests,
                                   const std::string& key, size_t* found_in = nullptr);

}  // namespace pts::report
