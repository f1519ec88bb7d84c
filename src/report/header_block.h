// report/header_block.h — the SNIA header block every report page opens with: spec revision,
// run dates, DUT, platform, set-up and test parameters, the status banners (incomplete run,
// steady state NOT achieved), the operator's fields and the deviations. May use: core, model.
#pragma once

#include <string>
#include <vector>

#include "model/run_record.h"
#include "report/document.h"
#include "report/tables.h"

namespace pts::report {

/// Header of a page covering `scope` (set-up lines name the scope's sub-tests' purge and
/// WIPC). `report_wall_ns` is the report date. Page label, sub-title and deviation lines are
/// set by the caller (layout.cpp).
PageHeader build_header(const model::RunRecord& record, const std::string& test_name, const Scope& scope,
                        uint64_t report_wall_ns);

/// The operator's header fields: the required ones first (label, value or "not stated"),
/// then every other stored key as given.
std::vector<HeaderField> operator_header_fields(const model::RunRecord& record);
/// The required operator keys and their labels: tested_by "Tested by", test_sponsor,
/// nand_type, form_factor, notes.
const std::vector<std::pair<std::string, std::string>>& required_operator_fields();
/// "Maker Model · SN … · FW … · 3.5 TiB · PCIe Gen4 x4": the drive on one line.
std::string dut_line(const model::DeviceIdentity& device);
/// Every deviation in plain words, with its code: "Cells ran 5 s … [cell-seconds]".
std::vector<std::string> deviation_texts(const model::RunRecord& record);

/// The status lines of the run/sub-tests in scope: "INCOMPLETE RUN — partial results",
/// "Steady state NOT achieved (rounds 21–25 reported)", "Steady state achieved (…)".
std::vector<Banner> status_banners(const model::RunRecord& record, const std::vector<size_t>& subtests);

}  // namespace pts::report
