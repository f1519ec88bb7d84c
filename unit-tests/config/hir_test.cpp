// unit-tests/config/hir_test.cpp — the hir row, definition side: tests-pts/hir.toml resolves
// into the preconditioning and one sub-test per wait state, scales every phase with
// --time-scale (a deviation) and states its readings; a negative wait state names file:line.
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

TEST(HirDefinition, ResolvesWithTheSpecValues) {
  const auto r = resolve("hir.toml");
  const auto* h = r.plan.params<model::HirPlan>();
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->spec_wait_seconds, (std::vector<double>{5, 10, 15, 25, 50}));
  EXPECT_EQ(h->repetitions, 360u);
  EXPECT_EQ(h->spec_access_a_seconds, 5);
  EXPECT_EQ(h->spec_access_c_sample_seconds, 5);  // the return to baseline: 360 × 5 s samples (ADATA)
  EXPECT_EQ(h->access_c_samples, 360u);
}

TEST(HirDefinition, SubTestsWorstCaseAndNoDeviations) {
  auto r = resolve("hir.toml");
  const auto& p = r.plan;
  EXPECT_EQ(p.procedure, "hir");
  ASSERT_EQ(p.subtests.size(), 6u);
  EXPECT_EQ(p.subtests[0].id, "precondition");
  EXPECT_TRUE(p.subtests[0].purge);
  EXPECT_FALSE(p.subtests[0].wipc_enabled);
  EXPECT_EQ(p.subtests[0].cells.size(), 30u);
  EXPECT_EQ(p.subtests[0].tracking.at(0).cell_id, "pc-30");
  const char* ids[] = {"wait-5s", "wait-10s", "wait-15s", "wait-25s", "wait-50s"};
  for (size_t k = 0; k < 5; ++k) {
    EXPECT_EQ(p.subtests[k + 1].id, ids[k]);
    EXPECT_EQ(p.subtests[k + 1].role, model::SubTestRole::HirWaitState);
    EXPECT_FALSE(p.subtests[k + 1].purge);
  }
  EXPECT_TRUE(r.deviations.empty());
  EXPECT_GE(p.interpretations.size(), 3u);
  // 25 × 30 min preconditioning + Σ 360 × (5 + w) + 5 × 360 × 5 s
  const double expect = 25 * 30 * 60 + 360.0 * (25 + 105) + 5 * 1800;
  EXPECT_DOUBLE_EQ(config::estimate_duration(p).rounds_seconds, expect);
}

TEST(HirDefinition, TimeScaleScalesEveryPhaseAndIsADeviation) {
  config::RunOptions o;
  o.time_scale = 0.001;
  auto r = resolve("hir.toml", o);
  const auto* h = r.plan.params<model::HirPlan>();
  ASSERT_NE(h, nullptr);
  EXPECT_DOUBLE_EQ(h->access_a_seconds, 0.005);
  EXPECT_DOUBLE_EQ(h->wait_seconds.back(), 0.05);
  EXPECT_DOUBLE_EQ(h->spec_wait_seconds.back(), 50);
  EXPECT_DOUBLE_EQ(h->access_c_sample_seconds, 0.005);
  EXPECT_EQ(h->access_c_samples, 360u);  // a count too
  EXPECT_EQ(h->repetitions, 360u);  // a count, not a length
  EXPECT_TRUE(has_deviation(r, "time-scale"));
}

TEST(HirDefinition, NegativeWaitStateNamesTheKeyAndLine) {
  const auto t = replace(text_of("hir.toml"), "wait_seconds = [5, 10, 15, 25, 50]", "wait_seconds = [5, -10, 15]");
  auto p = problems(t);
  ASSERT_EQ(p.size(), 1u) << testing::PrintToString(p);
  EXPECT_EQ(p[0], "x.toml:" + std::to_string(line_of(t, "wait_seconds = [5, -10")) +
                      ": [hir] wait_seconds: -10 is not an idle time (seconds greater than 0, at most 86400)");
}

}  // namespace
