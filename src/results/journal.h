// results/journal.h — the run directory's write-ahead journal: JournalSink appends one JSON
// line per RecordSink call to RUNDIR/journal.jsonl and fdatasyncs it before returning, and
// keeps run.json current (atomically rewritten at begin, every round end, sub-test end and
// finish), so the directory is always a valid, possibly partial, run. load_journal() rebuilds
// the RunRecord from the journal, ignoring a torn last line (kill -9, power loss) — that is
// what `ptsuite resume` continues from. May use: core, model, results.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/result.h"
#include "model/run_record.h"
#include "model/sink.h"
#include "results/record_builder.h"
#include "results/run_json_writer.h"

namespace pts::results {

/// A journal read back from disk.
struct LoadedJournal {
  model::RunRecord record;
  size_t events = 0;          ///< complete lines replayed
  uint64_t valid_bytes = 0;   ///< length of the journal up to the last complete line
  bool torn_tail = false;     ///< a last line without its newline (or unparsable) was dropped
  std::string torn_detail;    ///< why the tail was dropped
};

/// Reads RUNDIR/journal.jsonl. BadInput when the directory or journal is missing, the first
/// event is not a header (or its schema_version is newer than this build's), or any line
/// other than the last is malformed (file:line named).
core::Result<LoadedJournal> load_journal(const std::string& run_dir);

/// load_journal() under a shared lock (for readers such as `report`): BadInput at once while
/// a run or resume holds the journal; never follows a symlink.
core::Result<LoadedJournal> load_journal_shared(const std::string& run_dir);

class JournalSink;
/// A journal taken over by resume: locked, then read, then its torn tail cut.
struct ResumableJournal {
  LoadedJournal loaded;
  std::unique_ptr<JournalSink> sink;
};

class JournalSink final : public model::RecordSink {
 public:
  /// Starts a new journal in RUN_DIR (which must exist). Fails (BadInput) if a journal is
  /// already there.
  static core::Result<std::unique_ptr<JournalSink>> create(const std::string& run_dir);
  /// Continues an existing journal after load_journal(): cuts a torn tail
  /// (loaded.valid_bytes) and appends from there; the mirror starts from loaded.record.
  static core::Result<std::unique_ptr<JournalSink>> reopen(const std::string& run_dir,
                                                            const LoadedJournal& loaded);
  /// For `resume`: takes the journal's lock before reading it (so no other process appends
  /// between the read and the takeover), replays it, cuts a torn tail and continues it.
  static core::Result<ResumableJournal> resume(const std::string& run_dir);
  ~JournalSink() override;

  core::Status begin(const model::RunRecord& header) override;
  core::Status transition(const model::Transition& t) override;
  core::Status purge(size_t subtest, const model::PurgeRecord& record) override;
  core::Status precondition(size_t subtest, const model::PreconditionRecord& record) override;
  core::Status cell(size_t subtest, uint32_t round, const model::CellResult& result) override;
  core::Status round_end(size_t subtest, const model::RoundRecord& round_without_cells) override;
  core::Status subtest_end(size_t subtest, const model::SubTestRecord& summary_without_rounds) override;
  core::Status deviation(const model::Deviation& d) override;
  /// Journals the end state and writes `record` as run.json synchronously.
  core::Status finish(const model::RunRecord& record) override;

  /// The record as the journal describes it so far.
  const model::RunRecord& mirror() const { return mirror_.record(); }
  const std::string& path() const { return path_; }

 private:
  JournalSink(std::string run_dir, int fd, model::RunRecord start);
  /// Appends one line (write + fdatasync); Internal error naming the path on failure.
  core::Status append(const std::string& line);
  void post_snapshot();

  std::string run_dir_;
  std::string path_;
  int fd_ = -1;
  RecordBuilder mirror_;
  RunJsonWriter writer_;
};

}  // namespace pts::results
