// unit-tests/report/fixture_parts.h — the building blocks of the fixed report RunRecords
// (fixture_record.cpp defines them), shared with phase_fixtures.cpp: a base record, cells,
// closed-form results, the fixture's own least-squares window and window results. Test code,
// independent of steady/, pts/ and report/. May use: core, model.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "model/run_record.h"

namespace pts::report::fixture::parts {

inline constexpr uint64_t kStart = 1795000000000000000ull;  // 2026-11-18, a fixed wall time
inline constexpr uint64_t kNsPerS = 1000000000ull;

std::string cell_id(uint32_t read_pct, uint32_t bytes);
model::CellPlan make_cell(model::AccessPattern pattern, uint32_t read_pct, uint32_t bytes, uint32_t tc, uint32_t qd);
/// A CellResult of 5 s from IOPS and latencies (the rest follows deterministically).
model::CellResult make_result(const model::CellPlan& plan, uint64_t started, double iops, double mean_ns,
                              double max_ns, double p5_ns);
model::WindowAssessment assess(const std::vector<double>& y, uint32_t first_round, double data_limit,
                               double slope_limit);
std::vector<model::CellWindowResult> stored_window_results(const model::SubTestPlan& sp,
                                                           const model::SubTestRecord& st);
using Shape = std::function<void(const model::CellPlan&, size_t idx, uint32_t round, double& iops, double& mean_ns)>;
/// Rounds of every applicable cell of sub-test `si` with verdicts (purge and WIPC records first).
void fill_subtest(model::RunRecord& rec, size_t si, uint32_t rounds, const Shape& shape, bool stop_at_steady,
                  uint64_t& clock);
model::RunRecord base_record(const std::string& test_id, const std::string& title, const std::string& edition);

}  // namespace pts::report::fixture::parts
