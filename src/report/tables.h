// report/tables.h — table selections: turn one TableSpec into a Table of numbers from the
// RunRecord (per-Round values, window aggregates, the stored steady-state determination, raw
// cells). Only Rounds inside the reported Measurement Window feed window tables. Never
// recomputes steady state. May use: core, model.
#pragma once

#include <cstddef>
#include <vector>

#include "model/run_record.h"
#include "report/document.h"
#include "report/template_spec.h"

namespace pts::report {

/// The part of a record one page covers.
struct Scope {
  const model::RunRecord* record = nullptr;
  std::vector<size_t> subtests;           ///< indices into record->plan.subtests
  size_t tracking_subtest = 0;            ///< for Tracking pages: plan sub-test index
  const model::TrackingVariable* tracking = nullptr;  ///< for Tracking pages
};

/// True when `cell` passes every set field of `filter` (tables and headlines share it).
bool cell_matches(const model::CellPlan& cell, const CellFilter& filter);

/// Builds the table `spec` selects within `scope`. `spec.metric` must be valid (the template
/// loader checks it).
Table build_table(const TableSpec& spec, const Scope& scope);

/// Every Round's every cell of the given plan sub-tests, one row each: the Raw sheet and the
/// CSV file share these columns.
Table raw_table(const model::RunRecord& record, const std::vector<size_t>& subtests);

/// The stored verdict window of `variable` in sub-test `st`; nullptr when none was recorded.
const model::TrackingVerdict* find_tracking_verdict(const model::SubTestRecord* st,
                                                    const model::TrackingVariable& variable);

}  // namespace pts::report
