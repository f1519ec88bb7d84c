// unit-tests/config/review_test.cpp — the curve and sweep rows, definition side (review-lab
// workloads, not SNIA PTS tests): tests-pts/curve-4k-randread.toml resolves into the review
// preconditioning and a curve of the QD 1 reference, the maximum and 12 points, each after its
// warm-up, with exponential arrivals; sweep-qd into 18 steps with their ramps; every shipped
// review definition states its source and TC × QD and resolves; bad input names the key
// (file:line): a curve point <= 0 or > 200 %, an unknown arrival process, block-size shares that
// do not sum to 100 %.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "config/definition.h"
#include "config/plan_resolver.h"
#include "config/procedure_table.h"
#include "config/run_options.h"
#include "definition_fixtures.h"

namespace {

using namespace pts;
using test::def;
using test::has;
using test::line_of;
using test::problems;
using test::replace;
using test::resolve;
using test::text_of;

TEST(CurveDefinition, ResolvesIntoPreconditioningAndThirteenPoints) {
  const auto r = resolve("curve-4k-randread.toml");
  const auto& p = r.plan;
  EXPECT_EQ(p.procedure, "curve");
  const auto* cp = p.params<model::CurvePlan>();
  ASSERT_NE(cp, nullptr);
  EXPECT_EQ(cp->fractions_pct, (std::vector<double>{10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120}));
  EXPECT_EQ(cp->arrival, "exponential");
  EXPECT_TRUE(cp->review.enabled);
  EXPECT_FALSE(cp->profile.approximation);
  EXPECT_NE(cp->profile.threads_meaning.find("TC 4 x QD 32"), std::string::npos);
  ASSERT_EQ(p.subtests.size(), 2u);
  const auto& pre = p.subtests[0];
  EXPECT_EQ(pre.role, model::SubTestRole::ReviewPrecondition);
  EXPECT_TRUE(pre.purge);
  ASSERT_EQ(pre.cells.size(), 3u);  // fill, an hour SEQ 64 KiB, an hour RND 4 KiB (a random profile)
  EXPECT_EQ(pre.cells[0].spec.bytes_limit, config::nominal_identity().capacity_bytes / 65536 * 65536);
  EXPECT_EQ(pre.cells[1].spec.seconds, 3600);
  EXPECT_EQ(pre.cells[2].spec.active_range_pct, 25);  // the lab's partition
  const auto& curve = p.subtests[1];
  EXPECT_EQ(curve.role, model::SubTestRole::CurvePoints);
  EXPECT_FALSE(curve.purge);  // the preconditioning purged
  // qd1, max and 12 points, each with its warm-up.
  ASSERT_EQ(curve.cells.size(), 2u * 14);
  EXPECT_EQ(curve.cells[0].id, "qd1-warmup");
  EXPECT_EQ(curve.cells[1].id, "qd1");
  EXPECT_EQ(curve.cells[1].spec.threads * curve.cells[1].spec.queue_depth, 1u);
  EXPECT_EQ(curve.cells[3].id, "max");
  EXPECT_EQ(curve.cells[3].spec.rate_iops, 0u);
  EXPECT_EQ(curve.cells[3].spec.threads, 4u);
  EXPECT_EQ(curve.cells[3].spec.queue_depth, 32u);
  EXPECT_EQ(curve.cells[5].id, "p10");
  EXPECT_EQ(curve.cells[5].spec.arrival, model::Arrival::Exponential);
  EXPECT_EQ(curve.cells.back().id, "p120");
  EXPECT_EQ(curve.cells.back().spec.active_range_pct, 25);
  EXPECT_TRUE(has(p.interpretations, "not a SNIA PTS test"));
}

TEST(CurveDefinition, TimeScaleShortensEveryPhaseAndSaysSo) {
  config::RunOptions o;
  o.time_scale = 0.01;
  const auto r = resolve("curve-4k-randread.toml", o);
  const auto* cp = r.plan.params<model::CurvePlan>();
  ASSERT_NE(cp, nullptr);
  EXPECT_DOUBLE_EQ(cp->interval_seconds, 0.6);
  EXPECT_DOUBLE_EQ(cp->spec_interval_seconds, 60);
  EXPECT_DOUBLE_EQ(cp->review.seq_seconds, 36);
  bool said = false;
  for (const auto& d : r.deviations) said = said || d.code == "time-scale";
  EXPECT_TRUE(said);
}

TEST(CurveDefinition, BadPointsAndArrivalNameTheKey) {
  const std::string text = text_of("curve-4k-randread.toml");
  for (const char* bad : {"[0, 50]", "[-10, 50]", "[50, 250]"}) {
    const std::string edited = replace(text, "[10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120]", bad);
    const auto msgs = problems(edited);
    EXPECT_TRUE(has(msgs, "x.toml:" + std::to_string(line_of(edited, "points_pct")) + ": [curve] points_pct:")) << bad;
    EXPECT_TRUE(has(msgs, "above 0 % and at most 200 %")) << bad;
  }
  const std::string arrival = replace(text, "arrival = \"exponential\"", "arrival = \"poisson\"");
  const auto msgs = problems(arrival);
  EXPECT_TRUE(has(msgs, "x.toml:" + std::to_string(line_of(arrival, "arrival =")) + ":"));
  EXPECT_TRUE(has(msgs, "poisson"));
  EXPECT_TRUE(has(msgs, "arrival"));
}

TEST(CurveDefinition, BlockSizeSharesMustSumTo100) {
  const std::string text = text_of("curve-oracle.toml");
  const std::string edited = replace(text, "{ bs = \"8k\", pct = 90 }", "{ bs = \"8k\", pct = 80 }");
  const auto msgs = problems(edited);
  EXPECT_TRUE(has(msgs, "x.toml:" + std::to_string(line_of(edited, "bs_split")) + ": [workload.oracle] bs_split shares sum to 90 %, not 100 %"));
}

TEST(CurveDefinition, ApproximationsSayWhereTheyComeFrom) {
  const auto r = resolve("curve-sql.toml");
  const auto* cp = r.plan.params<model::CurvePlan>();
  ASSERT_NE(cp, nullptr);
  EXPECT_TRUE(cp->profile.approximation);
  EXPECT_TRUE(has(r.plan.interpretations, "APPROXIMATION"));
  EXPECT_NE(text_of("curve-sql.toml").find("# APPROXIMATION"), std::string::npos);
}

TEST(SweepDefinition, QdSweepHasEighteenStepsWithRamps) {
  const auto r = resolve("sweep-qd.toml");
  const auto& p = r.plan;
  const auto* sp = p.params<model::SweepPlan>();
  ASSERT_NE(sp, nullptr);
  EXPECT_EQ(sp->spec_ramp_seconds, 30);
  EXPECT_EQ(sp->spec_interval_seconds, 300);
  ASSERT_EQ(p.subtests.size(), 2u);
  const auto& s = p.subtests[1];
  EXPECT_EQ(s.role, model::SubTestRole::SweepSteps);
  ASSERT_EQ(s.cells.size(), 2u * 18);
  EXPECT_EQ(s.cells[0].id, "rw100-w1x1-ramp");
  EXPECT_EQ(s.cells[1].id, "rw100-w1x1");
  EXPECT_EQ(s.cells[9].id, "rw100-w16x1");
  EXPECT_EQ(s.cells[17].id, "rw100-w16x16");
  EXPECT_EQ(s.cells[17].spec.threads * s.cells[17].spec.queue_depth, 256u);
  EXPECT_EQ(s.cells[19].id, "rw0-w1x1");
  EXPECT_EQ(s.cells[19].spec.read_pct, 0u);
}

TEST(SweepDefinition, ReadMixStepsFrom0To100) {
  const auto r = resolve("sweep-readmix.toml");
  const auto& s = r.plan.subtests.back();
  std::vector<uint32_t> shares;
  for (const auto& c : s.cells)
    if (c.id.find("-ramp") == std::string::npos) shares.push_back(c.spec.read_pct);
  EXPECT_EQ(shares, (std::vector<uint32_t>{0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100}));
}

TEST(SweepDefinition, WorkersAndOutstandingMustPair) {
  const std::string text = text_of("sweep-qd.toml");
  const auto msgs = problems(replace(text, "outstanding = [1, 1, 1, 1, 1, 2, 4, 8, 16]", "outstanding = [1, 1]"));
  EXPECT_TRUE(has(msgs, "[sweep] workers lists 9 steps and outstanding 2"));
}

TEST(ReviewDefinitions, EveryOneResolvesStatesItsSourceAndIsGroupedApart) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(test::kDir)) {
    const std::string name = e.path().filename().string();
    if (!e.is_regular_file() || e.path().extension() != ".toml") continue;  // requirements/ is not a test
    if (name.rfind("_", 0) == 0) continue;  // the template for new definitions
    const auto d = def(name);
    const auto* row = config::find_procedure(d.procedure);
    ASSERT_NE(row, nullptr) << name;
    if (d.procedure == "pressure" || d.procedure == "neighbour") {  // quality of service, apart too
      EXPECT_NE(row->not_snia_group, nullptr) << name;
      continue;
    }
    if (d.procedure != "curve" && d.procedure != "sweep") {
      EXPECT_EQ(row->not_snia_group, nullptr) << name;
      continue;
    }
    ++n;
    EXPECT_NE(row->not_snia_group, nullptr) << name;
    const auto r = resolve(name);
    EXPECT_TRUE(has(r.plan.interpretations, "source:")) << name;
    EXPECT_TRUE(has(r.plan.interpretations, "outstanding I/Os: TC ")) << name;
    EXPECT_NE(text_of(name).find("threads_meaning"), std::string::npos) << name;
  }
  EXPECT_EQ(n, 27);  // 8 lab curves, 6 database, 6 VDI, JESD219, 2 sweeps, 4 Iometer
}

}  // namespace
