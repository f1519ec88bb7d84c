// config/advanced_cells.h — internal to config/: what the advanced resolvers share: the
// resolution context, workloads turned into access specs and cells, the stimulus an operator
// may choose, durations in words. Included by advanced_resolver.cpp and dirth_resolver.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/advanced_resolver.h"

namespace pts::config::detail {

/// Everything one resolution reads and writes.
struct AdvancedCtx {
  const TestDefinition& d;
  const ClassSettings& cs;
  const RunOptions& o;
  const model::DeviceIdentity& id;
  ResolvedPlan& r;
  std::vector<std::string>& errors;
  std::vector<std::string> checked = {};  ///< workloads already checked against the target

  model::TestPlan& plan() { return r.plan; }
  double scaled(double spec_seconds) const { return spec_seconds * r.plan.time_scale; }
  void deviate(std::string code, std::string text) { r.deviations.push_back({std::move(code), std::move(text)}); }
  void interpret(std::string text) { r.plan.interpretations.push_back(std::move(text)); }
};

/// "RND 4 KiB 0/100", or "RND 12-size block mix 40/60" for a split.
std::string workload_label(const WorkloadDef& w);

/// The workload as an access spec at TC `threads` × QD `queue_depth` for `seconds`, over the
/// plan's ActiveRange, with the operator's seed. Block sizes the target cannot run are errors.
model::AccessSpec workload_spec(AdvancedCtx& c, const WorkloadDef& w, uint32_t threads, uint32_t queue_depth,
                                double seconds);

model::CellPlan make_cell(std::string id, std::string label, model::AccessSpec spec);

/// The stimulus: --workload when given (a deviation unless the edition/class lists it), else
/// `default_id`. Null after adding an error (unknown id, or `choosable` false and --workload given).
const WorkloadDef* stimulus(AdvancedCtx& c, const std::string& default_id, bool choosable);

/// Steady-state preconditioning sub-test: Rounds of `cells_per_round` cells of `w` at the
/// plan's TC/QD; the Tracking Variable is the IOPS of each Round's last cell.
model::SubTestPlan precondition_subtest(AdvancedCtx& c, const WorkloadDef& w, uint32_t cells_per_round,
                                        const std::string& title);

/// "8 h", "5 min", "30 s", "1.5 s" for plans and deviations.
std::string duration_words(double seconds);

/// DIRTH / ECW (dirth_resolver.cpp).
void resolve_dirth(AdvancedCtx& c);
SubtestWorstCase dirth_worst_case(const model::TestPlan& plan, const model::SubTestPlan& sub);
std::vector<std::string> describe_dirth_subtest(const model::TestPlan& plan, const model::SubTestPlan& sub);

}  // namespace pts::config::detail
