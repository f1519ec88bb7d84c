// report/layout.h — expands a ReportTemplate over a RunRecord into a Document: the Summary
// page, the Deviations page when the list is long, then one page per sheet (or per sub-test /
// Tracking Variable for repeated sheets), each with its header block, tables, charts and its
// numbered caption. Pure: no files. May use: core, model.
#pragma once

#include <cstdint>

#include "model/run_record.h"
#include "report/document.h"
#include "report/template_spec.h"

namespace pts::report {

/// How many deviations a report page's header lists before "see the Deviations page"; a
/// record with more gets a Deviations page (second, after the Summary).
inline constexpr size_t kHeaderDeviations = 3;

/// The report of `record` laid out by `tmpl`: the Summary page first, the Deviations page
/// when needed, then the template's sheets in order (a group of sheets sub-test by sub-test);
/// `report_wall_ns` is printed as the report date. Without `raw_pages` the Raw sheet is left
/// out (the PDF a lab hands over: the raw rows stay in the xlsx and CSV), so every page label
/// ("Page 3 of 12") counts the pages that are there.
Document build_document(const model::RunRecord& record, const ReportTemplate& tmpl, uint64_t report_wall_ns,
                        bool raw_pages = true);

/// A valid, unique xlsx sheet name from `wanted` (≤ 31 chars, no []:*?/\ characters).
std::string sheet_name(const std::string& wanted, const std::vector<Page>& existing);

}  // namespace pts::report
