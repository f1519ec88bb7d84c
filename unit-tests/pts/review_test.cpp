// unit-tests/pts/review_test.cpp — the curve and sweep procedures on the fake engine in fake
// time: the review preconditioning runs its steps once; every curve point is paced at its
// fraction of the IOPS the maximum achieved, with the plan's arrival process; a stop and resume
// in the middle of the curve gives the same rates; stopcurve ends the curve after the first point
// past its limit; the sweep's findings check Little's law and name where writes stop climbing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pts/curve.h"
#include "pts/sweep.h"
#include "shipped_plans.h"
#include "support.h"

namespace {

using namespace pts;
using namespace pts::testing;

constexpr double kPeak = 10000;

/// A drive of 10,000 IOPS at depth, 2,000 at QD 1, and a paced run gets what it asks for up
/// to the peak.
double drive(const model::AccessSpec& s, uint32_t) {
  if (s.bytes_limit > 0) return 5000;
  if (s.rate_iops > 0) return std::min<double>(static_cast<double>(s.rate_iops), kPeak);
  return uint64_t{s.threads} * s.queue_depth == 1 ? 2000 : kPeak;
}

model::TestPlan curve_plan(const model::DeviceIdentity& id) {
  config::RunOptions o;
  o.time_scale = 0.001;
  o.seed = 5;
  return shipped_plan("curve-4k-randread", o, id);
}

TEST(Curve, PointsArePacedAtTheirFractionOfTheAchievedMaximum) {
  Rig rig(drive);
  auto res = rig.start(temp_run_dir("curve"), curve_plan(rig.device.id));
  ASSERT_FALSE(res.error) << res.error->message();
  EXPECT_EQ(res.record.state, model::RunState::Complete);
  const auto& pre = res.record.subtests[0];
  ASSERT_EQ(pre.rounds.size(), 1u);
  EXPECT_EQ(pre.rounds[0].cells.size(), 3u);  // fill, SEQ 64 KiB, RND 4 KiB
  ASSERT_TRUE(pre.complete);
  const auto& calls = rig.engine->calls;
  std::vector<uint64_t> rates;
  for (const auto& c : calls)
    if (c.rate_iops > 0) {
      rates.push_back(c.rate_iops);
      EXPECT_EQ(c.arrival, model::Arrival::Exponential);
    }
  // Every point twice (its warm-up and itself): 10 % … 120 % of 10,000.
  ASSERT_EQ(rates.size(), 24u);
  for (size_t k = 0; k < 12; ++k) {
    EXPECT_EQ(rates[2 * k], 1000 * (k + 1));
    EXPECT_EQ(rates[2 * k + 1], 1000 * (k + 1));
  }
  const auto& curve = res.record.subtests[1];
  ASSERT_TRUE(curve.complete);
  const auto* peak = find_finding(curve, "peak_iops");
  ASSERT_NE(peak, nullptr);
  EXPECT_DOUBLE_EQ(*peak->value, kPeak);
  EXPECT_NE(peak->detail.find("peak 10 k IOPS at"), std::string::npos) << peak->detail;
  const auto* p120 = find_finding(curve, "p120_achieved_pct");
  ASSERT_NE(p120, nullptr);
  EXPECT_NEAR(*p120->value, 100.0 * 10000 / 12000, 1e-6);
  EXPECT_EQ(find_finding(curve, "stopped"), nullptr);
  EXPECT_EQ(runner::curve_points(*res.record.plan.params<model::CurvePlan>(), curve.rounds[0]).size(), 13u);
}

TEST(Curve, ResumeInTheMiddleKeepsTheRates) {
  Rig rig(drive);
  rig.engine->on_run = [&](size_t call, const model::AccessSpec&) {
    if (call == 12) rig.stop = true;  // during a point of the curve
  };
  auto dir = temp_run_dir("curve-resume");
  auto first = rig.start(dir, curve_plan(rig.device.id));
  ASSERT_FALSE(first.error);
  EXPECT_EQ(first.record.state, model::RunState::Interrupted);
  rig.stop = false;
  rig.engine->on_run = nullptr;
  auto second = rig.resume(dir);
  ASSERT_FALSE(second.error) << second.error->message();
  EXPECT_EQ(second.record.state, model::RunState::Complete);
  std::vector<uint64_t> rates;
  for (const auto& c : second.record.subtests[1].rounds[0].cells)
    if (c.spec.rate_iops > 0) rates.push_back(c.spec.rate_iops);
  ASSERT_EQ(rates.size(), 24u);
  for (size_t k = 0; k < 12; ++k) EXPECT_EQ(rates[2 * k + 1], 1000 * (k + 1));
}

TEST(Curve, StopcurveEndsAfterTheFirstPointPastItsLimit) {
  Rig rig(drive);
  auto plan = curve_plan(rig.device.id);
  // The fake's latency is depth ÷ IOPS: 128 / 5000 = 25.6 ms at 50 %, 128 / 6000 = 21.3 ms at 60 %.
  std::get<model::CurvePlan>(plan.procedure_plan).stop_response_ms = 24;
  auto res = rig.start(temp_run_dir("curve-stop"), plan);
  ASSERT_FALSE(res.error) << res.error->message();
  const auto& curve = res.record.subtests[1];
  ASSERT_TRUE(curve.complete);
  const auto& last = curve.rounds[0].cells.back();
  EXPECT_EQ(last.cell_id, "p10");  // 128 / 1000 = 128 ms: past the limit at once
  const auto* stopped = find_finding(curve, "stopped");
  ASSERT_NE(stopped, nullptr);
  EXPECT_NE(stopped->detail.find("10 % point"), std::string::npos) << stopped->detail;
}

TEST(Sweep, FindingsCheckLittlesLawAndNameWhereWritesStopClimbing) {
  model::SweepPlan plan;
  std::vector<runner::SweepStep> steps;
  const double iops[] = {1000, 1900, 3500, 3600, 3610};
  for (uint32_t k = 0; k < 5; ++k) {
    runner::SweepStep s;
    s.cell_id = "rw0-w" + std::to_string(1u << k) + "x1";
    s.read_pct = 0;
    s.workers = 1u << k;
    s.outstanding = 1;
    s.iops = iops[k];
    s.mean_latency_ns = static_cast<double>(s.workers) / s.iops * 1e9 * (k == 4 ? 1.2 : 1.0);
    s.littles_oio = s.iops * s.mean_latency_ns / 1e9;
    steps.push_back(s);
  }
  const auto f = runner::sweep_findings(plan, steps);
  auto get = [&](const std::string& key) -> const model::Finding* {
    for (const auto& x : f)
      if (x.key == key) return &x;
    return nullptr;
  };
  ASSERT_NE(get("littles_law"), nullptr);
  EXPECT_EQ(*get("littles_law")->value, 0.0);  // the last step is 20 % off
  EXPECT_NE(get("littles_law")->detail.find("rw0-w16x1"), std::string::npos);
  ASSERT_NE(get("climb_stops_rw0"), nullptr);
  EXPECT_EQ(*get("climb_stops_rw0")->value, 8.0);  // 3500 → 3600 is +2.9 %
}

TEST(Sweep, RunsEveryStepOnceAfterItsRamp) {
  Rig rig(drive);
  config::RunOptions o;
  o.time_scale = 0.001;
  auto res = rig.start(temp_run_dir("sweep"), shipped_plan("sweep-qd", o, rig.device.id));
  ASSERT_FALSE(res.error) << res.error->message();
  const auto& s = res.record.subtests[1];
  ASSERT_TRUE(s.complete);
  EXPECT_EQ(s.rounds[0].cells.size(), 36u);
  EXPECT_EQ(runner::sweep_steps(s.rounds[0]).size(), 18u);
  EXPECT_NE(find_finding(s, "rw0-w16x16_littles_ratio"), nullptr);
}

}  // namespace
