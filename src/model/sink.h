// model/sink.h — RecordSink: where pts/ hands every record as it happens. The results/
// implementation journals each call (fsync) before returning, so a crash loses at most the
// cell in flight. May use: core.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/result.h"
#include "model/run_record.h"

namespace pts::model {

class RecordSink {
 public:
  virtual ~RecordSink() = default;
  /// The run header: identity, host, plan (subtests' results empty).
  virtual core::Status begin(const RunRecord& header) = 0;
  virtual core::Status transition(const Transition& t) = 0;
  virtual core::Status purge(size_t subtest, const PurgeRecord& record) = 0;
  virtual core::Status precondition(size_t subtest, const PreconditionRecord& record) = 0;
  /// One finished cell of round `round` (1-based) of sub-test `subtest`.
  virtual core::Status cell(size_t subtest, uint32_t round, const CellResult& result) = 0;
  /// End of a round: gaps and the verdict (cells were already sent one by one).
  virtual core::Status round_end(size_t subtest, const RoundRecord& round_without_cells) = 0;
  virtual core::Status subtest_end(size_t subtest, const SubTestRecord& summary_without_rounds) = 0;
  virtual core::Status deviation(const Deviation& d) = 0;
  /// The final (or partial) record; writes run.json atomically.
  virtual core::Status finish(const RunRecord& record) = 0;
};

}  // namespace pts::model
