// unit-tests/config/advanced_test.cpp — the advanced tests' definitions (WSAT, HIR, XSR, DIRTH):
// they load with the spec's values, resolve into the sub-tests their procedures run, scale
// with --time-scale (a deviation), state their readings of unconfirmed details, compute their
// worst cases; and bad input (negative wait states, bs splits off 100 %, an ART ceiling ≤ 0,
// unknown workloads, ...) is one message per problem naming file:line or the option.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "config/definition.h"
#include "config/plan_resolver.h"
#include "config/run_options.h"
#include "config/definition_problems.h"

namespace {

using namespace pts;

const std::string kDir = std::string(PTS_SOURCE_DIR) + "/tests-pts/";

std::string text_of(const std::string& name) {
  std::ifstream in(kDir + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  auto pos = s.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  return pos == std::string::npos ? s : s.replace(pos, from.size(), to);
}

/// The line (1-based) of the first occurrence of `needle` in `text`.
int line_of(const std::string& text, const std::string& needle) {
  const auto pos = text.find(needle);
  EXPECT_NE(pos, std::string::npos) << needle;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(pos), '\n'));
}

using test::has;
using test::problems;

config::TestDefinition def(const std::string& name) {
  auto d = config::load_definition(kDir + name);
  EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().message());
  return d.ok() ? d.value() : config::TestDefinition{};
}

config::ResolvedPlan resolve(const std::string& name, const config::RunOptions& o = {},
                             const model::DeviceIdentity& id = config::nominal_identity()) {
  auto r = config::resolve_plan(def(name), o, id, model::EngineLimits{});
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
  return r.ok() ? r.value() : config::ResolvedPlan{};
}

std::vector<std::string> resolve_errors(const std::string& name, const config::RunOptions& o,
                                        const model::DeviceIdentity& id = config::nominal_identity()) {
  auto r = config::resolve_plan(def(name), o, id, model::EngineLimits{});
  EXPECT_FALSE(r.ok());
  return r.ok() ? std::vector<std::string>{} : r.error().messages;
}

bool has_deviation(const config::ResolvedPlan& r, const std::string& code) {
  return std::any_of(r.deviations.begin(), r.deviations.end(), [&](const auto& d) { return d.code == code; });
}

TEST(AdvancedDefinitions, LoadWithTheSpecValues) {
  const auto w = def("wsat.toml");
  EXPECT_EQ(w.procedure, "wsat");
  ASSERT_TRUE(w.advanced.wsat);
  EXPECT_EQ(w.advanced.wsat->max_hours, 24);
  EXPECT_EQ(w.advanced.wsat->capacity_multiple, 4);
  EXPECT_FALSE(w.wipc);
  EXPECT_EQ(w.advanced.workloads.size(), 5u);  // write-intensive + 2.0's four optional workloads
  const auto& comp = w.advanced.workloads.at("composite");
  uint32_t sum = 0;
  for (const auto& b : comp.bs_split) sum += b.percent;
  EXPECT_EQ(sum, 100u);
  const auto h = def("hir.toml");
  ASSERT_TRUE(h.advanced.hir);
  EXPECT_EQ(h.advanced.hir->wait_seconds, (std::vector<double>{5, 10, 15, 25, 50}));
  EXPECT_EQ(h.advanced.hir->repetitions, 360u);
  EXPECT_EQ(h.advanced.hir->access_a_seconds, 5);
  EXPECT_EQ(h.advanced.hir->access_c_seconds, 1800);
  const auto x = def("xsr.toml");
  ASSERT_TRUE(x.advanced.xsr);
  ASSERT_EQ(x.advanced.xsr->groups.size(), 3u);
  EXPECT_EQ(x.advanced.xsr->groups[1].hours, 6);
  const auto d = def("dirth.toml");
  ASSERT_TRUE(d.advanced.dirth);
  EXPECT_EQ(d.advanced.dirth->thread_counts, (std::vector<uint32_t>{32, 16, 8, 6, 4, 2, 1}));
  EXPECT_EQ(d.advanced.dirth->queue_depths, (std::vector<uint32_t>{32, 16, 8, 6, 4, 2, 1}));
  EXPECT_EQ(d.advanced.dirth->art_ceiling_ms, 5);
}

TEST(AdvancedPlans, HirSubTestsWorstCaseAndNoDeviations) {
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
    EXPECT_EQ(p.subtests[k + 1].role, model::role::kHirWaitState);
    EXPECT_FALSE(p.subtests[k + 1].purge);
  }
  EXPECT_TRUE(r.deviations.empty());
  EXPECT_GE(p.interpretations.size(), 3u);
  // 25 × 30 min preconditioning + Σ 360 × (5 + w) + 5 × 1800 s
  const double expect = 25 * 30 * 60 + 360.0 * (25 + 105) + 5 * 1800;
  EXPECT_DOUBLE_EQ(config::estimate_duration(p).rounds_seconds, expect);
}

TEST(AdvancedPlans, TimeScaleScalesEveryPhaseAndIsADeviation) {
  config::RunOptions o;
  o.time_scale = 0.001;
  auto r = resolve("hir.toml", o);
  ASSERT_TRUE(r.plan.hir);
  EXPECT_DOUBLE_EQ(r.plan.hir->access_a_seconds, 0.005);
  EXPECT_DOUBLE_EQ(r.plan.hir->wait_seconds.back(), 0.05);
  EXPECT_DOUBLE_EQ(r.plan.hir->spec_wait_seconds.back(), 50);
  EXPECT_DOUBLE_EQ(r.plan.hir->access_c_seconds, 1.8);
  EXPECT_EQ(r.plan.hir->repetitions, 360u);  // a count, not a length
  EXPECT_TRUE(has_deviation(r, "time-scale"));
  auto x = resolve("xsr.toml", o);
  EXPECT_DOUBLE_EQ(x.plan.xsr->groups[0].seconds, 28.8);
  auto d = resolve("dirth.toml", o);
  EXPECT_DOUBLE_EQ(d.plan.dirth->round_prewrite_seconds, 0.3);
  EXPECT_DOUBLE_EQ(d.plan.dirth->histogram_seconds, 0.6);
  auto w = resolve("wsat.toml", o);
  EXPECT_DOUBLE_EQ(w.plan.wsat->max_seconds, 86.4);
  // A steady-Rounds test has no phases: noted, not a deviation.
  auto iops = resolve("iops.toml", o);
  EXPECT_FALSE(has_deviation(iops, "time-scale"));
  EXPECT_TRUE(std::any_of(iops.notes.begin(), iops.notes.end(),
                          [](const std::string& n) { return n.find("--time-scale has no effect") != std::string::npos; }));
}

TEST(AdvancedPlans, DirthSweepCellsAndHistogramSubTests) {
  auto r = resolve("dirth.toml");
  const auto& p = r.plan;
  ASSERT_EQ(p.subtests.size(), 5u);
  const auto& sweep = p.subtests[1];
  EXPECT_EQ(sweep.role, model::role::kDirthSweep);
  ASSERT_EQ(sweep.cells.size(), 50u);
  EXPECT_EQ(sweep.cells[0].id, "prewrite");
  EXPECT_EQ(sweep.cells[0].spec.seconds, 300);
  EXPECT_EQ(sweep.cells[0].spec.read_pct, 0u);
  EXPECT_EQ(sweep.tracking.at(0).cell_id, "tc32-qd32");
  for (size_t k = 1; k < sweep.cells.size(); ++k) {
    const auto& c = sweep.cells[k];
    EXPECT_EQ(c.id, "tc" + std::to_string(c.spec.threads) + "-qd" + std::to_string(c.spec.queue_depth));
    EXPECT_EQ(c.spec.read_pct, 65u);
    EXPECT_EQ(c.spec.block_bytes, 8192u);
  }
  EXPECT_EQ(p.subtests[2].id, "histogram-max");
  EXPECT_EQ(p.subtests[4].role_index, 2u);
  EXPECT_EQ(p.subtests[0].cells[0].spec.threads, 32u);
  EXPECT_EQ(p.subtests[0].cells[0].spec.queue_depth, 32u);
  // PC 25 × 30 min; sweep 25 × (5 + 49) min; 3 × (60 + 10) min
  EXPECT_DOUBLE_EQ(config::estimate_duration(p).rounds_seconds, 25 * 1800.0 + 25 * 54 * 60.0 + 3 * 70 * 60.0);
}

TEST(AdvancedPlans, TcOuterSweepOrder) {
  auto text = replace(text_of("dirth.toml"), "sweep_order = \"toio-descending\"", "sweep_order = \"tc-outer\"");
  auto d = config::parse_definition(text, kDir + "dirth.toml");
  ASSERT_TRUE(d.ok()) << d.error().message();
  auto r = config::resolve_plan(*d, {}, config::nominal_identity(), model::EngineLimits{});
  ASSERT_TRUE(r.ok());
  const auto& cells = r->plan.subtests[1].cells;
  EXPECT_EQ(cells[1].id, "tc32-qd32");
  EXPECT_EQ(cells[7].id, "tc32-qd1");
  EXPECT_EQ(cells[8].id, "tc16-qd32");
  EXPECT_EQ(cells[49].id, "tc1-qd1");
}

TEST(AdvancedPlans, WorkloadChoiceAndWhatIsADeviation) {
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

TEST(AdvancedPlans, HalfKiBWorkloadOn4KnIsBadInput) {
  config::RunOptions o;
  o.workload = "metadata";
  auto e = resolve_errors("wsat.toml", o, config::nominal_identity(1ull << 40, 4096));
  ASSERT_FALSE(e.empty());
  EXPECT_NE(e[0].find("[workload.metadata] cannot run"), std::string::npos) << e[0];
  EXPECT_NE(e[0].find("wsat.toml:"), std::string::npos) << e[0];
}

TEST(AdvancedBadInput, NegativeWaitStateNamesTheKeyAndLine) {
  const auto t = replace(text_of("hir.toml"), "wait_seconds = [5, 10, 15, 25, 50]", "wait_seconds = [5, -10, 15]");
  auto p = problems(t);
  ASSERT_EQ(p.size(), 1u) << testing::PrintToString(p);
  EXPECT_EQ(p[0], "x.toml:" + std::to_string(line_of(t, "wait_seconds = [5, -10")) +
                      ": [hir] wait_seconds: -10 is not an idle time (seconds greater than 0, at most 86400)");
}

TEST(AdvancedBadInput, BsSplitNotSummingTo100) {
  const auto t = replace(text_of("wsat.toml"), "{ bs = \"64k\", pct = 3 }", "{ bs = \"64k\", pct = 1 }");
  auto p = problems(t);
  ASSERT_EQ(p.size(), 1u) << testing::PrintToString(p);
  EXPECT_EQ(p[0], "x.toml:" + std::to_string(line_of(t, "bs_split = [")) +
                      ": [workload.composite] bs_split shares sum to 98 %, not 100 %");
}

TEST(AdvancedBadInput, ArtCeilingAtOrBelowZero) {
  for (const char* v : {"0", "-5"}) {
    const auto t = replace(text_of("dirth.toml"), "art_ceiling_ms = 5", std::string("art_ceiling_ms = ") + v);
    auto p = problems(t);
    ASSERT_EQ(p.size(), 1u) << testing::PrintToString(p);
    EXPECT_EQ(p[0], "x.toml:" + std::to_string(line_of(t, "art_ceiling_ms")) + ": [dirth] art_ceiling_ms = " + v +
                        " must be greater than 0 and at most 60000");
  }
  config::RunOptions o;
  EXPECT_EQ(config::set_run_option(o, "--art-ceiling", "0"),
            "--art-ceiling: '0' is not an ART ceiling in ms (above 0, at most 60000)");
  EXPECT_NE(config::set_run_option(o, "--art-ceiling", "-1").find("--art-ceiling: '-1'"), std::string::npos);
  EXPECT_FALSE(o.art_ceiling_ms);
}

TEST(AdvancedBadInput, TimeScaleOutOfRange) {
  config::RunOptions o;
  for (const char* v : {"0", "-0.5", "1.5", "fast"})
    EXPECT_EQ(config::set_run_option(o, "--time-scale", v),
              std::string("--time-scale: '") + v + "' is not a scale factor above 0 and at most 1");
  EXPECT_EQ(config::set_run_option(o, "--time-scale", "0.01"), "");
  EXPECT_EQ(*o.time_scale, 0.01);
}

TEST(AdvancedBadInput, StructuralMistakesAllAtOnce) {
  std::string t = text_of("dirth.toml");
  t = replace(t, "precondition_workload = \"rnd8k-w\"", "precondition_workload = \"rnd4k-w\"");
  t = replace(t, "wipc = false", "wipc = true");
  t = replace(t, "thread_counts = [32, 16, 8, 6, 4, 2, 1]", "thread_counts = [32, 16, 16]");
  t = replace(t, "sweep_order = \"toio-descending\"", "sweep_order = \"random\"");
  t = replace(t, "tc_qd = \"recommended\"", "tc_qd = \"recommended\"\ntracking = []");
  auto p = problems(t);
  EXPECT_TRUE(has(p, "names workload 'rnd4k-w', which no [workload.rnd4k-w] defines")) << testing::PrintToString(p);
  EXPECT_TRUE(has(p, "[preconditioning] wipc: the dirth procedure has no WIPC"));
  EXPECT_TRUE(has(p, "thread_counts lists 16 twice"));
  EXPECT_TRUE(has(p, "sweep_order 'random' must be one of toio-descending, tc-outer"));
  EXPECT_TRUE(has(p, "tracking: this test's procedure chooses its Tracking Variables itself"));
  // Tables of another procedure, and advanced tables in a steady-Rounds test.
  EXPECT_TRUE(has(problems(text_of("wsat.toml") + "\n[hir]\nworkload = \"x\"\n"),
                  "[hir] does not apply: [test] procedure is \"wsat\""));
  EXPECT_TRUE(has(problems(text_of("iops.toml") + "\n[wsat]\nmax_hours = 1\n"), "[wsat] does not apply"));
  EXPECT_TRUE(has(problems(replace(text_of("xsr.toml"), "procedure = \"xsr\"", "procedure = \"cbw\"")),
                  "[test] procedure 'cbw' is not one of steady-rounds, wsat, hir, xsr, dirth"));
}

TEST(AdvancedPlans, EcwRunsTheDirthProcedureWithTheCompositeMix) {
  auto r = resolve("ecw.toml");
  const auto& p = r.plan;
  EXPECT_EQ(p.procedure, "dirth");
  ASSERT_EQ(p.subtests.size(), 5u);
  const auto& capture = p.subtests[2].cells.back().spec;
  EXPECT_EQ(capture.read_pct, 40u);
  ASSERT_EQ(capture.bs_split.size(), 12u);
  EXPECT_EQ(capture.bs_split[7].bytes, 4096u);
  EXPECT_EQ(capture.bs_split[7].percent, 67u);
  ASSERT_EQ(capture.zones.size(), 3u);
  EXPECT_EQ(model::zones_text(capture.zones), "50/5:30/15:20/80");
  const auto& pc = p.subtests[0].cells[0].spec;
  EXPECT_EQ(pc.read_pct, 0u);
  EXPECT_EQ(model::zones_text(pc.zones), "50/5:30/15:20/80");
  EXPECT_EQ(pc.block_bytes, 65536u);  // the largest of the split
  EXPECT_NE(p.subtests[1].cells[1].label.find("TC 32 / QD 32"), std::string::npos);
  // 0.5–3.5 KiB I/Os cannot run on a 4096-byte LBA format: refused, naming the workload.
  auto e = resolve_errors("ecw.toml", {}, config::nominal_identity(1ull << 40, 4096));
  ASSERT_FALSE(e.empty());
  EXPECT_NE(e[0].find("[workload.ecw"), std::string::npos) << e[0];
  // A target too small for zone A (5 %) to hold one 64 KiB block.
  e = resolve_errors("ecw.toml", {}, config::nominal_identity(1ull << 20, 512));
  EXPECT_TRUE(has(e, "zone 1 (50/5) covers")) << testing::PrintToString(e);
}

TEST(AdvancedBadInput, ZoneSharesNotSummingTo100) {
  const auto t = replace(text_of("ecw.toml"), "zones = \"50/5:30/15:20/80\"", "zones = \"50/5:30/15:10/80\"");
  auto p = problems(t);
  ASSERT_EQ(p.size(), 1u) << testing::PrintToString(p);
  EXPECT_EQ(p[0].rfind("x.toml:" + std::to_string(line_of(t, "zones = \"50/5:30/15:10")) +
                           ": [workload.ecw] zones '50/5:30/15:10/80': ", 0), 0u) << p[0];
  EXPECT_NE(p[0].find("sum to 90 %"), std::string::npos) << p[0];
}

TEST(AdvancedBadInput, XsrNeedsThreeGroups) {
  const auto t = replace(text_of("xsr.toml"), "  { id = \"ag3\", workload = \"seq1024k-w\", hours = 8 },\n", "");
  EXPECT_TRUE(has(problems(t), "[xsr] groups: XSR runs three Access Groups"));
}

}  // namespace

// A TC x QD grid point beyond what the target's engine supports is bad input naming the
// definition key (file:line), not a flag the operator never gave.
TEST(AdvancedPlan, GridBeyondEngineLimitsNamesTheDefinitionKey) {
  model::EngineLimits small;
  small.engine = "a small engine";
  small.max_queue_depth = 16;
  auto r = config::resolve_plan(def("dirth.toml"), {}, config::nominal_identity(), small);
  ASSERT_FALSE(r.ok());
  const auto& msgs = r.error().messages;
  const std::string key = ":" + std::to_string(line_of(text_of("dirth.toml"), "thread_counts =")) +
                          ": [dirth] thread_counts x queue_depths: point TC ";
  EXPECT_TRUE(has(msgs, key + "32 / QD 32 is larger than the target supports: QD 32: a small engine keeps at most 16"))
      << r.error().message();
  EXPECT_TRUE(has(msgs, key + "1 / QD 32 is larger")) << r.error().message();
  EXPECT_FALSE(has(msgs, key + "32 / QD 16 is larger")) << r.error().message();  // QD 16 fits
}
