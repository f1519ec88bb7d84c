// unit-tests/results/journal_test.cpp — journal.jsonl: every RecordSink call becomes one
// fsync'd line that replays into the same record; run.json follows round ends; a torn last
// line is dropped (and cut before appending); a bad line in the middle is an error naming
// file:line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "results/codec.h"
#include "results/journal.h"
#include "results/record_builder.h"
#include "results/run_store.h"

namespace pts::results {
namespace {

namespace fs = std::filesystem;

std::string fresh_dir(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("journal-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

model::RunRecord header() {
  model::RunRecord h;
  h.run_id = "r1";
  h.tool_version = "test";
  h.device.serial = "SN1";
  h.plan.test_id = "iops";
  h.plan.subtests.resize(2);
  h.plan.subtests[0].id = "a";
  h.plan.subtests[1].id = "b";
  return h;
}

model::CellResult cell(const std::string& id, double iops) {
  model::CellResult c;
  c.cell_id = id;
  c.iops = iops;
  c.latency.max_ns = 1234;
  c.ios_per_second = {1, 2, 3};
  return c;
}

/// Drives a sink through a small run: 2 rounds of 2 cells in sub-test 0.
void drive(model::RecordSink& s) {
  ASSERT_TRUE(s.begin(header()).ok());
  ASSERT_TRUE(s.transition({"Purge", "a", 0, 10, "auto"}).ok());
  model::PurgeRecord p;
  p.method = model::PurgeMethod::FormatUser;
  p.success = true;
  ASSERT_TRUE(s.purge(0, p).ok());
  model::PreconditionRecord w;
  w.bytes_written = w.target_bytes = 1 << 20;
  w.completed = true;
  ASSERT_TRUE(s.precondition(0, w).ok());
  for (uint32_t r = 1; r <= 2; ++r) {
    ASSERT_TRUE(s.cell(0, r, cell("x", 100.0 * r)).ok());
    ASSERT_TRUE(s.cell(0, r, cell("y", 200.0 * r)).ok());
    model::RoundRecord end;
    end.round = r;
    end.ended_wall_ns = 1000 + r;
    end.cell_gaps_ns = {5, 7};
    end.max_cell_gap_ns = 7;
    end.mean_cell_gap_ns = 6;
    end.verdict = model::SteadyStateVerdict{r, false, {}};
    ASSERT_TRUE(s.round_end(0, end).ok());
  }
  ASSERT_TRUE(s.deviation({"cell-seconds", "short cells"}).ok());
  model::SubTestRecord sum;
  sum.complete = true;
  sum.window_first_round = 1;
  sum.window_last_round = 2;
  sum.window_results = {{"x", 2, 150.0}};
  ASSERT_TRUE(s.subtest_end(0, sum).ok());
}

TEST(Journal, ReplaysToTheSameRecordAsTheBuilder) {
  auto dir = fresh_dir("replay");
  RecordBuilder direct;
  drive(direct);
  {
    auto sink = JournalSink::create(dir);
    ASSERT_TRUE(sink.ok());
    drive(**sink);
    EXPECT_EQ(run_record_to_json_text((*sink)->mirror()), run_record_to_json_text(direct.record()));
  }
  auto loaded = load_journal(dir);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message();
  EXPECT_FALSE(loaded->torn_tail);
  EXPECT_EQ(loaded->events, 1u + 1 + 1 + 1 + 2 * 3 + 1 + 1);
  EXPECT_EQ(run_record_to_json_text(loaded->record), run_record_to_json_text(direct.record()));
  const auto& s = loaded->record.subtests.at(0);
  ASSERT_EQ(s.rounds.size(), 2u);
  EXPECT_EQ(s.rounds[1].cells[1].iops, 400.0);
  EXPECT_EQ(s.rounds[1].cell_gaps_ns, (std::vector<uint64_t>{5, 7}));
  EXPECT_EQ(s.window_results.at(0).iops, 150.0);
  EXPECT_EQ(loaded->record.subtests.at(1).id, "b");
}

TEST(Journal, RunJsonFollowsRoundEndsAndFinish) {
  auto dir = fresh_dir("runjson");
  auto sink = JournalSink::create(dir);
  ASSERT_TRUE(sink.ok());
  ASSERT_TRUE((*sink)->begin(header()).ok());
  auto at_begin = load_run_json(dir);  // exists from the start
  ASSERT_TRUE(at_begin.ok());
  EXPECT_EQ(at_begin->state, model::RunState::Running);
  ASSERT_TRUE((*sink)->cell(0, 1, cell("x", 1)).ok());
  model::RoundRecord end;
  end.round = 1;
  end.ended_wall_ns = 5;
  ASSERT_TRUE((*sink)->round_end(0, end).ok());
  model::RunRecord fin = (*sink)->mirror();
  fin.state = model::RunState::Interrupted;
  ASSERT_TRUE((*sink)->finish(fin).ok());
  auto saved = load_run_json(dir);
  ASSERT_TRUE(saved.ok());
  EXPECT_EQ(saved->state, model::RunState::Interrupted);
  EXPECT_EQ(saved->subtests[0].rounds.size(), 1u);
  auto loaded = load_journal(dir);
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->record.state, model::RunState::Interrupted);
}

TEST(Journal, TornLastLineIsDroppedAndCutBeforeAppending) {
  auto dir = fresh_dir("torn");
  {
    auto sink = JournalSink::create(dir);
    ASSERT_TRUE(sink.ok());
    drive(**sink);
  }
  const std::string path = dir + "/journal.jsonl";
  const std::string full = slurp(path);
  const std::string torn_piece = "{\"event\":\"cell\",\"subtest\":0,\"round\":3,\"cell\":{\"cell_id\":\"x\",\"io";
  { std::ofstream(path, std::ios::binary | std::ios::app) << torn_piece; }
  auto loaded = load_journal(dir);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message();
  EXPECT_TRUE(loaded->torn_tail);
  EXPECT_NE(loaded->torn_detail.find("journal.jsonl:13"), std::string::npos) << loaded->torn_detail;
  EXPECT_EQ(loaded->valid_bytes, full.size());
  EXPECT_EQ(loaded->record.subtests[0].rounds.size(), 2u);
  {
    auto sink = JournalSink::reopen(dir, *loaded);
    ASSERT_TRUE(sink.ok());
    ASSERT_TRUE((*sink)->cell(0, 3, cell("x", 300)).ok());
  }
  auto again = load_journal(dir);
  ASSERT_TRUE(again.ok()) << again.error().message();
  EXPECT_FALSE(again->torn_tail);
  ASSERT_EQ(again->record.subtests[0].rounds.size(), 3u);
  EXPECT_EQ(again->record.subtests[0].rounds[2].cells[0].iops, 300.0);
  EXPECT_EQ(slurp(path).find(torn_piece), std::string::npos);
}

// The second bad line was found by unit-tests/fuzz/fuzz_run_json: a number too large for a
// double (1e999) made nlohmann throw out_of_range, which was not caught: std::terminate.
TEST(Journal, GarbageInTheMiddleNamesFileAndLine) {
  int n = 0;
  for (const std::string bad : {"this is not json", "{\"event\":\"deviation\",\"x\":1e999}"}) {
    auto dir = fresh_dir("garbage" + std::to_string(n++));
    {
      auto sink = JournalSink::create(dir);
      ASSERT_TRUE(sink.ok());
      drive(**sink);
    }
    const std::string path = dir + "/journal.jsonl";
    std::string text = slurp(path);
    const size_t third = text.find('\n', text.find('\n') + 1) + 1;
    text.insert(third, bad + "\n");
    { std::ofstream(path, std::ios::binary | std::ios::trunc) << text; }
    auto loaded = load_journal(dir);
    ASSERT_FALSE(loaded.ok()) << bad;
    EXPECT_EQ(loaded.error().kind, core::ErrorKind::BadInput);
    EXPECT_NE(loaded.error().message().find("journal.jsonl:3: not valid JSON"), std::string::npos)
        << loaded.error().message();
  }
}

TEST(Journal, RefusesAMissingDirectoryOrAJournalWithoutHeader) {
  EXPECT_FALSE(load_journal("/nonexistent/run").ok());
  auto dir = fresh_dir("noheader");
  { std::ofstream(dir + "/journal.jsonl") << "{\"event\":\"deviation\",\"deviation\":{\"code\":\"x\",\"text\":\"y\"}}\n"; }
  auto loaded = load_journal(dir);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().message().find("header"), std::string::npos);
  // create() never overwrites an existing journal
  EXPECT_FALSE(JournalSink::create(dir).ok());
}

TEST(Journal, OneWriterAtATime) {
  auto dir = fresh_dir("lock");
  auto first = JournalSink::create(dir);
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE((*first)->begin(header()).ok());
  auto loaded = load_journal(dir);
  ASSERT_TRUE(loaded.ok());
  auto second = JournalSink::reopen(dir, *loaded);  // e.g. `resume` while the run is alive
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.error().message().find("another ptsuite process"), std::string::npos);
  first->reset();
  EXPECT_TRUE(JournalSink::reopen(dir, *loaded).ok());
}

TEST(RecordBuilder, ResumeTransitionReopensTheRun) {
  RecordBuilder b;
  ASSERT_TRUE(b.begin(header()).ok());
  model::RunRecord fin;
  fin.state = model::RunState::Interrupted;
  fin.ended_wall_ns = 99;
  fin.failure = "interrupted";
  ASSERT_TRUE(b.finish(fin).ok());
  ASSERT_TRUE(b.transition({kResumeState, "", 0, 100, ""}).ok());
  EXPECT_EQ(b.record().state, model::RunState::Running);
  EXPECT_EQ(b.record().ended_wall_ns, 0u);
  EXPECT_TRUE(b.record().failure.empty());
}

TEST(RecordBuilder, RejectsOutOfOrderEvents) {
  RecordBuilder b;
  ASSERT_TRUE(b.begin(header()).ok());
  EXPECT_FALSE(b.cell(5, 1, cell("x", 1)).ok());        // no such sub-test
  ASSERT_TRUE(b.cell(0, 1, cell("x", 1)).ok());
  EXPECT_FALSE(b.cell(0, 3, cell("x", 1)).ok());        // round 2 skipped
  model::RoundRecord end;
  end.round = 2;
  EXPECT_FALSE(b.round_end(0, end).ok());               // round 2 has no cells
}

}  // namespace
}  // namespace pts::results
