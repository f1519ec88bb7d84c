// report/layout.h — expands a ReportTemplate over a RunRecord into a Document: one page per
// sheet (or per sub-test / Tracking Variable for repeated sheets), each with its header block,
// tables and charts. Pure: no files. May use: core, model.
#pragma once

#include <cstdint>

#include "model/run_record.h"
#include "report/document.h"
#include "report/template_spec.h"

namespace pts::report {

/// The report of `record` laid out by `tmpl`; `report_wall_ns` is printed as the report date.
Document build_document(const model::RunRecord& record, const ReportTemplate& tmpl, uint64_t report_wall_ns);

/// A valid, unique xlsx sheet name from `wanted` (≤ 31 chars, no []:*?/\ characters).
std::string sheet_name(const std::string& wanted, const std::vector<Page>& existing);

}  // namespace pts::report
