// results/record_builder.cpp — see record_builder.h.
#include "results/record_builder.h"

#include <string>

namespace pts::results {

using core::ErrorKind;

core::Result<model::SubTestRecord*> RecordBuilder::subtest_at(size_t index) {
  if (index >= record_.subtests.size())
    return core::Error(ErrorKind::Internal, "record: sub-test index " + std::to_string(index) +
                                                " out of range (" + std::to_string(record_.subtests.size()) +
                                                " sub-tests in the plan)");
  return &record_.subtests[index];
}

core::Status RecordBuilder::begin(const model::RunRecord& header) {
  record_ = header;
  record_.schema_version = model::kRunRecordSchemaVersion;  // the record is written by this code now
  if (record_.subtests.size() < record_.plan.subtests.size()) {
    record_.subtests.resize(record_.plan.subtests.size());
    for (size_t i = 0; i < record_.subtests.size(); ++i) record_.subtests[i].id = record_.plan.subtests[i].id;
  }
  return core::ok_status();
}

core::Status RecordBuilder::transition(const model::Transition& t) {
  record_.transitions.push_back(t);
  if (t.state == kResumeState) {
    record_.state = model::RunState::Running;
    record_.ended_wall_ns = 0;
    record_.failure.clear();
  }
  return core::ok_status();
}

core::Status RecordBuilder::purge(size_t subtest, const model::PurgeRecord& p) {
  auto st = subtest_at(subtest);
  if (!st.ok()) return st.take_error();
  auto& sub = **st;
  // An earlier attempt that did not settle (failed, not verified, not accepted) was repeated.
  if (sub.purge && !model::purge_settled(*sub.purge)) sub.failed_purges.push_back(*sub.purge);
  sub.purge = p;
  // The deviations a purge implies come from its record, not from separate journal lines, so
  // a kill between the purge line and the next cannot lose them.
  for (auto& [code, text] : model::purge_deviations(p, sub.id)) (void)deviation(model::Deviation{code, text});
  return core::ok_status();
}

core::Status RecordBuilder::precondition(size_t subtest, const model::PreconditionRecord& p) {
  auto st = subtest_at(subtest);
  if (!st.ok()) return st.take_error();
  (*st)->wipc = p;
  return core::ok_status();
}

core::Status RecordBuilder::cell(size_t subtest, uint32_t round, const model::CellResult& result) {
  auto st = subtest_at(subtest);
  if (!st.ok()) return st.take_error();
  if (result.io_errors > 0) {  // not a result: kept apart, never in a Round
    (*st)->failed_cells.push_back(model::FailedCell{round, result});
    return core::ok_status();
  }
  auto& rounds = (*st)->rounds;
  if (rounds.empty() || rounds.back().round != round) {
    if (!rounds.empty() && round != rounds.back().round + 1)
      return core::Error(ErrorKind::Internal, "record: cell of round " + std::to_string(round) +
                                                  " after round " + std::to_string(rounds.back().round));
    model::RoundRecord r;
    r.round = round;
    r.started_wall_ns = result.started_wall_ns;
    rounds.push_back(std::move(r));
  }
  rounds.back().cells.push_back(result);
  return core::ok_status();
}

core::Status RecordBuilder::round_end(size_t subtest, const model::RoundRecord& summary) {
  auto st = subtest_at(subtest);
  if (!st.ok()) return st.take_error();
  auto& rounds = (*st)->rounds;
  if (rounds.empty() || rounds.back().round != summary.round)
    return core::Error(ErrorKind::Internal,
                       "record: end of round " + std::to_string(summary.round) + " that has no cells");
  auto& r = rounds.back();
  if (summary.started_wall_ns) r.started_wall_ns = summary.started_wall_ns;
  r.ended_wall_ns = summary.ended_wall_ns;
  r.max_cell_gap_ns = summary.max_cell_gap_ns;
  r.mean_cell_gap_ns = summary.mean_cell_gap_ns;
  r.cell_gaps_ns = summary.cell_gaps_ns;
  r.verdict = summary.verdict;
  r.idle_after = summary.idle_after;
  return core::ok_status();
}

core::Status RecordBuilder::subtest_end(size_t subtest, const model::SubTestRecord& summary) {
  auto st = subtest_at(subtest);
  if (!st.ok()) return st.take_error();
  auto& s = **st;
  s.complete = summary.complete;
  s.steady_state_reached = summary.steady_state_reached;
  s.window_first_round = summary.window_first_round;
  s.window_last_round = summary.window_last_round;
  s.final_verdict = summary.final_verdict;
  s.window_results = summary.window_results;
  s.findings = summary.findings;
  return core::ok_status();
}

core::Status RecordBuilder::deviation(const model::Deviation& d) {
  for (const auto& have : record_.deviations)  // the same words twice say nothing more
    if (have.code == d.code && have.text == d.text) return core::ok_status();
  record_.deviations.push_back(d);
  return core::ok_status();
}

core::Status RecordBuilder::finish(const model::RunRecord& final_record) {
  record_.state = final_record.state;
  record_.ended_wall_ns = final_record.ended_wall_ns;
  record_.failure = final_record.failure;
  return core::ok_status();
}

}  // namespace pts::results
