// report/header_block.h — the SNIA header block every report page opens with: spec revision,
// run dates, DUT, platform, set-up and test parameters, the status banners (incomplete run,
// steady state NOT achieved) and every deviation in plain words. May use: core, model.
#pragma once

#include <string>
#include <vector>

#include "model/run_record.h"
#include "report/document.h"
#include "report/tables.h"

namespace pts::report {

/// Header of a page covering `scope` (set-up lines name the scope's sub-tests' purge and
/// WIPC). `report_wall_ns` is the report date. Page label and sub-title are set by the caller.
PageHeader build_header(const model::RunRecord& record, const std::string& test_name, const Scope& scope,
                        uint64_t report_wall_ns);

/// The status lines of the run/sub-tests in scope: "INCOMPLETE RUN — partial results",
/// "Steady state NOT achieved (rounds 21–25 reported)", "Steady state achieved (…)".
std::vector<Banner> status_banners(const model::RunRecord& record, const std::vector<size_t>& subtests);

}  // namespace pts::report
