// unit-tests/config/wsat_test.cpp — the wsat row, definition side: tests-pts/wsat.toml resolves
// into one sub-test of samples and the spec's stop rule (24 h under PTS-E 1.1, the operator's
// period of 6–24 h under PTS 2.0.2); no Tracking Variable unless the steady-state option is on
// (then Rounds of 31 samples); --workload picks among the definition's workloads (a deviation
// where the edition does not list it); the client class; bad input names file:line or the option.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/definition.h"
#include "config/plan_resolver.h"
#include "config/run_options.h"
#include "definition_fixtures.h"

namespace {

using namespace pts;
using test::def;
using test::has;
using test::has_deviation;
using test::kDir;
using test::line_of;
using test::problems;
using test::replace;
using test::resolve;
using test::resolve_errors;
using test::text_of;

TEST(WsatDefinition, ResolvesWithTheSpecValues) {
  const auto d = def("wsat.toml");
  EXPECT_EQ(d.procedure, "wsat");
  EXPECT_FALSE(d.wipc);
  EXPECT_EQ(d.workloads.size(), 5u);  // write-intensive + 2.0's four optional workloads
  uint32_t sum = 0;
  for (const auto& b : d.workloads.at("composite").bs_split) sum += b.percent;
  EXPECT_EQ(sum, 100u);
  const auto r = resolve("wsat.toml");
  const auto* w = r.plan.params<model::WsatPlan>();
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->spec_max_seconds, 24 * 3600);
  EXPECT_EQ(w->capacity_multiple, 4);
  ASSERT_EQ(r.plan.subtests.size(), 1u);
  EXPECT_EQ(r.plan.subtests[0].role, model::SubTestRole::WsatSamples);
  EXPECT_FALSE(r.plan.subtests[0].wipc_enabled);
}

TEST(WsatDefinition, TimeScaleScalesTheStopTimeAndIsADeviation) {
  config::RunOptions o;
  o.time_scale = 0.001;
  auto w = resolve("wsat.toml", o);
  EXPECT_DOUBLE_EQ(w.plan.params<model::WsatPlan>()->max_seconds, 86.4);
  EXPECT_TRUE(has_deviation(w, "time-scale"));
}

TEST(WsatDefinition, WorkloadChoiceAndWhatIsADeviation) {
  config::RunOptions o;
  o.workload = "oltp";
  auto r = resolve("wsat.toml", o);  // PTS 2.0.2 lists the optional workloads
  EXPECT_FALSE(has_deviation(r, "workload"));
  EXPECT_EQ(r.plan.subtests[0].id, "oltp");
  EXPECT_EQ(r.plan.subtests[0].cells[0].spec.read_pct, 65u);
  o.pts_edition = "pts-e-1.1";
  EXPECT_TRUE(has_deviation(resolve("wsat.toml", o), "workload"));
  o.workload = "nonesuch";
  auto e = resolve_errors("wsat.toml", o);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NE(e[0].find("--workload: 'nonesuch' is not a workload"), std::string::npos) << e[0];
  config::RunOptions x;
  x.workload = "oltp";
  EXPECT_NE(resolve_errors("xsr.toml", x).at(0).find("--workload"), std::string::npos);
  EXPECT_NE(resolve_errors("iops.toml", x).at(0).find("--workload"), std::string::npos);
}

TEST(WsatDefinition, HalfKiBWorkloadOn4KnIsBadInput) {
  config::RunOptions o;
  o.workload = "metadata";
  auto e = resolve_errors("wsat.toml", o, config::nominal_identity(1ull << 40, 4096));
  ASSERT_FALSE(e.empty());
  EXPECT_NE(e[0].find("[workload.metadata] cannot run"), std::string::npos) << e[0];
  EXPECT_NE(e[0].find("wsat.toml:"), std::string::npos) << e[0];
}

TEST(WsatDefinition, BsSplitNotSummingTo100) {
  const auto t = replace(text_of("wsat.toml"), "{ bs = \"64k\", pct = 3 }", "{ bs = \"64k\", pct = 1 }");
  auto p = problems(t);
  ASSERT_EQ(p.size(), 1u) << testing::PrintToString(p);
  EXPECT_EQ(p[0], "x.toml:" + std::to_string(line_of(t, "bs_split = [")) +
                      ": [workload.composite] bs_split shares sum to 98 %, not 100 %");
}

/// wsat.toml with `from` replaced by `to`, resolved with `o` (a failure when refused).
config::ResolvedPlan resolve_text(const std::string& from, const std::string& to, const config::RunOptions& o = {}) {
  auto d = config::parse_definition(replace(text_of("wsat.toml"), from, to), "x.toml");
  EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().message());
  if (!d.ok()) return {};
  auto r = config::resolve_plan(*d, o, config::nominal_identity(), model::EngineLimits{});
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
  return r.ok() ? r.value() : config::ResolvedPlan{};
}

TEST(WsatDefinition, NoTrackingVariableUnlessTheSteadyStateOptionIsOn) {
  const auto off = resolve("wsat.toml");
  EXPECT_TRUE(off.plan.subtests.at(0).tracking.empty());
  EXPECT_FALSE(off.plan.params<model::WsatPlan>()->stop_at_steady);
  for (const auto& i : off.plan.interpretations) EXPECT_EQ(i.find("steady-state criteria"), std::string::npos) << i;
  for (const char* ed : {"pts-2.0.2", "pts-e-1.1"}) {
    config::RunOptions o;
    o.pts_edition = ed;
    const auto on = resolve_text("stop_at_steady = false", "stop_at_steady = true", o);
    const auto* w = on.plan.params<model::WsatPlan>();
    ASSERT_NE(w, nullptr);
    EXPECT_TRUE(w->stop_at_steady);
    EXPECT_EQ(w->ss_interval_samples, 31u);  // CloudHarmony / ADATA: BLOCK_STORAGE_TEST_WSAT_CYCLES
    ASSERT_EQ(on.plan.subtests.at(0).tracking.size(), 1u);
    EXPECT_EQ(on.plan.subtests[0].tracking[0].metric, model::Metric::Iops);
    EXPECT_TRUE(on.deviations.empty() || !has_deviation(on, "wsat-steady-stop")) << ed;  // the spec's alternate method
    bool said = false;
    for (const auto& i : on.plan.interpretations) said = said || i.find("Rounds of 31 samples") != std::string::npos;
    EXPECT_TRUE(said) << ed;
  }
}

TEST(WsatDefinition, TestPeriodIsTheOperatorsUnderPts202Only) {
  config::RunOptions o;
  auto six = resolve_text("max_hours = 24", "max_hours = 6", o);  // PTS 2.0.2: the operator's 6–24 h
  EXPECT_FALSE(has_deviation(six, "wsat-stop"));
  EXPECT_DOUBLE_EQ(six.plan.params<model::WsatPlan>()->spec_max_seconds, 6 * 3600);
  EXPECT_FALSE(has_deviation(resolve("wsat.toml", o), "wsat-stop"));
  EXPECT_TRUE(has_deviation(resolve_text("max_hours = 24", "max_hours = 5", o), "wsat-stop"));  // outside 6–24
  EXPECT_TRUE(has_deviation(resolve_text("capacity_multiple = 4", "capacity_multiple = 2", o), "wsat-stop"));
  o.pts_edition = "pts-e-1.1";  // 24 h fixed
  EXPECT_TRUE(has_deviation(resolve_text("max_hours = 24", "max_hours = 6", o), "wsat-stop"));
  EXPECT_FALSE(has_deviation(resolve("wsat.toml", o), "wsat-stop"));
}

TEST(WsatDefinition, ClientClassUnderPts202AndRefusedUnderPtsE11) {
  config::RunOptions o;
  o.device_class = "client";
  for (const char* t : {"wsat.toml", "hir.toml", "xsr.toml"}) {
    const auto r = resolve(t, o);
    EXPECT_TRUE(r.plan.write_cache_enabled) << t;
    EXPECT_DOUBLE_EQ(r.plan.active_range_pct, 75) << t;
    EXPECT_EQ(r.plan.device_class, "client") << t;
  }
  EXPECT_EQ(resolve("wsat.toml", o).plan.threads, 2u);
  EXPECT_EQ(resolve("wsat.toml", o).plan.queue_depth, 16u);
  EXPECT_EQ(resolve("xsr.toml", o).plan.threads, 1u);
  o.pts_edition = "pts-e-1.1";
  for (const char* t : {"wsat.toml", "hir.toml", "xsr.toml"}) {
    const auto e = resolve_errors(t, o);
    ASSERT_EQ(e.size(), 1u) << t;
    EXPECT_NE(e[0].find("PTS-E 1.1 is the enterprise edition"), std::string::npos) << e[0];
  }
}

TEST(WsatDefinition, OperatorHoursRangeBadInput) {
  const auto t = replace(text_of("wsat.toml"), "operator_hours_range = [6, 24]", "operator_hours_range = [24, 6]");
  auto p = problems(t);
  ASSERT_EQ(p.size(), 1u) << testing::PrintToString(p);
  EXPECT_EQ(p[0], "x.toml:" + std::to_string(line_of(t, "operator_hours_range = [24")) +
                      ": [wsat] operator_hours_range is [MIN, MAX] hours, 0 < MIN <= MAX <= 1000");
}

}  // namespace
