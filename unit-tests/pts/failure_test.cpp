// unit-tests/pts/failure_test.cpp — a failed step never becomes a result: a cell with I/O
// errors is journaled as failed, stays out of every Round and Measurement Window, and resume
// runs it again; a failed or unverified purge is repeated on resume unless the operator
// accepted it; a write-cache change is a deviation naming the Round it was seen in.
#include <gtest/gtest.h>

#include "results/run_store.h"
#include "support.h"

namespace pts::testing {
namespace {

size_t count_code(const model::RunRecord& r, const std::string& code) {
  size_t n = 0;
  for (const auto& d : r.deviations) n += d.code == code;
  return n;
}

TEST(Failures, ACellWithIoErrorsIsJournaledAsFailedAndResumeRunsItAgain) {
  Rig ref(steady_at_8);
  auto reference = ref.start(temp_run_dir("ioerr-ref"), make_plan());
  ASSERT_FALSE(reference.error);

  Rig rig(steady_at_8);
  rig.engine->io_error_calls = {5};  // call 0 WIPC, 1-3 Round 1, 4 Round 2 cell 1, 5 Round 2 cell 2
  auto dir = temp_run_dir("io-error");
  auto res = rig.start(dir, make_plan());
  ASSERT_TRUE(res.error);
  EXPECT_EQ(res.error->kind, core::ErrorKind::Io);
  EXPECT_EQ(res.record.state, model::RunState::Failed);
  EXPECT_EQ(rig.engine->calls.size(), 6u);
  const auto& sub = res.record.subtests[0];
  ASSERT_EQ(sub.rounds.size(), 2u);
  EXPECT_EQ(sub.rounds[1].cells.size(), 1u);  // the failed cell is not in its Round
  ASSERT_EQ(sub.failed_cells.size(), 1u);
  EXPECT_EQ(sub.failed_cells[0].round, 2u);
  EXPECT_EQ(sub.failed_cells[0].cell.io_errors, 1u);
  auto loaded = results::load_journal(dir);  // the journal says the same
  ASSERT_TRUE(loaded.ok());
  ASSERT_EQ(loaded->record.subtests[0].failed_cells.size(), 1u);
  EXPECT_EQ(loaded->record.subtests[0].rounds[1].cells.size(), 1u);

  Rig again(steady_at_8);
  auto resumed = again.resume(dir);
  ASSERT_FALSE(resumed.error) << resumed.error->message();
  const auto& done = resumed.record.subtests[0];
  EXPECT_EQ(resumed.record.state, model::RunState::Complete);
  ASSERT_EQ(again.engine->calls.size(), reference.record.subtests[0].rounds.size() * 3 - 4);
  EXPECT_EQ(fakes::fake_key(again.engine->calls[0]), fakes::fake_key(rig.engine->calls[5]));  // re-run first
  ASSERT_EQ(done.failed_cells.size(), 1u);
  for (const auto& round : done.rounds) {
    ASSERT_EQ(round.cells.size(), 3u) << "round " << round.round;
    for (const auto& c : round.cells) EXPECT_EQ(c.io_errors, 0u);
  }
  EXPECT_EQ(done.rounds.size(), reference.record.subtests[0].rounds.size());
  EXPECT_EQ(again.device.purge_calls, 0);
}

TEST(Failures, ResumeAfterAFailedPurgePurgesAgain) {
  for (bool unverified : {false, true}) {
    const std::string what = unverified ? "unverified purge" : "failed purge";
    Rig rig(steady_at_8);
    (unverified ? rig.device.purge_unverified : rig.device.purge_fails) = true;
    auto dir = temp_run_dir(unverified ? "repurge-unverified" : "repurge-failed");
    auto first = rig.start(dir, make_plan());
    ASSERT_TRUE(first.error) << what;
    EXPECT_EQ(first.error->kind, core::ErrorKind::Device) << what;
    ASSERT_TRUE(first.record.subtests[0].purge) << what;  // the attempt is on record
    EXPECT_FALSE(model::purge_settled(*first.record.subtests[0].purge)) << what;
    EXPECT_TRUE(rig.engine->calls.empty()) << what;
    EXPECT_EQ(count_code(first.record, "purge-unverified"), 0u) << what;  // it will be repeated

    Rig again(steady_at_8);
    auto resumed = again.resume(dir);
    ASSERT_FALSE(resumed.error) << what << ": " << resumed.error->message();
    EXPECT_EQ(again.device.purge_calls, 1) << what;
    const auto& sub = resumed.record.subtests[0];
    ASSERT_TRUE(sub.purge);
    EXPECT_TRUE(model::purge_settled(*sub.purge)) << what;
    ASSERT_EQ(sub.failed_purges.size(), 1u) << what;  // the failed attempt stays on record
    EXPECT_FALSE(model::purge_settled(sub.failed_purges[0])) << what;
    EXPECT_EQ(count_code(resumed.record, "purge-unverified"), 0u) << what;
    EXPECT_EQ(resumed.record.state, model::RunState::Complete) << what;

  }
}

TEST(Failures, APurgeThatKeepsFailingIsNeverRunOn) {
  Rig rig(steady_at_8);
  rig.device.purge_fails = true;
  auto dir = temp_run_dir("repurge-twice");
  ASSERT_TRUE(rig.start(dir, make_plan()).error);
  Rig again(steady_at_8);
  again.device.purge_unverified = true;
  auto second = again.resume(dir);
  ASSERT_TRUE(second.error);
  EXPECT_EQ(second.error->kind, core::ErrorKind::Device);
  EXPECT_EQ(again.device.purge_calls, 1);
  EXPECT_TRUE(again.engine->calls.empty());
  EXPECT_EQ(second.record.subtests[0].failed_purges.size(), 1u);
  EXPECT_FALSE(model::purge_settled(*second.record.subtests[0].purge));
}

TEST(Failures, AnAcceptedPurgeFailureIsNotRepeatedAndKeepsItsDeviations) {
  Rig rig(steady_at_8);
  rig.device.purge_unverified = true;
  auto plan = make_plan();
  plan.accept_purge_failure = true;
  rig.engine->on_run = [&](size_t call, const model::AccessSpec&) {
    if (call == 2) rig.stop = true;
  };
  auto dir = temp_run_dir("accepted");
  auto first = rig.start(dir, plan);
  ASSERT_FALSE(first.error);
  ASSERT_EQ(first.record.state, model::RunState::Interrupted);
  EXPECT_EQ(count_code(first.record, "purge-accepted"), 1u);
  EXPECT_EQ(count_code(first.record, "purge-unverified"), 1u);
  Rig again(steady_at_8);
  auto resumed = again.resume(dir);
  ASSERT_FALSE(resumed.error);
  EXPECT_EQ(again.device.purge_calls, 0);
  EXPECT_EQ(count_code(resumed.record, "purge-accepted"), 1u);
  EXPECT_EQ(count_code(resumed.record, "purge-unverified"), 1u);
}

TEST(Failures, AWriteCacheChangeIsADeviationNamingTheRound) {
  Rig rig(steady_at_8);
  rig.device.cache = model::WriteCacheState::Disabled;  // as the plan wants (WCD)
  // Reads: 1 at the start, 2 after the purge, 3.. at the end of Rounds 1, 2, ...: the drive
  // turns its cache on during Round 3.
  rig.device.on_cache_read = [&](int reads) {
    if (reads == 5) rig.device.cache = model::WriteCacheState::Enabled;
  };
  auto res = rig.start(temp_run_dir("wc-change"), make_plan());
  ASSERT_FALSE(res.error);
  ASSERT_EQ(count_code(res.record, "write-cache-changed"), 1u);
  for (const auto& d : res.record.deviations)
    if (d.code == "write-cache-changed") {
      EXPECT_NE(d.text.find("at the end of Round 3 of sub-test sub0"), std::string::npos) << d.text;
      EXPECT_NE(d.text.find("found enabled"), std::string::npos) << d.text;
      EXPECT_NE(d.text.find("set back to disabled"), std::string::npos) << d.text;
    }
  EXPECT_EQ(rig.device.cache, model::WriteCacheState::Disabled);
  // read back after the purge and after every one of the 8 Rounds
  EXPECT_EQ(rig.device.cache_reads, 1 + 1 + 8 + 1);  // + the read of set_write_cache's check
}

}  // namespace
}  // namespace pts::testing
