// unit-tests/pts/resume_test.cpp — interruption and resume: Ctrl-C after the current cell,
// a second Ctrl-C aborting the cell, resume from a journal cut at any line (kill -9 at any
// moment, including a torn last line), and the identity re-check before resuming.
#include <gtest/gtest.h>

#include <fstream>

#include "results/codec.h"
#include "results/run_store.h"
#include "support.h"

namespace pts::testing {
namespace {

/// The parts of a record that must not depend on whether the run was interrupted.
void expect_same_results(const model::RunRecord& want, const model::RunRecord& got, const std::string& what) {
  ASSERT_EQ(got.state, model::RunState::Complete) << what;
  ASSERT_EQ(got.subtests.size(), want.subtests.size()) << what;
  for (size_t s = 0; s < want.subtests.size(); ++s) {
    const auto& a = want.subtests[s];
    const auto& b = got.subtests[s];
    ASSERT_EQ(b.rounds.size(), a.rounds.size()) << what << " sub-test " << s;
    for (size_t r = 0; r < a.rounds.size(); ++r) {
      ASSERT_EQ(b.rounds[r].round, a.rounds[r].round) << what;
      ASSERT_EQ(b.rounds[r].cells.size(), a.rounds[r].cells.size()) << what << " round " << r + 1;
      for (size_t c = 0; c < a.rounds[r].cells.size(); ++c) {
        EXPECT_EQ(b.rounds[r].cells[c].cell_id, a.rounds[r].cells[c].cell_id) << what;
        EXPECT_DOUBLE_EQ(b.rounds[r].cells[c].iops, a.rounds[r].cells[c].iops) << what;
      }
      ASSERT_EQ(b.rounds[r].verdict.has_value(), a.rounds[r].verdict.has_value()) << what;
      if (a.rounds[r].verdict) {
        EXPECT_EQ(b.rounds[r].verdict->steady, a.rounds[r].verdict->steady) << what;
      }
    }
    EXPECT_TRUE(b.complete) << what;
    EXPECT_EQ(b.steady_state_reached, a.steady_state_reached) << what;
    EXPECT_EQ(b.window_first_round, a.window_first_round) << what;
    EXPECT_EQ(b.window_last_round, a.window_last_round) << what;
    ASSERT_EQ(b.window_results.size(), a.window_results.size()) << what;
    for (size_t i = 0; i < a.window_results.size(); ++i)
      EXPECT_DOUBLE_EQ(b.window_results[i].iops, a.window_results[i].iops) << what;
    EXPECT_TRUE(b.purge) << what;
    ASSERT_TRUE(b.wipc) << what;
    EXPECT_TRUE(b.wipc->completed) << what;
  }
}

size_t count_code(const model::RunRecord& r, const std::string& code) {
  size_t n = 0;
  for (const auto& d : r.deviations) n += d.code == code;
  return n;
}

TEST(Resume, CtrlCStopsAfterTheCurrentCellAndResumeCompletes) {
  Rig ref(steady_at_8);
  auto reference = ref.start(temp_run_dir("sigint-ref"), make_plan());
  ASSERT_FALSE(reference.error);

  Rig rig(steady_at_8);
  // Ctrl-C arrives while call 7 runs: call 0 is WIPC, 1-3 Round 1, 4-6 Round 2, so call 7 is
  // Round 3, cell 1.
  rig.engine->on_run = [&](size_t call, const model::AccessSpec&) {
    if (call == 7) rig.stop = true;
  };
  auto dir = temp_run_dir("sigint");
  auto first = rig.start(dir, make_plan());
  ASSERT_FALSE(first.error) << first.error->message();
  EXPECT_EQ(first.record.state, model::RunState::Interrupted);
  EXPECT_EQ(rig.engine->calls.size(), 8u);  // the cell in flight finished; nothing started after
  ASSERT_EQ(first.record.subtests[0].rounds.size(), 3u);
  EXPECT_EQ(first.record.subtests[0].rounds[2].cells.size(), 1u);
  auto saved = results::load_run_json(dir);  // a valid partial run on disk
  ASSERT_TRUE(saved.ok());
  EXPECT_EQ(saved->state, model::RunState::Interrupted);

  Rig again(steady_at_8);
  again.clock.now_ns = rig.clock.now_ns + 3'600'000'000'000ull;  // an hour later
  auto resumed = again.resume(dir);
  ASSERT_FALSE(resumed.error) << resumed.error->message();
  expect_same_results(reference.record, resumed.record, "after Ctrl-C");
  ASSERT_EQ(count_code(resumed.record, "resume-gap"), 1u);
  for (const auto& d : resumed.record.deviations) {
    if (d.code == "resume-gap") {
      EXPECT_NE(d.text.find("3600.0 s"), std::string::npos) << d.text;
    }
  }
  EXPECT_EQ(again.device.purge_calls, 0);  // purge and WIPC were done before the stop
  EXPECT_EQ(again.engine->calls.size(), 25u - 8u);
}

TEST(Resume, SecondCtrlCAbortsTheCellWhichIsNotRecorded) {
  Rig rig(steady_at_8);
  rig.engine->on_run = [&](size_t call, const model::AccessSpec&) {
    if (call == 5) rig.stop = rig.abort = true;
  };
  auto dir = temp_run_dir("abort");
  auto first = rig.start(dir, make_plan());
  ASSERT_FALSE(first.error);
  EXPECT_EQ(first.record.state, model::RunState::Interrupted);
  ASSERT_EQ(first.record.subtests[0].rounds.size(), 2u);
  EXPECT_EQ(first.record.subtests[0].rounds[1].cells.size(), 1u);  // the aborted cell 2 is not kept

  Rig ref(steady_at_8);
  auto reference = ref.start(temp_run_dir("abort-ref"), make_plan());
  Rig again(steady_at_8);
  auto resumed = again.resume(dir);
  ASSERT_FALSE(resumed.error);
  expect_same_results(reference.record, resumed.record, "after abort");
}

TEST(Resume, CtrlCDuringWipcRedoesWipcOnResume) {
  Rig rig(steady_at_8);
  rig.engine->on_run = [&](size_t call, const model::AccessSpec&) {
    if (call == 0) rig.stop = true;
  };
  auto dir = temp_run_dir("wipc-stop");
  auto first = rig.start(dir, make_plan());
  ASSERT_FALSE(first.error);
  EXPECT_EQ(first.record.state, model::RunState::Interrupted);
  ASSERT_TRUE(first.record.subtests[0].wipc);
  EXPECT_FALSE(first.record.subtests[0].wipc->completed);
  Rig again(steady_at_8);
  auto resumed = again.resume(dir);
  ASSERT_FALSE(resumed.error);
  EXPECT_EQ(again.device.purge_calls, 0);
  EXPECT_EQ(again.engine->calls.front().bytes_limit, 2ull << 30);
  EXPECT_TRUE(resumed.record.subtests[0].wipc->completed);
  EXPECT_EQ(resumed.record.subtests[0].rounds.size(), 8u);
}

/// The deviations of a record, resume-gap excepted (their text names times).
std::vector<std::string> deviations_but_gaps(const model::RunRecord& r) {
  std::vector<std::string> out;
  for (const auto& d : r.deviations)
    if (d.code != "resume-gap") out.push_back(d.code + ": " + d.text);
  return out;
}

/// A purge-step scenario for the journal-cut matrix: how the first process's drive purges,
/// and whether the operator accepted purge failures.
struct PurgeCase {
  const char* name;
  bool fails = false;       ///< the first purge command fails
  bool unverified = false;  ///< the first purge succeeds, its LBA read-back check fails
  bool accepted = false;    ///< --accept-purge-failure
};

/// kill -9 at any moment: the journal ends after any complete line, or inside one. The
/// journal is that of a whole run: with a failing or unverified first purge (not accepted) it
/// is the failed run followed by the resume that purged again. Cut anywhere and resumed on a
/// sound drive (or, when failures are accepted, on the same failing one), every case ends with the reference's results; the purge is repeated exactly
/// when the cut journal holds no settled purge; an accepted failure keeps its deviations
/// even when the cut falls right after the purge line.
void resume_from_every_cut(const PurgeCase& pc, size_t min_cases) {
  size_t cases = 0;
  {
    auto plan = make_plan(pc.fails || pc.unverified ? 1 : 2);
    plan.accept_purge_failure = pc.accepted;
    Rig ref(steady_at_8);
    ref.device.purge_fails = pc.fails;
    ref.device.purge_unverified = pc.unverified;
    auto ref_dir = temp_run_dir("cut-ref");
    auto reference = ref.start(ref_dir, plan);
    if (reference.error) {  // a refused purge: the run failed; its resume purges again
      ASSERT_FALSE(pc.accepted) << pc.name;
      Rig fix(steady_at_8);
      reference = fix.resume(ref_dir);
      ASSERT_EQ(fix.device.purge_calls, 1) << pc.name;
    }
    ASSERT_FALSE(reference.error) << pc.name << ": " << reference.error->message();
    const auto want_deviations = deviations_but_gaps(reference.record);
    const std::string journal = read_text(ref_dir + "/journal.jsonl");
    std::vector<size_t> line_ends;
    std::vector<size_t> settled_lines;  // 1-based lines of purge events that settle a sub-test's purge
    for (size_t p = journal.find('\n'), start = 0; p != std::string::npos; start = p + 1, p = journal.find('\n', p + 1)) {
      line_ends.push_back(p + 1);
      const auto j = nlohmann::json::parse(journal.substr(start, p - start));
      if (j["event"] == "purge" && model::purge_settled(j["purge"].get<model::PurgeRecord>()))
        settled_lines.push_back(line_ends.size());
    }
    ASSERT_GT(line_ends.size(), 50u) << pc.name;
    ASSERT_EQ(settled_lines.size(), plan.subtests.size()) << pc.name;

    for (size_t keep = 1; keep < line_ends.size(); ++keep) {
      for (bool torn : {false, true}) {
        if (torn && keep + 1 >= line_ends.size()) continue;
        std::string prefix = journal.substr(0, line_ends[keep - 1]);
        if (torn) prefix += journal.substr(line_ends[keep - 1], (line_ends[keep] - line_ends[keep - 1]) / 2);
        const std::string what = std::string(pc.name) + ": cut after line " + std::to_string(keep) +
                                 (torn ? " + torn half line" : "");
        auto dir = temp_run_dir("cut");
        { std::ofstream(dir + "/journal.jsonl", std::ios::binary) << prefix; }
        auto loaded = results::load_journal(dir);
        ASSERT_TRUE(loaded.ok()) << what << ": " << loaded.error().message();
        EXPECT_EQ(loaded->torn_tail, torn) << what;
        EXPECT_EQ(loaded->events, keep) << what;
        Rig rig(steady_at_8);
        if (pc.accepted) {  // the drive still fails its purge; the operator still accepts it
          rig.device.purge_fails = pc.fails;
          rig.device.purge_unverified = pc.unverified;
        }
        auto resumed = rig.resume(dir);
        ASSERT_FALSE(resumed.error) << what << ": " << resumed.error->message();
        expect_same_results(reference.record, resumed.record, what);
        // A sub-test is purged (again) exactly when the cut journal holds no settled purge for it.
        int want_purges = 0;
        for (size_t line : settled_lines) want_purges += keep < line ? 1 : 0;
        EXPECT_EQ(rig.device.purge_calls, want_purges) << what;
        for (const auto& sub : resumed.record.subtests) EXPECT_TRUE(model::purge_settled(*sub.purge)) << what;
        // No deviation lost or doubled, whichever line the cut fell after.
        EXPECT_EQ(deviations_but_gaps(resumed.record), want_deviations) << what;
        // Identity re-checked before going on; no cell measured twice or lost.
        EXPECT_GE(rig.device.identify_calls, 1) << what;
        size_t gaps_before = 0;  // a journal that already holds a resume (the repeated purge)
        for (size_t p = prefix.find("\"code\":\"resume-gap\""); p != std::string::npos && p < line_ends[keep - 1];
             p = prefix.find("\"code\":\"resume-gap\"", p + 1))
          ++gaps_before;
        EXPECT_EQ(count_code(resumed.record, "resume-gap"), gaps_before + 1) << what;
        // The journal on disk replays to the same final record (torn tail cut before appending).
        auto reread = results::load_journal(dir);
        ASSERT_TRUE(reread.ok()) << what;
        EXPECT_FALSE(reread->torn_tail) << what;
        EXPECT_EQ(results::run_record_to_json_text(reread->record), read_text(dir + "/run.json")) << what;
        ++cases;
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
  EXPECT_GT(cases, min_cases);
}

TEST(Resume, FromAJournalCutAtAnyLine) { resume_from_every_cut({"sound purge", false, false, false}, 200); }
TEST(Resume, FromAJournalCutAtAnyLineWithAFailedPurge) {
  resume_from_every_cut({"failed purge", true, false, false}, 100);
}
TEST(Resume, FromAJournalCutAtAnyLineWithAnUnverifiedPurge) {
  resume_from_every_cut({"unverified purge", false, true, false}, 100);
}
TEST(Resume, FromAJournalCutAtAnyLineWithAnAcceptedFailedPurge) {
  resume_from_every_cut({"accepted failed purge", true, false, true}, 100);
}
TEST(Resume, FromAJournalCutAtAnyLineWithAnAcceptedUnverifiedPurge) {
  resume_from_every_cut({"accepted unverified purge", false, true, true}, 100);
}

TEST(Resume, RefusesAnotherDrive) {
  Rig rig(steady_at_8);
  rig.engine->on_run = [&](size_t call, const model::AccessSpec&) {
    if (call == 3) rig.stop = true;
  };
  auto dir = temp_run_dir("other-drive");
  auto first = rig.start(dir, make_plan());
  ASSERT_EQ(first.record.state, model::RunState::Interrupted);
  const std::string before = read_text(dir + "/journal.jsonl");

  Rig other(steady_at_8);
  other.device.id.serial = "SN-SOMEONE-ELSE";
  auto res = other.resume(dir);
  ASSERT_TRUE(res.error);
  EXPECT_EQ(res.error->kind, core::ErrorKind::Refused);
  EXPECT_NE(res.error->message().find("serial"), std::string::npos) << res.error->message();
  EXPECT_TRUE(other.engine->calls.empty());
  EXPECT_EQ(other.device.purge_calls, 0);
  EXPECT_EQ(read_text(dir + "/journal.jsonl"), before);  // nothing appended

  Rig newfw(steady_at_8);
  newfw.device.id.firmware = "FW2.0";
  auto res2 = newfw.resume(dir);
  ASSERT_TRUE(res2.error);
  EXPECT_TRUE(newfw.engine->calls.empty());
}

TEST(Resume, ACompleteRunIsLeftAlone) {
  Rig rig(steady_at_8);
  auto dir = temp_run_dir("complete");
  ASSERT_FALSE(rig.start(dir, make_plan(1, 5)).error);
  const std::string before = read_text(dir + "/journal.jsonl");
  Rig again(steady_at_8);
  auto res = again.resume(dir);
  ASSERT_FALSE(res.error);
  EXPECT_EQ(res.record.state, model::RunState::Complete);
  EXPECT_TRUE(again.engine->calls.empty());
  EXPECT_EQ(read_text(dir + "/journal.jsonl"), before);
}

}  // namespace
}  // namespace pts::testing
