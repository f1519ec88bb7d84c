// unit-tests/pts/state_machine_test.cpp — the PTS state machine on a fake engine and device,
// in fake time: stop rule, round cap, window-only reporting, gaps (the drive's idle between
// cells, the engine's set-up and drain included), failures.
#include <gtest/gtest.h>

#include <numeric>

#include "config/definition.h"
#include "pts/procedure.h"
#include "pts/window_results.h"
#include "results/codec.h"
#include "results/record_builder.h"
#include "results/run_store.h"
#include "steady/steady_state.h"
#include "support.h"

namespace pts::testing {
namespace {

TEST(StateMachine, StopsAtTheFirstSteadyRound) {
  Rig rig(steady_at_8);
  auto dir = temp_run_dir("first-steady");
  auto res = rig.start(dir, make_plan());
  ASSERT_FALSE(res.error) << res.error->message();
  const auto& rec = res.record;
  EXPECT_EQ(rec.state, model::RunState::Complete);
  ASSERT_EQ(rec.subtests.size(), 1u);
  const auto& s = rec.subtests[0];
  ASSERT_EQ(s.rounds.size(), 8u);
  EXPECT_TRUE(s.steady_state_reached);
  EXPECT_EQ(s.window_first_round, 4u);
  EXPECT_EQ(s.window_last_round, 8u);
  ASSERT_TRUE(s.final_verdict);
  EXPECT_EQ(s.final_verdict->round, 8u);
  // Independent cross-check: the same series through analyze_series finds the same round.
  auto analysis = steady::analyze_series(tracking_series(rec, 0));
  ASSERT_TRUE(analysis.first_steady_round);
  EXPECT_EQ(*analysis.first_steady_round, 8u);
  // Rounds 5..7 were checked and not steady; every round holds every applicable cell.
  for (uint32_t r = 5; r <= 7; ++r) {
    ASSERT_TRUE(s.rounds[r - 1].verdict);
    EXPECT_FALSE(s.rounds[r - 1].verdict->steady) << "round " << r;
  }
  for (const auto& round : s.rounds) EXPECT_EQ(round.cells.size(), 3u);
  // 1 WIPC + 8 rounds x 3 applicable cells; the 256 B cell never ran.
  EXPECT_EQ(rig.engine->calls.size(), 1u + 24u);
  for (const auto& call : rig.engine->calls) EXPECT_NE(call.block_bytes, 256u);
  EXPECT_EQ(rig.device.purge_calls, 1);
  ASSERT_TRUE(s.purge);
  ASSERT_TRUE(s.wipc);
  EXPECT_TRUE(s.wipc->completed);
}

TEST(StateMachine, HonoursTheRoundCapAndReportsNotAchieved) {
  Rig rig(never_steady);
  auto dir = temp_run_dir("cap");
  auto res = rig.start(dir, make_plan(1, 7));
  ASSERT_FALSE(res.error);
  const auto& s = res.record.subtests[0];
  EXPECT_EQ(res.record.state, model::RunState::Complete);
  ASSERT_EQ(s.rounds.size(), 7u);
  EXPECT_FALSE(s.steady_state_reached);
  EXPECT_TRUE(s.complete);
  EXPECT_EQ(s.window_first_round, 3u);
  EXPECT_EQ(s.window_last_round, 7u);
  ASSERT_TRUE(s.final_verdict);
  EXPECT_FALSE(s.final_verdict->steady);
  EXPECT_EQ(s.final_verdict->variables.at(0).window.first_round, 3u);
  // the sub-test's last word is Done; the run's, the write cache set back (write_cache_test.cpp)
  ASSERT_GE(res.record.transitions.size(), 2u);
  const auto& done = res.record.transitions.end()[-2];
  EXPECT_EQ(done.state, "Done");
  EXPECT_NE(done.detail.find("not achieved"), std::string::npos);
  EXPECT_EQ(res.record.transitions.back().state, "WriteCacheRestored");
}

TEST(StateMachine, ContinuePastMaxRunsUntilSteady) {
  Rig rig(steady_at_8);
  auto plan = make_plan(1, 5);
  plan.continue_past_max = true;
  auto res = rig.start(temp_run_dir("past-max"), plan);
  ASSERT_FALSE(res.error);
  EXPECT_EQ(res.record.subtests[0].rounds.size(), 8u);
  EXPECT_TRUE(res.record.subtests[0].steady_state_reached);
}

TEST(StateMachine, ReportsWindowMeansOnly) {
  Rig rig(steady_at_8);
  auto res = rig.start(temp_run_dir("window"), make_plan());
  ASSERT_FALSE(res.error);
  const auto& s = res.record.subtests[0];
  ASSERT_EQ(s.window_results.size(), 3u);  // applicable cells only
  for (const auto& w : s.window_results) {
    const auto& cell = *std::find_if(res.record.plan.subtests[0].cells.begin(), res.record.plan.subtests[0].cells.end(),
                                     [&](const model::CellPlan& c) { return c.id == w.cell_id; });
    // Expected from the script itself: occurrences 3..7 are rounds 4..8.
    double expect = 0, all = 0;
    for (uint32_t occ = 0; occ < 8; ++occ) {
      const double v = steady_at_8(cell.spec, occ);
      all += v;
      if (occ >= 3) expect += v;
    }
    EXPECT_EQ(w.rounds, 5u);
    EXPECT_DOUBLE_EQ(w.iops, expect / 5) << w.cell_id;
    EXPECT_NE(w.iops, all / 8) << w.cell_id;
    uint64_t mrt = 0;
    for (const auto& r : s.rounds)
      if (r.round >= 4)
        for (const auto& c : r.cells)
          if (c.cell_id == w.cell_id) mrt = std::max(mrt, c.latency.max_ns);
    EXPECT_EQ(w.max_latency_ns, mrt);
  }
}

TEST(StateMachine, WindowResultsIgnoreRoundsOutsideTheWindow) {
  auto plan = make_plan().subtests[0];
  std::vector<model::RoundRecord> rounds;
  for (uint32_t r = 1; r <= 9; ++r) {
    model::RoundRecord rr;
    rr.round = r;
    for (const auto& c : plan.cells) {
      model::CellResult cr;
      cr.cell_id = c.id;
      cr.iops = (r >= 3 && r <= 7) ? 10.0 * r : 1e12;  // poison outside 3..7
      cr.latency.max_ns = (r >= 3 && r <= 7) ? r : 1u << 30;
      rr.cells.push_back(cr);
    }
    rounds.push_back(rr);
  }
  auto w = runner::window_results(plan, rounds, 3, 7);
  ASSERT_EQ(w.size(), 3u);
  for (const auto& c : w) {
    EXPECT_DOUBLE_EQ(c.iops, 50.0);
    EXPECT_EQ(c.max_latency_ns, 7u);
    EXPECT_EQ(c.rounds, 5u);
  }
}

TEST(StateMachine, MeasuresTheGapBetweenCells) {
  Rig rig(steady_at_8);
  rig.clock.tick_ns = 1000;  // each monotonic read moves 1 µs: the state machine's own time
  // The engine's own set-up before its first I/O and drain after its last completion: the
  // drive is idle then too (a gap from one run() returning to the next call left them out).
  rig.engine->setup_ns = 3'700'000;
  rig.engine->drain_ns = 400'000;
  // From one cell's last completion to the next one's first submission: its drain, the two
  // clock reads around run() (run_context.cpp), the next cell's set-up.
  const uint64_t want_ns = 400'000 + 2 * 1000 + 3'700'000;
  auto res = rig.start(temp_run_dir("gaps"), make_plan());
  ASSERT_FALSE(res.error);
  for (const auto& r : res.record.subtests[0].rounds) {
    EXPECT_EQ(r.cell_gaps_ns, std::vector<uint64_t>(3, want_ns)) << "round " << r.round;  // before each of its 3 cells
    EXPECT_EQ(r.max_cell_gap_ns, want_ns);
    EXPECT_DOUBLE_EQ(r.mean_cell_gap_ns, static_cast<double>(want_ns));
  }
}

TEST(StateMachine, GapFallsBackToRunToRunWhenTheEngineReportsNoIoPhase) {
  Rig rig(steady_at_8);
  rig.clock.tick_ns = 1000;
  rig.engine->setup_ns = 3'700'000;
  rig.engine->drain_ns = 400'000;
  rig.engine->report_io_phase = false;
  auto res = rig.start(temp_run_dir("gaps-fallback"), make_plan());
  ASSERT_FALSE(res.error);
  // One run() returning to the next call: one clock read apart; set-up and drain unseen.
  for (const auto& r : res.record.subtests[0].rounds) {
    EXPECT_EQ(r.cell_gaps_ns, std::vector<uint64_t>(3, 1000)) << "round " << r.round;
    EXPECT_EQ(r.max_cell_gap_ns, 1000u);
  }
}

TEST(StateMachine, RunsEverySubTestWithItsOwnPurgeAndWipc) {
  Rig rig(steady_at_8);
  auto res = rig.start(temp_run_dir("subtests"), make_plan(2));
  ASSERT_FALSE(res.error);
  ASSERT_EQ(res.record.subtests.size(), 2u);
  for (const auto& s : res.record.subtests) {
    EXPECT_TRUE(s.complete);
    EXPECT_TRUE(s.purge);
    EXPECT_TRUE(s.wipc);
    EXPECT_EQ(s.rounds.size(), 8u);
  }
  EXPECT_EQ(rig.device.purge_calls, 2);
  // Identity is re-read before each destructive phase: start + 2 purges + 2 WIPCs.
  EXPECT_EQ(rig.device.identify_calls, 5);
}

TEST(StateMachine, GuardRefusalTouchesNothing) {
  Rig rig(steady_at_8);
  rig.device.guard_refuses = true;
  results::RecordBuilder sink;
  auto env = rig.env(sink);
  auto res = runner::start_run(env, make_header(make_plan(), rig.device.id));
  ASSERT_TRUE(res.error);
  EXPECT_EQ(res.error->kind, core::ErrorKind::Refused);
  EXPECT_FALSE(res.journaled);
  EXPECT_TRUE(rig.engine->calls.empty());
  EXPECT_EQ(rig.device.purge_calls, 0);
  EXPECT_TRUE(sink.record().plan.test_id.empty());  // nothing reached the sink
}

TEST(StateMachine, PurgeFailureIsADeviceError) {
  Rig rig(steady_at_8);
  rig.device.purge_fails = true;
  auto dir = temp_run_dir("purge-fail");
  auto res = rig.start(dir, make_plan());
  ASSERT_TRUE(res.error);
  EXPECT_EQ(res.error->kind, core::ErrorKind::Device);
  EXPECT_EQ(res.record.state, model::RunState::Failed);
  EXPECT_TRUE(res.record.subtests[0].purge);  // the failed command is on record
  EXPECT_TRUE(rig.engine->calls.empty());
  auto saved = results::load_run_json(dir);
  ASSERT_TRUE(saved.ok());
  EXPECT_EQ(saved->state, model::RunState::Failed);
}

TEST(StateMachine, AcceptedPurgeFailureGoesOnAsADeviation) {
  Rig rig(steady_at_8);
  rig.device.purge_fails = true;
  auto plan = make_plan();
  plan.accept_purge_failure = true;
  auto dir = temp_run_dir("purge-accepted");
  auto res = rig.start(dir, plan);
  ASSERT_FALSE(res.error) << res.error->message();
  ASSERT_TRUE(res.record.subtests[0].purge);
  EXPECT_TRUE(res.record.subtests[0].purge->accepted_by_operator);
  EXPECT_FALSE(rig.engine->calls.empty());
  auto has = [&](const std::string& code) {
    for (const auto& d : res.record.deviations)
      if (d.code == code) return true;
    return false;
  };
  EXPECT_TRUE(has("purge-accepted"));
  EXPECT_TRUE(has("purge-unverified"));
}

TEST(StateMachine, WriteCacheIsBroughtToThePlanState) {
  Rig rig(steady_at_8);
  rig.device.cache = model::WriteCacheState::Enabled;
  auto res = rig.start(temp_run_dir("wcd"), make_plan(1, 5));
  ASSERT_FALSE(res.error);
  EXPECT_EQ(res.record.write_cache, model::WriteCacheState::Disabled);
  std::vector<model::WriteCacheState> during;
  for (const auto& set : rig.device.cache_sets)
    during.push_back(set.enabled ? model::WriteCacheState::Enabled : model::WriteCacheState::Disabled);
  // disabled for the test, then the operator's setting back when the run ended
  EXPECT_EQ(during, (std::vector<model::WriteCacheState>{model::WriteCacheState::Disabled,
                                                          model::WriteCacheState::Enabled}));
  EXPECT_EQ(rig.device.cache, model::WriteCacheState::Enabled);
}

TEST(StateMachine, JournalRunJsonAndRunnerAgree) {
  Rig rig(steady_at_8);
  auto dir = temp_run_dir("agree");
  auto res = rig.start(dir, make_plan(2));
  ASSERT_FALSE(res.error);
  auto loaded = results::load_journal(dir);
  ASSERT_TRUE(loaded.ok());
  EXPECT_FALSE(loaded->torn_tail);
  // run.json, the record rebuilt from the journal and the runner's record are one record.
  const std::string on_disk = read_text(dir + "/run.json");
  EXPECT_EQ(on_disk, results::run_record_to_json_text(loaded->record));
  EXPECT_EQ(on_disk, results::run_record_to_json_text(res.record));
  EXPECT_NE(on_disk.find("\"window_results\""), std::string::npos);
}

TEST(StateMachine, PurgeNoneSkipsThePurgeButNotWipc) {
  Rig rig(steady_at_8);
  auto plan = make_plan(1, 5);
  plan.purge_auto = false;
  plan.purge_method = model::PurgeMethod::None;
  auto res = rig.start(temp_run_dir("purge-none"), plan);
  ASSERT_FALSE(res.error);
  EXPECT_EQ(rig.device.purge_calls, 0);
  EXPECT_FALSE(res.record.subtests[0].purge);
  ASSERT_TRUE(res.record.subtests[0].wipc);
  bool skipped = false;
  for (const auto& t : res.record.transitions) skipped |= t.state == "Purge" && t.detail.find("skipped") != std::string::npos;
  EXPECT_TRUE(skipped);
}

TEST(StateMachine, AnExplicitPurgeMethodIsPassedToTheDevice) {
  Rig rig(steady_at_8);
  auto plan = make_plan(1, 5);
  plan.purge_auto = false;
  plan.purge_method = model::PurgeMethod::SanitizeBlock;
  auto res = rig.start(temp_run_dir("purge-explicit"), plan);
  ASSERT_FALSE(res.error);
  ASSERT_TRUE(res.record.subtests[0].purge);
  EXPECT_EQ(res.record.subtests[0].purge->method, model::PurgeMethod::SanitizeBlock);
  EXPECT_FALSE(res.record.subtests[0].purge->chosen_automatically);
}

TEST(StateMachine, AnOperatorSeedGivesEveryCellOfEveryRoundItsOwnSeed) {
  auto plan = make_plan(1, 5);
  for (auto& c : plan.subtests[0].cells) c.spec.seed = 42;
  std::vector<uint64_t> seeds[2];
  for (int run = 0; run < 2; ++run) {
    Rig rig(never_steady);
    ASSERT_FALSE(rig.start(temp_run_dir("seed"), plan).error);
    for (const auto& call : rig.engine->calls)
      if (call.bytes_limit == 0) seeds[run].push_back(call.seed);
  }
  ASSERT_EQ(seeds[0].size(), 15u);
  EXPECT_EQ(seeds[0], seeds[1]);  // reproducible
  std::vector<uint64_t> sorted = seeds[0];
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::unique(sorted.begin(), sorted.end()), sorted.end());  // never repeated
  EXPECT_EQ(std::count(sorted.begin(), sorted.end(), 42u), 0);
}

TEST(Procedures, EveryRowRunsAndEveryDefinitionFindsItsRow) {
  // The table's check: every definition row is joined with the part that runs it.
  EXPECT_TRUE(runner::rows_without_run().empty());
  const std::pair<const char*, const char*> tests[] = {{"iops", "steady-rounds"}, {"throughput", "steady-rounds"},
                                                       {"latency", "steady-rounds"}, {"wsat", "wsat"},
                                                       {"hir", "hir"}, {"xsr", "xsr"},
                                                       {"dirth", "dirth"}, {"ecw", "dirth"}};
  for (const auto& [id, proc] : tests) {
    auto d = config::load_definition(std::string(PTS_SOURCE_DIR) + "/tests-pts/" + id + ".toml");
    ASSERT_TRUE(d.ok()) << id << ": " << d.error().message();
    const config::ProcedureRow* row = config::find_procedure(d->procedure);
    ASSERT_NE(row, nullptr) << id;
    EXPECT_STREQ(row->name, proc) << id;
    EXPECT_NE(runner::find_procedure(*row), nullptr) << id;
  }
  EXPECT_EQ(config::find_procedure("cbw"), nullptr);
  model::TestPlan plan;
  plan.test_id = "my-wsat";  // a definition file of its own names its procedure
  plan.procedure = "wsat";
  EXPECT_EQ(runner::find_procedure_for(plan), runner::find_procedure(*config::find_procedure("wsat")));
  plan.procedure = "";  // a record from before the table: steady Rounds
  EXPECT_EQ(runner::find_procedure_for(plan), runner::find_procedure(*config::find_procedure("steady-rounds")));
  plan.procedure = "nonesuch";
  EXPECT_EQ(runner::find_procedure_for(plan), nullptr);
}

}  // namespace
}  // namespace pts::testing
