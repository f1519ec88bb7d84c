// qualify/compare_workbook.h — the side-by-side workbook of `ptsuite compare`: a first page with
// the drives, what was compared and every difference (when --allow-mismatch let them through),
// then the headline figures, the Measurement Window matrix and, per Tracking Variable, the
// Rounds overlaid (one line per drive) with each drive's steady-state window; every figure of
// a drive beside its delta against the baseline. Figures are the stored ones (never
// recomputed). Pure: builds a report::Document. May use: core, model, report.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/run_record.h"
#include "qualify/comparability.h"
#include "report/document.h"
#include "report/template_spec.h"

namespace pts::qualify {

struct ComparedRun {
  const model::RunRecord* record = nullptr;
  std::string name;  ///< how pages name it (the run directory's name)
  std::string dir;   ///< the run directory as given
};

struct CompareInput {
  std::vector<ComparedRun> runs;       ///< the baseline first
  std::vector<Difference> differences; ///< empty: comparable
  report::ReportTemplate tmpl;         ///< the test's template (its headline figures)
  uint64_t report_wall_ns = 0;
};

/// The workbook's pages, laid out for report::write_xlsx.
report::Document compare_document(const CompareInput& input);

/// The figure a comparison matrix shows for a sub-test: that of its first Tracking Variable
/// ("iops", "mbps", "art_ms", "mrt_ms"); "iops" when it has none.
std::string primary_metric(const model::SubTestPlan& subtest);

}  // namespace pts::qualify
