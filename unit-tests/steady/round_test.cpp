// unit-tests/steady/round_test.cpp — assess_round (every Tracking Variable must pass in the
// same window: PTS 2.0.2's three-variable IOPS rule), tracking_value extraction and
// analyze_series (every window and the first steady round).
#include <gtest/gtest.h>

#include <vector>

#include "steady/steady_state.h"

namespace {

using namespace pts;

model::TestPlan plan_with(size_t variables) {
  model::TestPlan plan;
  plan.window_rounds = 5;
  model::SubTestPlan sub;
  sub.id = "main";
  const char* ids[] = {"rw0-bs4096", "rw65-bs65536", "rw100-bs1048576"};
  for (size_t i = 0; i < variables; ++i) sub.tracking.push_back({ids[i], model::Metric::Iops, ids[i]});
  plan.subtests.push_back(sub);
  return plan;
}

const std::vector<double> kFlat = {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
const std::vector<double> kRamp = {500, 600, 700, 800, 900, 1000, 1000, 1000};  // flat from round 6

TEST(SteadyRound, AllThreeVariablesMustPassInTheSameWindow) {
  auto plan = plan_with(3);
  const auto& sub = plan.subtests[0];
  // two flat, one ramping: round 5 fails because of the third variable only
  auto v5 = steady::assess_round(plan, sub, {kFlat, kFlat, kRamp}, 5);
  ASSERT_TRUE(v5.ok());
  EXPECT_FALSE(v5->steady);
  ASSERT_EQ(v5->variables.size(), 3u);
  EXPECT_TRUE(v5->variables[0].window.steady);
  EXPECT_TRUE(v5->variables[1].window.steady);
  EXPECT_FALSE(v5->variables[2].window.steady);
  EXPECT_EQ(v5->variables[2].variable.cell_id, "rw100-bs1048576");
  EXPECT_EQ(v5->variables[2].window.first_round, 1u);
  EXPECT_EQ(v5->variables[2].window.last_round, 5u);
  // rounds 4…8 of the ramp: 800, 900, 1000, 1000, 1000 → range 200 ≤ 0.2 × 940? no (188)
  EXPECT_FALSE(steady::assess_round(plan, sub, {kFlat, kFlat, kRamp}, 8)->steady);
  // with only the two flat variables the same round is steady
  auto two = plan_with(2);
  EXPECT_TRUE(steady::assess_round(two, two.subtests[0], {kFlat, kFlat}, 5)->steady);
}

TEST(SteadyRound, VariablesPassingInDifferentWindowsAreNotSteady) {
  // A passes only in window 1–5, B only in window 4–8: no single window has both.
  const std::vector<double> a = {1000, 1000, 1000, 1000, 1000, 2000, 3000, 4000};
  const std::vector<double> b = {4000, 3000, 2000, 1000, 1000, 1000, 1000, 1000};
  auto plan = plan_with(2);
  for (uint32_t r = 5; r <= 8; ++r) {
    auto v = steady::assess_round(plan, plan.subtests[0], {a, b}, r);
    ASSERT_TRUE(v.ok());
    EXPECT_FALSE(v->steady) << r;
  }
  EXPECT_TRUE(steady::assess_round(plan, plan.subtests[0], {a, b}, 5)->variables[0].window.steady);
  EXPECT_TRUE(steady::assess_round(plan, plan.subtests[0], {a, b}, 8)->variables[1].window.steady);
}

TEST(SteadyRound, BeforeTheWindowIsFullNothingIsSteady) {
  auto plan = plan_with(1);
  auto v = steady::assess_round(plan, plan.subtests[0], {kFlat}, 4);
  ASSERT_TRUE(v.ok());
  EXPECT_FALSE(v->steady);
  EXPECT_EQ(v->round, 4u);
  EXPECT_EQ(v->variables[0].window.values.size(), 4u);
  EXPECT_FALSE(v->variables[0].window.steady);
}

TEST(SteadyRound, UsesThePlanLimitsAndWindow) {
  auto plan = plan_with(1);
  plan.window_rounds = 3;
  plan.slope_excursion_limit = 0.30;  // TV-10 slope 20 % passes a 30 % limit over 3 rounds
  auto v = steady::assess_round(plan, plan.subtests[0], {{900, 950, 1000, 1050, 1100}}, 3);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->variables[0].window.first_round, 1u);
  EXPECT_EQ(v->variables[0].window.last_round, 3u);
  EXPECT_TRUE(v->steady);
}

TEST(SteadyRound, MisuseIsAnInternalError) {
  auto plan = plan_with(2);
  EXPECT_FALSE(steady::assess_round(plan, plan.subtests[0], {kFlat}, 5).ok());
  EXPECT_FALSE(steady::assess_round(plan, plan.subtests[0], {kFlat, {1, 2}}, 5).ok());
  EXPECT_FALSE(steady::assess_round(plan, plan.subtests[0], {kFlat, kFlat}, 0).ok());
}

model::CellResult cell(const std::string& id, double iops, double mbps, double mean_ns, uint64_t max_ns) {
  model::CellResult c;
  c.cell_id = id;
  c.iops = iops;
  c.mbps = mbps;
  c.latency.mean_ns = mean_ns;
  c.latency.max_ns = max_ns;
  return c;
}

TEST(SteadyRound, TrackingValueReadsTheNamedMetric) {
  auto c = cell("rw0-bs4096", 11726.8, 48.03, 85123.5, 900000);
  EXPECT_DOUBLE_EQ(steady::tracking_value(c, model::Metric::Iops), 11726.8);
  EXPECT_DOUBLE_EQ(steady::tracking_value(c, model::Metric::Mbps), 48.03);
  EXPECT_DOUBLE_EQ(steady::tracking_value(c, model::Metric::MeanLatencyNs), 85123.5);
  EXPECT_DOUBLE_EQ(steady::tracking_value(c, model::Metric::MaxLatencyNs), 900000.0);
  model::RoundRecord r;
  r.cells = {cell("rw100-bs4096", 1, 1, 1, 1), c};
  EXPECT_EQ(steady::tracking_value(r, {"rw0-bs4096", model::Metric::Iops, ""}).value(), 11726.8);
  EXPECT_FALSE(steady::tracking_value(r, {"rw65-bs4096", model::Metric::Iops, ""}).has_value());
}

TEST(SteadyRound, AssessRoundFromRoundRecords) {
  auto plan = plan_with(1);
  std::vector<model::RoundRecord> rounds;
  for (double v : {950.0, 975.0, 1000.0, 1025.0, 1050.0}) {
    model::RoundRecord r;
    r.cells = {cell("rw100-bs4096", 5, 5, 5, 5), cell("rw0-bs4096", v, 0, 0, 0)};
    rounds.push_back(r);
  }
  auto v = steady::assess_round(plan, plan.subtests[0], rounds, 5);
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->steady);
  EXPECT_DOUBLE_EQ(v->variables[0].window.average, 1000);
  rounds[2].cells.pop_back();
  auto missing = steady::assess_round(plan, plan.subtests[0], rounds, 5);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message().find("round 3"), std::string::npos);
}

TEST(SteadyAnalyze, EveryWindowAndTheFirstSteadyRound) {
  auto a = steady::analyze_series(kRamp, 5);
  ASSERT_EQ(a.windows.size(), 4u);
  EXPECT_EQ(a.windows[0].first_round, 1u);
  EXPECT_EQ(a.windows[3].last_round, 8u);
  EXPECT_FALSE(a.first_steady_round.has_value());

  std::vector<double> s = {500, 700, 900, 1000, 1000, 1000, 1000, 1000, 1000};
  auto b = steady::analyze_series(s, 5);
  ASSERT_TRUE(b.first_steady_round.has_value());
  // window 4–8 is constant; window 3–7 (900,1000×4): range 100 ≤ 196, slope 20·4=80 ≤ 98
  EXPECT_EQ(*b.first_steady_round, 7u);
  EXPECT_TRUE(b.windows[2].steady);
  EXPECT_FALSE(b.windows[1].steady);

  EXPECT_TRUE(steady::analyze_series({1, 2, 3}, 5).windows.empty());
}

}  // namespace
