// unit-tests/pts/stream_positions_test.cpp — sequential streams carry their position: every
// SEQ cell starts where the sub-test's previous sequential run (a cell, or the WIPC) left its
// streams, across cells and Rounds, and a resumed run continues from the position the journal
// recorded; a different stream layout (thread count, ActiveRange) starts fresh.
#include <gtest/gtest.h>

#include "pts/stream_positions.h"
#include "pts/support.h"

using namespace pts;
using namespace pts::testing;

namespace {

/// make_plan with sequential cells at TC 1 (like Throughput: the WIPC's layout too).
model::TestPlan sequential_plan(uint32_t cell_threads) {
  auto plan = make_plan(1, 8);
  for (auto& c : plan.subtests[0].cells) {
    c.spec.pattern = model::AccessPattern::Sequential;
    c.spec.threads = cell_threads;
  }
  return plan;
}

/// The recorded results of a sub-test in run order: WIPC, then every cell of every Round.
std::vector<const model::CellResult*> in_order(const model::SubTestRecord& s) {
  std::vector<const model::CellResult*> out;
  if (s.wipc) out.push_back(&s.wipc->result);
  for (const auto& r : s.rounds)
    for (const auto& c : r.cells) out.push_back(&c);
  return out;
}

}  // namespace

TEST(StreamPositions, EverySequentialRunStartsWhereThePreviousOneEnded) {
  Rig rig(steady_at_8);
  auto res = rig.start(temp_run_dir("streams"), sequential_plan(1));
  ASSERT_FALSE(res.error) << res.error->message();
  const auto runs = in_order(res.record.subtests[0]);
  ASSERT_GT(runs.size(), 10u);
  EXPECT_TRUE(runs[0]->spec.stream_start_bytes.empty());  // the WIPC starts at the slice start
  for (size_t i = 1; i < runs.size(); ++i) {
    ASSERT_FALSE(runs[i - 1]->stream_end_bytes.empty()) << i;
    EXPECT_EQ(runs[i]->spec.stream_start_bytes, runs[i - 1]->stream_end_bytes) << "run " << i;
  }
  // What the engine was asked for is what the record says.
  ASSERT_EQ(rig.engine->calls.size(), runs.size());
  EXPECT_EQ(rig.engine->calls.back().stream_start_bytes, runs.back()->spec.stream_start_bytes);
}

TEST(StreamPositions, AnotherLayoutStartsFresh) {
  Rig rig(steady_at_8);
  auto res = rig.start(temp_run_dir("streams-tc2"), sequential_plan(2));  // WIPC TC 1, cells TC 2
  ASSERT_FALSE(res.error);
  const auto runs = in_order(res.record.subtests[0]);
  EXPECT_TRUE(runs[1]->spec.stream_start_bytes.empty());  // the WIPC's one stream does not map to two
  EXPECT_EQ(runs[2]->spec.stream_start_bytes, runs[1]->stream_end_bytes);
  EXPECT_EQ(runs[2]->spec.stream_start_bytes.size(), 2u);

  model::AccessSpec a, b;
  a.pattern = b.pattern = model::AccessPattern::Sequential;
  EXPECT_TRUE(runner::same_stream_layout(a, b));
  b.active_range_pct = 50;
  EXPECT_FALSE(runner::same_stream_layout(a, b));
  b = a;
  b.pattern = model::AccessPattern::Random;
  EXPECT_FALSE(runner::same_stream_layout(a, b));
}

TEST(StreamPositions, AResumedRunContinuesWhereTheJournalSaysTheStreamsStood) {
  const auto plan = sequential_plan(1);
  Rig ref(steady_at_8);
  auto ref_dir = temp_run_dir("streams-ref");
  ASSERT_FALSE(ref.start(ref_dir, plan).error);
  const std::string journal = read_text(ref_dir + "/journal.jsonl");
  // Cut after the 5th "cell" event (inside Round 2).
  size_t at = 0;
  for (int cells = 0; cells < 5 && at < journal.size();) {
    const size_t end = journal.find('\n', at) + 1;
    if (journal.substr(at, end - at).find("\"event\":\"cell\"") != std::string::npos) ++cells;
    at = end;
  }
  auto dir = temp_run_dir("streams-cut");
  { std::ofstream(dir + "/journal.jsonl", std::ios::binary) << journal.substr(0, at); }
  auto loaded = results::load_journal(dir);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message();
  const auto before = in_order(loaded->record.subtests[0]);
  ASSERT_FALSE(before.back()->stream_end_bytes.empty());
  Rig rig(steady_at_8);
  auto resumed = rig.resume(dir);
  ASSERT_FALSE(resumed.error) << resumed.error->message();
  ASSERT_FALSE(rig.engine->calls.empty());
  EXPECT_EQ(rig.engine->calls.front().stream_start_bytes, before.back()->stream_end_bytes);
  // And the whole resumed record chains exactly like an uninterrupted run.
  const auto runs = in_order(resumed.record.subtests[0]);
  for (size_t i = 1; i < runs.size(); ++i)
    EXPECT_EQ(runs[i]->spec.stream_start_bytes, runs[i - 1]->stream_end_bytes) << "run " << i;
}
