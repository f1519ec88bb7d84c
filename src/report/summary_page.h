// report/summary_page.h — the first page of every report, what a buyer reads in ten seconds:
// the drive, the verdict of every sub-test and Tracking Variable, the template's headline
// numbers (stored Measurement Window results, never recomputed) and every deviation.
// May use: core, model.
#pragma once

#include "model/run_record.h"
#include "report/document.h"
#include "report/template_spec.h"

namespace pts::report {

/// The Summary page (kind Summary, no header yet: layout.cpp adds it). Tables, by id:
/// "drive", "verdicts", "headlines", "deviations".
Page summary_page(const model::RunRecord& record, const ReportTemplate& tmpl);

/// Every deviation, numbered (the Summary and the Deviations page share it).
Table deviations_table(const model::RunRecord& record);

}  // namespace pts::report
