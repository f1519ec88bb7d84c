// unit-tests/config/wsat_test.cpp — the wsat row, definition side: tests-pts/wsat.toml resolves
// into one sub-test of samples and the spec's stop rule; --workload picks among the
// definition's workloads (a deviation where the edition does not list it); bad input names
// file:line or the option.
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

}  // namespace
