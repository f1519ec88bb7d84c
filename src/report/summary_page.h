// report/summary_page.h — the first page of every report, what a buyer reads in ten seconds:
// the drive, the verdict of every sub-test and Tracking Variable, the template's headline
// numbers (stored Measurement Window results, never recomputed) and every deviation.
// May use: core, model.
#pragma once

#include <optional>
#include <string>

#include "model/run_record.h"
#include "report/document.h"
#include "report/template_spec.h"

namespace pts::report {

/// The Summary page (kind Summary, no header yet: layout.cpp adds it). Tables, by id:
/// "drive", "verdicts", "headlines", "deviations".
Page summary_page(const model::RunRecord& record, const ReportTemplate& tmpl);

/// A headline number of one record: the stored Measurement Window result of its metric for
/// the first matching cell, or the finding pts stored. `value` is absent when the record holds
/// none (`why` says so); `found` is false when nothing the headline names was found at all.
struct HeadlineValue {
  std::optional<double> value;
  bool found = false;
  std::string unit;  ///< "IOPS", "MB/s", "ms", or the finding's unit
  std::string from;  ///< "Main, 4 KiB 0/100, Rounds 3–7 (steady state)"
  std::string why;   ///< when `value` is absent
};
HeadlineValue headline_value(const model::RunRecord& record, const HeadlineSpec& headline);

/// Every deviation, numbered (the Summary and the Deviations page share it).
Table deviations_table(const model::RunRecord& record);

}  // namespace pts::report
