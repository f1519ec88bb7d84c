// qualify/check_workbook.h — the report page of `ptsuite check`: a first page with the sheet
// (title, what it is shaped on, notes) and every drive's verdict, then one page per drive with
// each requirement's test point, figure, measured value, limit, margin and verdict. Pure:
// builds a report::Document. May use: core, model, report.
#pragma once

#include <cstdint>

#include "model/requirement.h"
#include "qualify/evaluate.h"
#include "report/document.h"

namespace pts::qualify {

report::Document check_document(const model::RequirementSheet& sheet, const CheckOutcome& outcome,
                                uint64_t report_wall_ns);

}  // namespace pts::qualify
