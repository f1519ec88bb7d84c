// unit-tests/pts/wsat_test.cpp — the WSAT procedure on the fake engine in fake time: from FOB
// (one purge, no WIPC), samples back to back, the stop rules (4 × capacity, 24 h, whichever
// first; the optional steady state judged on Rounds of 31 samples, never on a flat FOB
// plateau), the cliff and plateau findings, and resume continuing the same sample count.
#include <gtest/gtest.h>

#include <cmath>

#include "shipped_plans.h"
#include "pts/wsat.h"

namespace pts::testing {
namespace {

/// FOB 20000 IOPS for 10 samples, then 5000 (a 4× cliff).
double fob_then_cliff(const model::AccessSpec& s, uint32_t occ) {
  (void)s;
  return occ < 10 ? 20000 : 5000;
}

constexpr uint64_t kBigDrive = 64ull << 30;  // 4 × 64 GiB takes ~200 samples of the script

TEST(Wsat, StopsAtFourTimesCapacityFromFobWithoutWipc) {
  Rig rig(fob_then_cliff);
  rig.device.id.capacity_bytes = kBigDrive;
  auto plan = shipped_plan("wsat", {}, rig.device.id);
  ASSERT_TRUE(plan.params<model::WsatPlan>());
  EXPECT_EQ(plan.params<model::WsatPlan>()->stop_bytes, 4 * kBigDrive);
  EXPECT_EQ(plan.params<model::WsatPlan>()->max_seconds, 86400);
  auto res = rig.start(temp_run_dir("wsat-cap"), plan);
  ASSERT_FALSE(res.error) << res.error->message();
  EXPECT_EQ(rig.device.purge_calls, 1);
  const auto cells = cells_of(res.record, 0);
  // Independently: bytes per sample from the script, first sample count reaching 4 GiB.
  uint64_t written = 0;
  size_t expect = 0;
  while (written < 4 * kBigDrive) written += static_cast<uint64_t>(fob_then_cliff({}, static_cast<uint32_t>(expect++)) * 60) * 4096;
  ASSERT_EQ(cells.size(), expect);
  EXPECT_EQ(rig.engine->calls.size(), expect);  // no WIPC, nothing else
  for (const auto& call : rig.engine->calls) {
    EXPECT_EQ(call.bytes_limit, 0u);
    EXPECT_EQ(call.read_pct, 0u);
    EXPECT_EQ(call.block_bytes, 4096u);
    EXPECT_EQ(call.pattern, model::AccessPattern::Random);
    EXPECT_EQ(call.seconds, 60);
  }
  const auto& s = res.record.subtests[0];
  ASSERT_NE(find_finding(s, "stop"), nullptr);
  EXPECT_NE(find_finding(s, "stop")->detail.find("4 × user capacity written"), std::string::npos);
  EXPECT_EQ(finding_value(s, "cliff_sample"), 11);
  EXPECT_DOUBLE_EQ(finding_value(s, "fob_plateau_iops"), 20000);
  EXPECT_DOUBLE_EQ(finding_value(s, "steady_plateau_iops"), 5000);
  EXPECT_DOUBLE_EQ(finding_value(s, "fob_to_steady_ratio"), 4);
  EXPECT_DOUBLE_EQ(finding_value(s, "cliff_minutes"), 10);
}

TEST(Wsat, StopsAt24HoursWhenTheCapacityIsNotReached) {
  Rig rig([](const model::AccessSpec&, uint32_t) { return 10.0; });  // 2.4 MB per 60 s sample
  auto plan = shipped_plan("wsat", {}, rig.device.id);
  auto res = rig.start(temp_run_dir("wsat-time"), plan);
  ASSERT_FALSE(res.error) << res.error->message();
  EXPECT_EQ(cells_of(res.record, 0).size(), 1440u);  // 24 h of 1-minute samples
  const auto& s = res.record.subtests[0];
  EXPECT_NE(find_finding(s, "stop")->detail.find("time limit"), std::string::npos);
  EXPECT_FALSE(find_finding(s, "cliff_sample")->value);  // flat: no cliff
}

TEST(Wsat, WhicheverComesFirst) {
  model::WsatPlan w;
  w.max_seconds = 600;
  w.stop_bytes = 1000;
  w.capacity_multiple = 4;
  EXPECT_EQ(runner::wsat_stop_reason(w, 0, 0, 0, false), "");
  EXPECT_EQ(runner::wsat_stop_reason(w, 3, 999, 599, false), "");
  EXPECT_NE(runner::wsat_stop_reason(w, 3, 1000, 10, false).find("capacity"), std::string::npos);
  EXPECT_NE(runner::wsat_stop_reason(w, 3, 10, 600, false).find("time limit"), std::string::npos);
  EXPECT_NE(runner::wsat_stop_reason(w, 3, 1000, 600, false).find("capacity"), std::string::npos);
  EXPECT_EQ(runner::wsat_stop_reason(w, 3, 10, 10, true), "");  // steady counts only when asked
  w.stop_at_steady = true;
  EXPECT_NE(runner::wsat_stop_reason(w, 3, 10, 10, true).find("steady"), std::string::npos);
}

TEST(Wsat, TimeScaleShortensTheTimeLimitAndIsADeviation) {
  Rig rig([](const model::AccessSpec&, uint32_t) { return 10.0; });
  config::RunOptions o;
  o.time_scale = 0.01;  // 24 h -> 864 s
  auto plan = shipped_plan("wsat", o, rig.device.id);
  ASSERT_TRUE(plan.params<model::WsatPlan>());
  EXPECT_DOUBLE_EQ(plan.params<model::WsatPlan>()->max_seconds, 864);
  EXPECT_DOUBLE_EQ(plan.params<model::WsatPlan>()->spec_max_seconds, 86400);
  auto res = rig.start(temp_run_dir("wsat-scale"), plan);
  ASSERT_FALSE(res.error);
  EXPECT_EQ(cells_of(res.record, 0).size(), 15u);  // ceil(864 / 60)
}

TEST(Wsat, ResumeAfterAStopContinuesTheSameSamples) {
  Rig rig(fob_then_cliff);
  rig.device.id.capacity_bytes = kBigDrive;
  auto plan = shipped_plan("wsat", {}, rig.device.id);
  rig.engine->on_run = [&](size_t call, const model::AccessSpec&) {
    if (call == 6) rig.stop = true;  // Ctrl-C during sample 7: it completes, then the run stops
  };
  auto dir = temp_run_dir("wsat-resume");
  auto first = rig.start(dir, plan);
  ASSERT_FALSE(first.error);
  EXPECT_EQ(first.record.state, model::RunState::Interrupted);
  EXPECT_EQ(cells_of(first.record, 0).size(), 7u);
  rig.stop = false;
  rig.engine->on_run = nullptr;
  rig.engine->occurrences.clear();  // resume() numbers occurrences from the journal
  auto second = rig.resume(dir);
  ASSERT_FALSE(second.error) << second.error->message();
  EXPECT_EQ(second.record.state, model::RunState::Complete);
  Rig fresh(fob_then_cliff);
  fresh.device.id = rig.device.id;
  auto whole = fresh.start(temp_run_dir("wsat-whole"), plan);
  EXPECT_EQ(cells_of(second.record, 0).size(), cells_of(whole.record, 0).size());
  EXPECT_EQ(rig.device.purge_calls, 1);  // not purged again on resume
  EXPECT_DOUBLE_EQ(finding_value(second.record.subtests[0], "cliff_sample"), 11);
}

TEST(Wsat, FindingsOnAKnownSeries) {
  model::WsatPlan w;
  w.fob_samples = 2;
  w.cliff_fraction = 0.5;
  w.plateau_samples = 3;
  w.stop_bytes = 1;
  std::vector<model::CellResult> s(8);
  const double iops[] = {100, 100, 90, 60, 40, 30, 30, 30};
  for (size_t k = 0; k < s.size(); ++k) {
    s[k].iops = iops[k];
    s[k].seconds = 60;
    s[k].write_bytes = 1000;
    s[k].latency.mean_ns = 1e6 * (k + 1);
    s[k].latency.max_ns = 10'000'000 * (k + 1);
  }
  auto f = runner::wsat_findings(w, s, 4000, "test");
  model::SubTestRecord rec;
  rec.findings = f;
  EXPECT_DOUBLE_EQ(finding_value(rec, "fob_plateau_iops"), 100);
  EXPECT_DOUBLE_EQ(finding_value(rec, "cliff_sample"), 5);      // 40 < 50
  EXPECT_DOUBLE_EQ(finding_value(rec, "cliff_minutes"), 4);     // 4 samples before it
  EXPECT_DOUBLE_EQ(finding_value(rec, "cliff_drive_fills"), 1); // 4000 bytes of 4000
  EXPECT_DOUBLE_EQ(finding_value(rec, "steady_plateau_iops"), 30);
  EXPECT_DOUBLE_EQ(finding_value(rec, "steady_plateau_art_ms"), 7);  // samples 6-8: 6, 7, 8 ms
  EXPECT_DOUBLE_EQ(finding_value(rec, "steady_plateau_mrt_ms"), 80);
  EXPECT_DOUBLE_EQ(finding_value(rec, "tgbw_gib"), 8000 / 1073741824.0);  // GiB, as the spec and peers
}

/// The shipped plan with the steady-state option on, as the resolver makes it (a Tracking
/// Variable on the sample cell).
model::TestPlan with_steady_stop(const model::DeviceIdentity& id) {
  auto plan = shipped_plan("wsat", {}, id);
  EXPECT_TRUE(plan.subtests.at(0).tracking.empty());  // off by default: nothing to judge
  plan.params<model::WsatPlan>()->stop_at_steady = true;
  plan.subtests[0].tracking.push_back({"wsat", model::Metric::Iops, "RND 4 KiB W IOPS (last of each Round of 31)"});
  return plan;
}

/// A flat FOB plateau of 100 samples, then a flat steady plateau 4× below.
double long_fob(const model::AccessSpec&, uint32_t occ) { return occ < 100 ? 20000 : 5000; }

TEST(Wsat, SteadyStopJudgesRoundsOf31NotTheFobPlateau) {
  Rig rig(long_fob);
  rig.device.id.capacity_bytes = 1ull << 40;  // 4 × 1 TiB: far beyond the 248 samples' 0.67 TB
  auto res = rig.start(temp_run_dir("wsat-ss"), with_steady_stop(rig.device.id));
  ASSERT_FALSE(res.error) << res.error->message();
  const auto cells = cells_of(res.record, 0);
  // Tracked samples 31, 62, 93 (FOB), 124, 155, ... (steady): the first window of 5 Rounds
  // holding only the steady plateau ends at Round 8, sample 248. Five one-minute samples of
  // the FOB plateau would have "reached steady state" at sample 5.
  EXPECT_EQ(cells.size(), 248u);
  const auto& s = res.record.subtests[0];
  EXPECT_TRUE(s.steady_state_reached);
  ASSERT_TRUE(s.final_verdict);
  EXPECT_EQ(s.final_verdict->round, 8u);
  EXPECT_EQ(s.final_verdict->variables.at(0).window.first_round, 4u);
  EXPECT_EQ(s.window_first_round, 124u);
  EXPECT_EQ(s.window_last_round, 248u);
  EXPECT_NE(find_finding(s, "stop")->detail.find("steady state"), std::string::npos);
  EXPECT_DOUBLE_EQ(finding_value(s, "ss_window_iops"), 5000);
  for (const auto& r : s.rounds) EXPECT_EQ(r.verdict.has_value(), r.round % 31 == 0 && r.round >= 155) << r.round;
}

TEST(Wsat, SteadyStopVerdictOnAKnownSeries) {
  Rig rig(long_fob);
  const auto plan = with_steady_stop(rig.device.id);
  std::vector<model::CellResult> s(31 * 5);
  for (size_t k = 0; k < s.size(); ++k) s[k].iops = k < 62 ? 1000 : 900;  // Rounds 1-2 at 1000, 3-5 at 900
  EXPECT_FALSE(runner::wsat_interval_verdict(plan, plan.subtests[0], s, 4));  // before Round 5
  auto v = runner::wsat_interval_verdict(plan, plan.subtests[0], s, 5);
  ASSERT_TRUE(v);
  const auto& a = v->variables.at(0).window;
  EXPECT_EQ(a.values, (std::vector<double>{1000, 1000, 900, 900, 900}));  // samples 31, 62, 93, 124, 155
  EXPECT_DOUBLE_EQ(a.data_excursion, 100);
  EXPECT_DOUBLE_EQ(a.slope, -30);  // least squares over Rounds 1-5
  EXPECT_FALSE(v->steady);         // slope excursion 120 > 10 % of 940
  s[92].iops = s[123].iops = s[154].iops = 1000;
  EXPECT_TRUE(runner::wsat_interval_verdict(plan, plan.subtests[0], s, 5)->steady);
}

TEST(Wsat, WithoutTheOptionNoVerdictIsRecorded) {
  Rig rig(fob_then_cliff);
  rig.device.id.capacity_bytes = 4ull << 30;
  auto res = rig.start(temp_run_dir("wsat-off"), shipped_plan("wsat", {}, rig.device.id));
  ASSERT_FALSE(res.error);
  const auto& s = res.record.subtests[0];
  EXPECT_FALSE(s.final_verdict);
  EXPECT_FALSE(s.steady_state_reached);
  EXPECT_EQ(s.window_last_round, 0u);
  for (const auto& r : s.rounds) EXPECT_FALSE(r.verdict) << r.round;
  EXPECT_EQ(find_finding(s, "ss_window_iops"), nullptr);
}

}  // namespace
}  // namespace pts::testing
