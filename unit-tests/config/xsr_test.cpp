// unit-tests/config/xsr_test.cpp — the xsr row, definition side: tests-pts/xsr.toml resolves
// into three Access Groups, scaled with --time-scale; fewer groups are refused naming the key.
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

TEST(XsrDefinition, ResolvesWithTheSpecValues) {
  const auto r = resolve("xsr.toml");
  const auto* x = r.plan.params<model::XsrPlan>();
  ASSERT_NE(x, nullptr);
  ASSERT_EQ(x->groups.size(), 3u);
  EXPECT_EQ(x->groups[1].spec_seconds, 6 * 3600);
  ASSERT_EQ(r.plan.subtests.size(), 1u);
  EXPECT_EQ(r.plan.subtests[0].role, model::SubTestRole::XsrGroups);
}

TEST(XsrDefinition, TimeScaleScalesTheGroups) {
  config::RunOptions o;
  o.time_scale = 0.001;
  auto x = resolve("xsr.toml", o);
  EXPECT_DOUBLE_EQ(x.plan.params<model::XsrPlan>()->groups[0].seconds, 28.8);
  EXPECT_TRUE(has_deviation(x, "time-scale"));
}

TEST(XsrDefinition, NeedsThreeGroups) {
  const auto t = replace(text_of("xsr.toml"), "  { id = \"ag3\", workload = \"seq1024k-w\", hours = 8 },\n", "");
  EXPECT_TRUE(has(problems(t), "[xsr] groups: XSR runs three Access Groups"));
}

}  // namespace
