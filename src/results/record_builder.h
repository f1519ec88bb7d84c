// results/record_builder.h — RecordBuilder: a RecordSink that assembles the RunRecord in
// memory from the same calls the journal receives. The PTS runner keeps its working state
// in one, the journal keeps a mirror for run.json, and the journal reader replays
// journal.jsonl into one — so run.json, the journal and the runner can never disagree on how
// an event changes the record. Some meaning is derived here from the records themselves, so
// that every reader agrees and no extra journal line can be lost: a cell with I/O errors goes
// to failed_cells (never a Round); a purge implies its deviations; an unsettled purge that is
// replaced moves to failed_purges. May use: core, model.
#pragma once

#include "model/run_record.h"
#include "model/sink.h"

namespace pts::results {

/// Name of the transition that marks a resumed run (sets the state back to Running).
inline constexpr const char* kResumeState = "Resume";

class RecordBuilder final : public model::RecordSink {
 public:
  RecordBuilder() = default;
  /// Starts from an existing (e.g. reloaded) record.
  explicit RecordBuilder(model::RunRecord record) : record_(std::move(record)) {}

  const model::RunRecord& record() const { return record_; }
  model::RunRecord& record() { return record_; }

  core::Status begin(const model::RunRecord& header) override;
  core::Status transition(const model::Transition& t) override;
  core::Status purge(size_t subtest, const model::PurgeRecord& record) override;
  core::Status precondition(size_t subtest, const model::PreconditionRecord& record) override;
  core::Status cell(size_t subtest, uint32_t round, const model::CellResult& result) override;
  core::Status round_end(size_t subtest, const model::RoundRecord& round_without_cells) override;
  core::Status subtest_end(size_t subtest, const model::SubTestRecord& summary_without_rounds) override;
  core::Status deviation(const model::Deviation& d) override;
  core::Status finish(const model::RunRecord& record) override;

 private:
  core::Result<model::SubTestRecord*> subtest_at(size_t index);
  model::RunRecord record_;
};

}  // namespace pts::results
