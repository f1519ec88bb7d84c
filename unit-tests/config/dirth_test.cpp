// unit-tests/config/dirth_test.cpp — the dirth row, definition side (DIRTH and ECW, which runs
// it with the composite mix): the sweep over the TC × QD grid and the histogram sub-tests, the
// sweep order, the ART ceiling, the grid against the engine's limits, and bad input named by
// file:line.
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

TEST(DirthDefinition, ResolvesWithTheSpecValues) {
  const auto r = resolve("dirth.toml");
  const auto* d = r.plan.params<model::DirthPlan>();
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->thread_counts, (std::vector<uint32_t>{32, 16, 8, 6, 4, 2, 1}));
  EXPECT_EQ(d->queue_depths, (std::vector<uint32_t>{32, 16, 8, 6, 4, 2, 1}));
  EXPECT_EQ(d->art_ceiling_ns, 5e6);
}

TEST(DirthDefinition, SweepCellsAndHistogramSubTests) {
  auto r = resolve("dirth.toml");
  const auto& p = r.plan;
  ASSERT_EQ(p.subtests.size(), 5u);
  const auto& sweep = p.subtests[1];
  EXPECT_EQ(sweep.role, model::SubTestRole::DirthSweep);
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
  EXPECT_EQ(p.subtests[2].role, model::SubTestRole::DirthHistogram);
  EXPECT_EQ(p.subtests[4].role_index, 2u);
  EXPECT_EQ(p.subtests[0].cells[0].spec.threads, 32u);
  EXPECT_EQ(p.subtests[0].cells[0].spec.queue_depth, 32u);
  // The preconditioning tracks the first sample of each Round (the one implementation's n01).
  EXPECT_EQ(p.subtests[0].tracking.at(0).cell_id, "pc-01");
  // Each histogram's 60 min pre-write runs as 60 one-minute samples, then the 10 min capture.
  const auto& h = p.subtests[2].cells;
  ASSERT_EQ(h.size(), 61u);
  EXPECT_EQ(h[0].id, "prewrite-01");
  EXPECT_EQ(h[59].id, "prewrite-60");
  EXPECT_EQ(h[59].spec.seconds, 60);
  EXPECT_EQ(h[60].id, "capture");
  // PC 25 × 30 min; sweep 25 × (5 + 49) min; 3 × (60 + 10) min
  EXPECT_DOUBLE_EQ(config::estimate_duration(p).rounds_seconds, 25 * 1800.0 + 25 * 54 * 60.0 + 3 * 70 * 60.0);
}

TEST(DirthDefinition, TheLastSampleOfARoundCanBeTrackedInstead) {
  auto t = replace(text_of("dirth.toml"), "precondition_tracked_sample = \"first\"", "precondition_tracked_sample = \"last\"");
  auto d = config::parse_definition(t, kDir + "dirth.toml");
  ASSERT_TRUE(d.ok()) << d.error().message();
  auto r = config::resolve_plan(*d, {}, config::nominal_identity(), model::EngineLimits{});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->plan.subtests[0].tracking.at(0).cell_id, "pc-30");
  EXPECT_TRUE(has(problems(replace(text_of("dirth.toml"), "precondition_tracked_sample = \"first\"",
                                   "precondition_tracked_sample = \"middle\"")),
                  "precondition_tracked_sample 'middle' must be one of first, last"));
}

TEST(DirthDefinition, TimeScaleScalesThePhases) {
  config::RunOptions o;
  o.time_scale = 0.001;
  auto d = resolve("dirth.toml", o);
  EXPECT_DOUBLE_EQ(d.plan.params<model::DirthPlan>()->round_prewrite_seconds, 0.3);
  EXPECT_DOUBLE_EQ(d.plan.params<model::DirthPlan>()->histogram_seconds, 0.6);
  EXPECT_TRUE(has_deviation(d, "time-scale"));
}

TEST(DirthDefinition, AFloatInTheGridIsRefusedNotConverted) {
  // TableReader::counts: 1e308 is past every integer type; converting it would be undefined.
  for (const char* bad : {"1e308", "-1e308", "8.0"}) {
    const auto p = problems(replace(text_of("dirth.toml"), "queue_depths = [32, 16, 8, 6, 4, 2, 1]",
                                    std::string("queue_depths = [32, ") + bad + ", 1]"));
    EXPECT_TRUE(has(p, "queue_depths values must be integers from 1 to 65536")) << bad << ": " << testing::PrintToString(p);
  }
}

TEST(DirthDefinition, TcOuterSweepOrder) {
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

TEST(DirthDefinition, ArtCeilingAtOrBelowZero) {
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

TEST(DirthDefinition, StructuralMistakesAllAtOnce) {
  std::string t = text_of("dirth.toml");
  t = replace(t, "precondition_workload = \"rnd8k-w\"", "precondition_workload = \"rnd4k-w\"");
  t = replace(t, "purge = true", "purge = true\nwipc = true");
  t = replace(t, "thread_counts = [32, 16, 8, 6, 4, 2, 1]", "thread_counts = [32, 16, 16]");
  t = replace(t, "sweep_order = \"toio-descending\"", "sweep_order = \"random\"");
  t = replace(t, "tc_qd = \"recommended\"", "tc_qd = \"recommended\"\ntracking = []");
  auto p = problems(t);
  EXPECT_TRUE(has(p, "names workload 'rnd4k-w', which no [workload.rnd4k-w] defines")) << testing::PrintToString(p);
  EXPECT_TRUE(has(p, "[preconditioning] wipc: the dirth procedure does not read this key; remove it"));
  EXPECT_TRUE(has(p, "thread_counts lists 16 twice"));
  EXPECT_TRUE(has(p, "sweep_order 'random' must be one of toio-descending, tc-outer"));
  EXPECT_TRUE(has(p, "tracking: the dirth procedure does not read this key; remove it")) << testing::PrintToString(p);
}

TEST(DirthDefinition, EcwRunsTheDirthProcedureWithTheCompositeMix) {
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
  // A target too small for zone A (5 %) to hold one 64 KiB block.
  auto e = resolve_errors("ecw.toml", {}, config::nominal_identity(1ull << 20, 512));
  EXPECT_TRUE(has(e, "zone 1 (50/5) covers")) << testing::PrintToString(e);
}

// On a 4096-byte LBA format the 0.5–3.5 KiB I/Os (10 % of the mix) cannot be issued: they are
// left out, the other shares scaled by 100 / 90 and rounded by largest remainder (74.4, 11.1,
// 7.8, 3.3, 3.3 → 75, 11, 8, 3, 3), in every cell of both workloads, with one deviation each.
TEST(DirthDefinition, EcwOnA4096ByteLbaFormatLeavesOutTheSmallSizes) {
  auto r = resolve("ecw.toml", {}, config::nominal_identity(1ull << 40, 4096));
  const std::vector<std::pair<uint32_t, uint32_t>> want = {{4096, 75}, {8192, 11}, {16384, 8}, {32768, 3}, {65536, 3}};
  for (const auto& sub : r.plan.subtests)
    for (const auto& cell : sub.cells) {
      std::vector<std::pair<uint32_t, uint32_t>> got;
      for (const auto& b : cell.spec.bs_split) got.emplace_back(b.bytes, b.percent);
      EXPECT_EQ(got, want) << sub.id << " " << cell.id;
      EXPECT_TRUE(cell.applicable);
    }
  size_t n = 0;
  for (const auto& d : r.deviations)
    if (d.code == "bs-split-lba") {
      ++n;
      EXPECT_NE(d.text.find("0.5 KiB (4 %), 1 KiB (1 %)"), std::string::npos) << d.text;
      EXPECT_NE(d.text.find("10 % of the I/Os, are left out"), std::string::npos) << d.text;
      EXPECT_NE(d.text.find("× 100 / 90"), std::string::npos) << d.text;
      EXPECT_NE(d.text.find("4 KiB 67 → 75 %, 8 KiB 10 → 11 %, 16 KiB 7 → 8 %"), std::string::npos) << d.text;
    }
  EXPECT_EQ(n, 2u);  // the stimulus and the preconditioning workload
  EXPECT_NE(r.plan.subtests[1].title.find("5-size block mix"), std::string::npos) << r.plan.subtests[1].title;
  // On 512-byte sectors nothing is left out and nothing is recorded.
  auto full = resolve("ecw.toml");
  EXPECT_FALSE(has_deviation(full, "bs-split-lba"));
  EXPECT_EQ(full.plan.subtests[1].cells[1].spec.bs_split.size(), 12u);
}

// PTS 2.0.2 defines client settings (WCE, ActiveRange 75 %); PTS-E 1.1 is the enterprise edition.
TEST(DirthDefinition, ClientClassUnderPts202OnlyForDirthAndEcw) {
  for (const char* name : {"dirth.toml", "ecw.toml"}) {
    config::RunOptions o;
    o.pts_edition = "pts-2.0.2";
    o.device_class = "client";
    auto r = resolve(name, o);
    EXPECT_TRUE(r.plan.write_cache_enabled) << name;
    EXPECT_EQ(r.plan.active_range_pct, 75) << name;
    EXPECT_EQ(r.plan.subtests[1].cells[1].spec.active_range_pct, 75) << name;
    EXPECT_EQ(r.plan.subtests[1].cells.size(), 50u) << name;  // the same grid
    o.pts_edition = "pts-e-1.1";
    auto e = resolve_errors(name, o);
    EXPECT_TRUE(has(e, "PTS-E 1.1 is the enterprise edition; use --pts pts-2.0.2 for client settings"))
        << testing::PrintToString(e);
  }
}

TEST(DirthDefinition, ZoneSharesNotSummingTo100) {
  const auto t = replace(text_of("ecw.toml"), "zones = \"50/5:30/15:20/80\"", "zones = \"50/5:30/15:10/80\"");
  auto p = problems(t);
  ASSERT_EQ(p.size(), 1u) << testing::PrintToString(p);
  EXPECT_EQ(p[0].rfind("x.toml:" + std::to_string(line_of(t, "zones = \"50/5:30/15:10")) +
                           ": [workload.ecw] zones '50/5:30/15:10/80': ", 0), 0u) << p[0];
  EXPECT_NE(p[0].find("sum to 90 %"), std::string::npos) << p[0];
}

// A TC x QD grid point beyond what the target's engine supports is bad input naming the
// definition key (file:line), not a flag the operator never gave.
TEST(DirthDefinition, GridBeyondEngineLimitsNamesTheDefinitionKey) {
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

}  // namespace
