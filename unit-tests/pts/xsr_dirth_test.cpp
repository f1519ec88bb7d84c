// unit-tests/pts/xsr_dirth_test.cpp — XSR and DIRTH on the fake engine in fake time. XSR: the
// three Access Groups for their durations, the group table (last sample, peaks) and the
// recovery time by the rule with no tolerance ("not recovered" when no sample reaches it). DIRTH:
// point selection on a known IOPS surface (checked against a brute-force oracle), the case
// with no point under the ceiling, the sweep order, and TC = threads / QD = depth per thread
// reaching the engine unswapped.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "shipped_plans.h"
#include "pts/dirth.h"
#include "pts/xsr.h"

namespace pts::testing {
namespace {

// ---------------------------------------------------------------- XSR

/// SEQ 1024 KiB writes at 1000 IOPS in group 1; group 3 (the same cell key, later
/// occurrences) starts at 500 and recovers by 100 IOPS per sample; RND 8 KiB at 5000.
double xsr_drive(const model::AccessSpec& s, uint32_t occ) {
  if (s.pattern == model::AccessPattern::Random) return 5000;
  return occ < 48 ? 1000 : std::min(1100.0, 500 + 100.0 * (occ - 48));
}

TEST(Xsr, RunsTheThreeGroupsForTheirTimeAndFindsTheRecovery) {
  Rig rig(xsr_drive);
  config::RunOptions o;
  o.time_scale = 0.1;  // 8 h / 6 h / 8 h -> 48 / 36 / 48 one-minute samples
  const auto plan = shipped_plan("xsr", o, rig.device.id);
  auto res = rig.start(temp_run_dir("xsr"), plan);
  ASSERT_FALSE(res.error) << res.error->message();
  EXPECT_EQ(rig.device.purge_calls, 1);
  const auto cells = cells_of(res.record, 0);
  ASSERT_EQ(cells.size(), 132u);
  for (size_t k = 0; k < cells.size(); ++k) {
    const char* want = k < 48 ? "ag1" : k < 84 ? "ag2" : "ag3";
    EXPECT_EQ(cells[k].cell_id, want) << k;
    EXPECT_EQ(cells[k].spec.block_bytes, k < 48 || k >= 84 ? 1048576u : 8192u);
    EXPECT_EQ(cells[k].spec.threads, 1u);
    EXPECT_EQ(cells[k].spec.queue_depth, 32u);
  }
  const auto& s = res.record.subtests[0];
  const double ag1 = 1000.0 * 1048576 / 1e6;
  EXPECT_NEAR(finding_value(s, "recovery_reference_mbps"), ag1, 1e-6);
  EXPECT_NEAR(finding_value(s, "ag1_last_mbps"), ag1, 1e-6);
  EXPECT_NEAR(finding_value(s, "ag2_last_mbps"), 5000.0 * 8192 / 1e6, 1e-6);
  EXPECT_NEAR(finding_value(s, "ag3_last_mbps"), 1100.0 * 1048576 / 1e6, 1e-6);  // its last sample
  EXPECT_EQ(finding_value(s, "ag3_samples"), 48);
  // Group 3's samples 1..5 run at 500..900 IOPS; sample 6 reaches 1000 (group 1's mean): the
  // recovery time runs to that sample's end.
  EXPECT_DOUBLE_EQ(finding_value(s, "recovery_minutes"), 6);
  EXPECT_DOUBLE_EQ(finding_value(s, "recovery_sample"), 6);
  EXPECT_NE(find_finding(s, "recovery_minutes")->detail.find("rule: "), std::string::npos);
}

// Group 1's FOB samples lift its mean above the steady rate group 3 returns to: by the rule (no
// tolerance) group 3 has not recovered, and the record says so (a finding about the drive).
TEST(Xsr, NoToleranceFobLiftedMeanIsNotRecovered) {
  Rig rig([](const model::AccessSpec& s, uint32_t occ) {
    if (s.pattern == model::AccessPattern::Random) return 5000.0;
    if (occ < 5) return 1200.0;  // FOB
    return occ < 48 ? 1000.0 : std::min(1000.0, 500 + 100.0 * (occ - 48));
  });
  config::RunOptions o;
  o.time_scale = 0.1;
  auto res = rig.start(temp_run_dir("xsr-fob"), shipped_plan("xsr", o, rig.device.id));
  ASSERT_FALSE(res.error);
  EXPECT_EQ(res.record.state, model::RunState::Complete);
  const auto& s = res.record.subtests[0];
  const double mean = (5 * 1200.0 + 43 * 1000.0) / 48 * 1048576 / 1e6;
  EXPECT_NEAR(finding_value(s, "recovery_reference_mbps"), mean, 1e-6);
  const auto* f = find_finding(s, "recovery_minutes");
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(f->value);  // 1000 IOPS < 1020.8: not recovered, however close
  EXPECT_EQ(f->detail.rfind("not recovered", 0), 0u) << f->detail;
  EXPECT_EQ(find_finding(s, "recovery_sample"), nullptr);
}

// The group table's peaks: the highest per-sample ART and MRT of each group.
TEST(Xsr, GroupTablePeaks) {
  model::XsrPlan x;
  x.groups = {{"ag1", 60, 60}, {"ag2", 60, 60}, {"ag3", 60, 60}};
  model::SubTestRecord rec;
  const char* ids[] = {"ag1", "ag1", "ag2", "ag3"};
  const double art[] = {1e6, 3e6, 2e6, 4e6};
  const uint64_t mrt[] = {9'000'000, 5'000'000, 7'000'000, 8'000'000};
  for (size_t k = 0; k < 4; ++k) {
    model::RoundRecord r;
    r.round = static_cast<uint32_t>(k + 1);
    model::CellResult c;
    c.cell_id = ids[k];
    c.mbps = 100.0 * (k + 1);
    c.seconds = 60;
    c.latency.mean_ns = art[k];
    c.latency.max_ns = mrt[k];
    r.cells.push_back(c);
    rec.rounds.push_back(r);
  }
  model::SubTestRecord out;
  out.findings = runner::xsr_findings(x, rec);
  EXPECT_DOUBLE_EQ(finding_value(out, "ag1_last_mbps"), 200);
  EXPECT_DOUBLE_EQ(finding_value(out, "ag1_peak_art_ms"), 3);
  EXPECT_DOUBLE_EQ(finding_value(out, "ag1_peak_mrt_ms"), 9);
  EXPECT_DOUBLE_EQ(finding_value(out, "ag3_peak_mrt_ms"), 8);
  EXPECT_DOUBLE_EQ(finding_value(out, "recovery_reference_mbps"), 150);
  EXPECT_DOUBLE_EQ(finding_value(out, "recovery_minutes"), 1);  // 400 >= 150 in group 3's first sample
}

TEST(Xsr, NeverRecoveredIsSaid) {
  Rig rig([](const model::AccessSpec& s, uint32_t occ) {
    return s.pattern == model::AccessPattern::Random ? 5000.0 : occ < 48 ? 1000.0 : 900.0;
  });
  config::RunOptions o;
  o.time_scale = 0.1;
  auto res = rig.start(temp_run_dir("xsr-never"), shipped_plan("xsr", o, rig.device.id));
  ASSERT_FALSE(res.error);
  const auto* f = find_finding(res.record.subtests[0], "recovery_minutes");
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(f->value);
  EXPECT_NE(f->detail.find("not recovered"), std::string::npos);
}

// ---------------------------------------------------------------- DIRTH

/// A known surface: IOPS saturate with total OIO (40000 × (1 − e^(−OIO/40))), a little more
/// with more threads; ART = OIO / IOPS (Little's law, as the fake engine reports it).
double surface(uint32_t tc, uint32_t qd) {
  const double toio = static_cast<double>(tc) * qd;
  return 40000 * (1 - std::exp(-toio / 40)) * (1 + tc / 1000.0);
}

double dirth_drive(const model::AccessSpec& s, uint32_t) {
  if (s.read_pct == 0) return 30000;  // preconditioning and pre-writes
  return surface(s.threads, s.queue_depth);
}

config::RunOptions scaled() {
  config::RunOptions o;
  o.time_scale = 0.01;
  return o;
}

TEST(Dirth, ChoosesMaxMidMinOnAKnownSurfaceAndRunsTheirHistograms) {
  Rig rig(dirth_drive);
  std::vector<model::AccessSpec> calls;
  rig.engine->on_run = [&](size_t, const model::AccessSpec& s) { calls.push_back(s); };
  const auto plan = shipped_plan("dirth", scaled(), rig.device.id);
  ASSERT_EQ(plan.subtests.size(), 5u);
  auto res = rig.start(temp_run_dir("dirth"), plan);
  ASSERT_FALSE(res.error) << res.error->message();
  // Oracle: brute force over the 7 × 7 grid with the ceiling 5 ms.
  const uint32_t grid[] = {32, 16, 8, 6, 4, 2, 1};
  uint32_t best_tc = 0, best_qd = 0;
  double best = -1;
  for (uint32_t tc : grid)
    for (uint32_t qd : grid) {
      const double iops = surface(tc, qd);
      if (tc * qd / iops * 1e3 <= 5.0 && iops > best) best = iops, best_tc = tc, best_qd = qd;
    }
  ASSERT_EQ(best_tc, 32u);  // 32 × 6 = 192 OIO: 4.7 ms; 256 OIO is over the ceiling
  ASSERT_EQ(best_qd, 6u);
  const auto& sweep = res.record.subtests[1];
  EXPECT_TRUE(sweep.steady_state_reached);
  EXPECT_EQ(finding_value(sweep, "max_tc"), best_tc);
  EXPECT_EQ(finding_value(sweep, "max_qd"), best_qd);
  EXPECT_NEAR(finding_value(sweep, "max_iops"), best, 1e-6);
  EXPECT_EQ(finding_value(sweep, "min_tc"), 1);
  EXPECT_EQ(finding_value(sweep, "min_qd"), 1);
  // Mid: under the ceiling, IOPS closest to (max + min) / 2, by brute force.
  const double target = (best + surface(1, 1)) / 2;
  double mid_d = 1e18;
  uint32_t mid_tc = 0, mid_qd = 0;
  for (uint32_t tc : grid)
    for (uint32_t qd : grid) {
      const double iops = surface(tc, qd);
      if (tc * qd / iops * 1e3 <= 5.0 && std::fabs(iops - target) < mid_d)
        mid_d = std::fabs(iops - target), mid_tc = tc, mid_qd = qd;
    }
  EXPECT_EQ(finding_value(sweep, "mid_tc"), mid_tc);
  EXPECT_EQ(finding_value(sweep, "mid_qd"), mid_qd);
  // The histogram runs reach the engine with TC as threads and QD as depth per thread.
  size_t captures = 0;
  for (const auto& c : calls)
    if (c.seconds == 6 && c.read_pct == 65) {  // 10 min × 0.01
      ++captures;
      const std::pair<uint32_t, uint32_t> got{c.threads, c.queue_depth};
      const std::pair<uint32_t, uint32_t> want = captures == 1   ? std::make_pair(best_tc, best_qd)
                                                 : captures == 2 ? std::make_pair(mid_tc, mid_qd)
                                                                 : std::make_pair(1u, 1u);
      EXPECT_EQ(got, want) << "capture " << captures;
    }
  EXPECT_EQ(captures, 3u);
  EXPECT_EQ(finding_value(res.record.subtests[2], "tc"), best_tc);
  EXPECT_EQ(finding_value(res.record.subtests[2], "qd"), best_qd);
  EXPECT_GT(finding_value(res.record.subtests[4], "p99_999_ms"), 0);
}

TEST(Dirth, SweepRunsEveryPointHighToLowDemandWithTcAsThreads) {
  Rig rig(dirth_drive);
  std::vector<model::AccessSpec> calls;
  rig.engine->on_run = [&](size_t, const model::AccessSpec& s) { calls.push_back(s); };
  auto res = rig.start(temp_run_dir("dirth-order"), shipped_plan("dirth", scaled(), rig.device.id));
  ASSERT_FALSE(res.error);
  const auto& round1 = res.record.subtests[1].rounds.at(0).cells;
  ASSERT_EQ(round1.size(), 50u);
  EXPECT_EQ(round1[0].cell_id, "prewrite");
  EXPECT_EQ(round1[0].spec.threads, 32u);
  EXPECT_EQ(round1[0].spec.seconds, 3);  // 5 min × 0.01
  std::set<std::pair<uint32_t, uint32_t>> seen;
  for (size_t k = 1; k < round1.size(); ++k) {
    const auto& s = round1[k].spec;
    EXPECT_EQ(round1[k].cell_id, "tc" + std::to_string(s.threads) + "-qd" + std::to_string(s.queue_depth));
    seen.insert({s.threads, s.queue_depth});
    if (k > 1) {
      const auto& p = round1[k - 1].spec;
      const uint64_t a = uint64_t{p.threads} * p.queue_depth, b = uint64_t{s.threads} * s.queue_depth;
      EXPECT_GE(a, b) << "point " << k;  // total OIO never rises
      if (a == b) {
        EXPECT_GT(p.threads, s.threads) << "ties: more threads first";
      }
    }
  }
  EXPECT_EQ(seen.size(), 49u);
  EXPECT_EQ(round1[1].spec.threads * round1[1].spec.queue_depth, 1024u);
  EXPECT_EQ(round1.back().spec.threads * round1.back().spec.queue_depth, 1u);
}

TEST(Dirth, NoPointUnderTheCeilingSkipsMaxAndMid) {
  Rig rig(dirth_drive);
  auto o = scaled();
  o.art_ceiling_ms = 0.5;  // every point's ART is at least 1 ms on this surface
  auto res = rig.start(temp_run_dir("dirth-none"), shipped_plan("dirth", o, rig.device.id));
  ASSERT_FALSE(res.error) << res.error->message();
  const auto& sweep = res.record.subtests[1];
  const auto* max = find_finding(sweep, "max_iops");
  ASSERT_NE(max, nullptr);
  EXPECT_FALSE(max->value);
  EXPECT_NE(max->detail.find("no TC × QD point has an ART at or under the 0.5 ms ceiling"), std::string::npos)
      << max->detail;
  EXPECT_FALSE(find_finding(sweep, "mid_iops")->value);
  EXPECT_TRUE(find_finding(sweep, "min_iops")->value);
  EXPECT_TRUE(res.record.subtests[2].rounds.empty());  // MaxIOPS histogram skipped
  EXPECT_TRUE(res.record.subtests[3].rounds.empty());  // MidIOPS histogram skipped
  EXPECT_TRUE(find_finding(res.record.subtests[2], "skipped"));
  EXPECT_EQ(res.record.subtests[4].rounds.size(), 1u);  // MinIOPS still measured
  for (const auto& s : res.record.subtests) EXPECT_TRUE(s.complete) << s.id;
}

TEST(Dirth, SelectionRules) {
  model::DirthPlan d;
  d.thread_counts = {2, 1};
  d.queue_depths = {2, 1};
  d.art_ceiling_ns = 2e6;
  std::vector<runner::DemandPoint> g = {
      {"tc2-qd2", 2, 2, 900, 3e6},  // highest IOPS, over the ceiling
      {"tc2-qd1", 2, 1, 700, 2e6},  // at the ceiling: counts
      {"tc1-qd2", 1, 2, 700, 1e6},  // same IOPS, same OIO, fewer threads: preferred
      {"tc1-qd1", 1, 1, 100, 0.5e6},
  };
  auto s = runner::select_demand_points(d, g);
  ASSERT_TRUE(s.max && s.min && s.mid);
  EXPECT_EQ(s.max->cell_id, "tc1-qd2");
  EXPECT_EQ(s.min->cell_id, "tc1-qd1");
  EXPECT_EQ(s.mid->cell_id, "tc1-qd1");  // |100 - 400| = 300 < |700 - 400|
  d.mid_rule = "closest-to-midpoint";
  g[0].iops = 450;  // over the ceiling, closest to (700 + 100) / 2
  s = runner::select_demand_points(d, g);
  EXPECT_EQ(s.mid->cell_id, "tc2-qd2");
}

}  // namespace
}  // namespace pts::testing
