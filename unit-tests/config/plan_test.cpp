// unit-tests/config/plan_test.cpp — resolve_plan over the shipped definitions: cells in spec
// order with stable ids, Tracking Variables, WIPC bytes, class settings, every deviation,
// not-applicable cells on 4Kn targets, and refusals; plus the worst-case duration.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "config/definition.h"
#include "config/plan_resolver.h"
#include "config/run_options.h"
#include "definition_fixtures.h"

namespace {

using namespace pts;

using test::def;
using test::has_deviation;
using test::resolve;

TEST(ResolvePlan, OperatorSeedAndPurgeAcceptanceReachThePlan) {
  config::RunOptions o;
  ASSERT_EQ(config::set_run_option(o, "--seed", "42"), "");
  ASSERT_EQ(config::set_run_option(o, "--accept-purge-failure", ""), "");
  auto r = resolve("iops.toml", o);
  EXPECT_TRUE(r.plan.accept_purge_failure);
  ASSERT_FALSE(r.plan.subtests.empty());
  EXPECT_EQ(r.plan.subtests[0].wipc.seed, 42u);
  for (const auto& c : r.plan.subtests[0].cells) EXPECT_EQ(c.spec.seed, 42u) << c.id;
  auto plain = resolve("iops.toml", {});
  EXPECT_FALSE(plain.plan.accept_purge_failure);
  EXPECT_EQ(plain.plan.subtests[0].cells[0].spec.seed, 0u);
}

TEST(ResolvePlan, Iops202EnterpriseIsTheSpecMatrix) {
  auto r = resolve("iops.toml", {});
  const auto& p = r.plan;
  EXPECT_EQ(p.test_id, "iops");
  EXPECT_EQ(p.pts_edition, "pts-2.0.2");
  EXPECT_EQ(p.device_class, "enterprise");
  EXPECT_FALSE(p.write_cache_enabled);
  EXPECT_EQ(p.active_range_pct, 100);
  EXPECT_EQ(p.threads, 4u);
  EXPECT_EQ(p.queue_depth, 32u);
  EXPECT_EQ(p.cell_seconds, 60);
  EXPECT_EQ(p.window_rounds, 5u);
  EXPECT_EQ(p.max_rounds, 25u);
  EXPECT_DOUBLE_EQ(p.data_excursion_limit, 0.20);
  EXPECT_DOUBLE_EQ(p.slope_excursion_limit, 0.10);
  ASSERT_EQ(p.subtests.size(), 1u);
  const auto& s = p.subtests[0];
  ASSERT_EQ(s.cells.size(), 56u);
  EXPECT_EQ(s.cells.front().id, "rw100-bs1048576");
  EXPECT_EQ(s.cells[1].id, "rw100-bs131072");
  EXPECT_EQ(s.cells[8].id, "rw95-bs1048576");  // R/W mix outer, block size inner
  EXPECT_EQ(s.cells.back().id, "rw0-bs512");
  EXPECT_EQ(s.cells[20].label, "RND 16 KiB 65/35");
  for (const auto& c : s.cells) {
    EXPECT_TRUE(c.applicable);
    EXPECT_EQ(c.spec.pattern, model::AccessPattern::Random);
    EXPECT_EQ(c.spec.threads, 4u);
    EXPECT_EQ(c.spec.queue_depth, 32u);
    EXPECT_EQ(c.spec.seconds, 60);
  }
  ASSERT_EQ(s.tracking.size(), 3u);
  EXPECT_EQ(s.tracking[0].cell_id, "rw0-bs4096");
  EXPECT_EQ(s.tracking[1].cell_id, "rw65-bs65536");
  EXPECT_EQ(s.tracking[2].cell_id, "rw100-bs1048576");
  EXPECT_EQ(s.tracking[0].label, "RND 4 KiB 0/100 IOPS");
  EXPECT_EQ(s.wipc.pattern, model::AccessPattern::Sequential);
  EXPECT_EQ(s.wipc.read_pct, 0u);
  EXPECT_EQ(s.wipc.block_bytes, 131072u);
  EXPECT_EQ(s.wipc.bytes_limit, 2ull << 40);
  EXPECT_EQ(s.wipc.threads, 1u);  // WIPC's own TC/QD, not the test's TC 4 / QD 32
  EXPECT_EQ(s.wipc.queue_depth, 32u);
  EXPECT_TRUE(r.deviations.empty());
}

TEST(ResolvePlan, PtsE11TracksOneVariableAndRecordsTheTcQdChoice) {
  config::RunOptions o;
  o.pts_edition = "pts-e-1.1";
  auto r = resolve("iops.toml", o);
  ASSERT_EQ(r.plan.subtests[0].tracking.size(), 1u);
  EXPECT_EQ(r.plan.subtests[0].tracking[0].cell_id, "rw0-bs4096");
  EXPECT_TRUE(r.deviations.empty());
  ASSERT_EQ(r.notes.size(), 2u);
  EXPECT_NE(r.notes[0].find("leaves TC/QD to the operator: TC 4 / QD 32 (ptsuite default)"), std::string::npos);
  EXPECT_NE(r.notes[1].find("WIPC runs at its own TC 1 / QD 32 (definition default"), std::string::npos);
  o.threads = 8;  // the operator's choice: still no deviation
  auto r8 = resolve("iops.toml", o);
  EXPECT_TRUE(r8.deviations.empty());
  EXPECT_NE(r8.notes[0].find("TC 8 / QD 32 (operator's choice)"), std::string::npos);
}

TEST(ResolvePlan, ClientSettingsAndWipcRoundedToWholeBlocks) {
  config::RunOptions o;
  o.device_class = "client";
  auto id = config::nominal_identity(1000204886016ull);  // a "1 TB" drive
  auto r = resolve("iops.toml", o, id);
  EXPECT_TRUE(r.plan.write_cache_enabled);
  EXPECT_EQ(r.plan.active_range_pct, 75);
  EXPECT_EQ(r.plan.threads, 2u);
  EXPECT_EQ(r.plan.queue_depth, 16u);
  const uint64_t want = 2 * 1000204886016ull;  // 2 × user capacity, written over the 75 % ActiveRange
  const auto& w = r.plan.subtests[0].wipc;
  EXPECT_EQ(w.bytes_limit % 131072, 0u);
  EXPECT_LE(w.bytes_limit, want);
  EXPECT_GT(w.bytes_limit + 131072, want);
  EXPECT_EQ(w.active_range_pct, 75);
  EXPECT_EQ(r.plan.subtests[0].cells[0].spec.active_range_pct, 75);
  EXPECT_TRUE(r.deviations.empty());  // 2048 AR Segments run as the spec describes them
  EXPECT_EQ(r.plan.ar_segments.count, 2048u);
  EXPECT_EQ(r.plan.ar_segments.segment_bytes, 8ull << 20);  // 16 GiB / 2048
  EXPECT_EQ(r.plan.ar_amount_bytes, 16ull << 30);
  EXPECT_EQ(r.plan.ar_segment_starts_bytes.size(), 2048u);
  EXPECT_EQ(r.plan.subtests[0].cells[0].spec.ar_segments, r.plan.ar_segments);
  EXPECT_EQ(w.ar_segments.count, 0u);  // WIPC writes the whole ActiveRange
}

TEST(ResolvePlan, FourKnTargetMarksHalfKiBCellsNotApplicable) {
  auto r = resolve("iops.toml", {}, config::nominal_identity(1ull << 40, 4096));
  const auto& cells = r.plan.subtests[0].cells;
  int na = 0;
  for (const auto& c : cells) {
    if (c.spec.block_bytes == 512) {
      EXPECT_FALSE(c.applicable) << c.id;
      EXPECT_NE(c.not_applicable_reason.find("0.5 KiB is smaller than the target's 4096-byte LBA size"),
                std::string::npos);
      ++na;
    } else {
      EXPECT_TRUE(c.applicable) << c.id;
    }
  }
  EXPECT_EQ(na, 7);
  ASSERT_TRUE(has_deviation(r, "cells-not-applicable"));
  EXPECT_NE(r.deviations[0].text.find("7 cell(s)"), std::string::npos);
  EXPECT_EQ(config::estimate_duration(r.plan).subtests[0].applicable_cells, 49u);
}

TEST(ResolvePlan, TrackingCellThatCannotRunIsBadInput) {
  auto r = config::resolve_plan(def("iops.toml"), {}, config::nominal_identity(1ull << 40, 8192), model::EngineLimits{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::BadInput);
  EXPECT_NE(r.error().message().find("Tracking Variable RND 4 KiB 0/100 IOPS cannot be measured"), std::string::npos)
      << r.error().message();
}

TEST(ResolvePlan, OverridesAreDeviations) {
  config::RunOptions o;
  o.cell_seconds = 5;
  o.max_rounds = 10;
  o.active_range_pct = 50;
  o.threads = 1;
  o.purge = model::PurgeMethod::None;
  auto r = resolve("iops.toml", o);
  for (const char* code : {"cell-seconds", "max-rounds", "active-range", "tc-qd", "purge-none"})
    EXPECT_TRUE(has_deviation(r, code)) << code;
  EXPECT_EQ(r.plan.cell_seconds, 5);
  EXPECT_EQ(r.plan.spec_cell_seconds, 60);
  EXPECT_EQ(r.plan.max_rounds, 10u);
  EXPECT_EQ(r.plan.subtests[0].wipc.bytes_limit, 2ull << 40);  // 2 × 1 TiB, over the 50 % ActiveRange
  EXPECT_EQ(r.plan.subtests[0].wipc.active_range_pct, 50);
  EXPECT_FALSE(r.plan.subtests[0].purge);
  EXPECT_FALSE(r.plan.purge_auto);
  EXPECT_EQ(r.plan.subtests[0].cells[0].spec.seconds, 5);
}

TEST(ResolvePlan, LatencyTcQdIsRequired) {
  config::RunOptions o;
  auto r = resolve("latency.toml", o);
  EXPECT_EQ(r.plan.threads, 1u);
  EXPECT_EQ(r.plan.queue_depth, 1u);
  EXPECT_EQ(r.plan.subtests[0].cells.size(), 9u);
  EXPECT_EQ(r.plan.subtests[0].tracking[0].label, "RND 4 KiB 0/100 ART");
  EXPECT_EQ(r.plan.subtests[0].tracking[0].metric, model::Metric::MeanLatencyNs);
  o.queue_depth = 4;
  auto r4 = resolve("latency.toml", o);
  ASSERT_TRUE(has_deviation(r4, "tc-qd"));
  EXPECT_NE(r4.deviations[0].text.find("requires"), std::string::npos);
}

TEST(ResolvePlan, ThroughputSubTestsEachWithTheirOwnWipc) {
  auto r = resolve("throughput.toml", {});
  ASSERT_EQ(r.plan.subtests.size(), 2u);
  for (const auto& [i, bs] : {std::pair{0, 1048576u}, std::pair{1, 131072u}}) {
    const auto& s = r.plan.subtests[i];
    EXPECT_TRUE(s.purge);
    ASSERT_EQ(s.cells.size(), 2u);
    EXPECT_EQ(s.cells[0].id, "rw100-bs" + std::to_string(bs));
    EXPECT_EQ(s.cells[1].id, "rw0-bs" + std::to_string(bs));
    EXPECT_EQ(s.cells[0].spec.pattern, model::AccessPattern::Sequential);
    EXPECT_EQ(s.wipc.block_bytes, bs);
    EXPECT_EQ(s.wipc.bytes_limit, 2ull << 40);
    ASSERT_EQ(s.tracking.size(), 1u);
    EXPECT_EQ(s.tracking[0].cell_id, "rw0-bs" + std::to_string(bs));
    EXPECT_EQ(s.tracking[0].metric, model::Metric::Mbps);
  }
  EXPECT_EQ(r.plan.threads, 1u);
  EXPECT_EQ(r.plan.queue_depth, 32u);
  config::RunOptions c;
  c.device_class = "client";
  auto rc = resolve("throughput.toml", c);
  ASSERT_EQ(rc.plan.subtests.size(), 1u);
  EXPECT_EQ(rc.plan.subtests[0].id, "bs1024k");
}

TEST(ResolvePlan, RefusalsAreBadInputWithEveryProblem) {
  config::RunOptions o;
  o.pts_edition = "pts-e-1.1";
  o.device_class = "client";
  auto r = config::resolve_plan(def("iops.toml"), o, config::nominal_identity(), model::EngineLimits{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::BadInput);
  EXPECT_NE(r.error().message().find("PTS-E 1.1 is the enterprise edition"), std::string::npos);

  config::RunOptions m;
  m.max_rounds = 3;
  auto id = config::nominal_identity(0);
  auto r2 = config::resolve_plan(def("iops.toml"), m, id, model::EngineLimits{});
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(r2.error().messages.size(), 2u) << r2.error().message();  // max rounds AND capacity
}

TEST(ResolvePlan, FileTargetIsADeviation) {
  auto id = config::nominal_identity(1ull << 30);
  id.kind = model::TargetKind::File;
  auto r = resolve("latency.toml", {}, id);
  EXPECT_TRUE(has_deviation(r, "file-target"));
}

TEST(ResolvePlan, WorstCaseDuration) {
  auto r = resolve("iops.toml", {});
  auto d = config::estimate_duration(r.plan);
  EXPECT_DOUBLE_EQ(d.rounds_seconds, 56.0 * 60 * 25);  // 23 h 20 min
  EXPECT_EQ(d.subtests[0].wipc_bytes, 2ull << 40);
  EXPECT_DOUBLE_EQ(d.subtests[0].wipc_seconds, 2.0 * (1ull << 40) / 1e9);  // at the assumed 1000 MB/s
  EXPECT_DOUBLE_EQ(config::estimate_duration(r.plan, 2000).wipc_seconds, 2.0 * (1ull << 40) / 2e9);
  auto tp = config::estimate_duration(resolve("throughput.toml", {}).plan);
  EXPECT_DOUBLE_EQ(tp.rounds_seconds, 2 * (2.0 * 60 * 25));
  config::RunOptions o;
  o.continue_past_max = true;
  EXPECT_TRUE(config::estimate_duration(resolve("latency.toml", o).plan).unbounded);
}

TEST(ResolvePlan, WipcHasItsOwnTcQd) {
  config::RunOptions o;
  EXPECT_EQ(config::set_run_option(o, "--wipc-threads", "2"), "");
  EXPECT_EQ(config::set_run_option(o, "--wipc-oio", "64"), "");
  auto r = resolve("throughput.toml", o);
  for (const auto& s : r.plan.subtests) {
    EXPECT_EQ(s.wipc.threads, 2u);
    EXPECT_EQ(s.wipc.queue_depth, 64u);
    EXPECT_EQ(s.cells[0].spec.threads, 1u);  // the cells keep the test's TC/QD
    EXPECT_EQ(s.cells[0].spec.queue_depth, 32u);
  }
  EXPECT_EQ(r.plan.wipc_threads, 2u);
  EXPECT_FALSE(has_deviation(r, "tc-qd"));
  bool noted = false;
  for (const auto& n : r.notes) noted |= n.find("WIPC runs at its own TC 2 / QD 64 (operator's choice") != std::string::npos;
  EXPECT_TRUE(noted);
  config::RunOptions bad;
  EXPECT_EQ(config::set_run_option(bad, "--wipc-oio", "0"), "--wipc-oio: '0' is not a WIPC queue depth per thread (1…65536)");
  EXPECT_EQ(config::set_run_option(bad, "--wipc-threads", "0"), "--wipc-threads: '0' is not a WIPC thread count (1…1024)");
}

TEST(ResolvePlan, ClientSegmentsThatDoNotFitAreBadInputNamingTheKey) {
  config::RunOptions o;
  o.device_class = "client";
  // 75 % of 2 GiB cannot hold 2048 non-touching 1 MiB segments (IOPS' largest block).
  auto r = config::resolve_plan(def("iops.toml"), o, config::nominal_identity(2ull << 30), model::EngineLimits{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("iops.toml:63: active_range_segments 2048"), std::string::npos)
      << r.error().message();
  EXPECT_NE(r.error().message().find("do not fit the ActiveRange"), std::string::npos) << r.error().message();
  // An AR Amount below 2048 x the largest block cannot hold one block per segment.
  o.ar_amount_bytes = 1ull << 30;
  r = config::resolve_plan(def("iops.toml"), o, config::nominal_identity(), model::EngineLimits{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("the AR Amount must be at least 2.0 GiB"), std::string::npos) << r.error().message();
  // Latency's largest block is 8 KiB: a small amount fits a small target; the override is a deviation.
  o.ar_amount_bytes = 64ull << 20;
  auto lat = config::resolve_plan(def("latency.toml"), o, config::nominal_identity(1ull << 30), model::EngineLimits{});
  ASSERT_TRUE(lat.ok()) << lat.error().message();
  EXPECT_EQ(lat->plan.ar_segments.segment_bytes, 32768u);
  EXPECT_TRUE(has_deviation(*lat, "active-range-amount"));
  // --seed N selects another layout, reproducibly.
  config::RunOptions seeded = o;
  seeded.seed = 7;
  auto a = config::resolve_plan(def("latency.toml"), seeded, config::nominal_identity(1ull << 30), model::EngineLimits{});
  auto b = config::resolve_plan(def("latency.toml"), seeded, config::nominal_identity(1ull << 30), model::EngineLimits{});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->plan.ar_segment_starts_bytes, b->plan.ar_segment_starts_bytes);
  EXPECT_NE(a->plan.ar_segment_starts_bytes, lat->plan.ar_segment_starts_bytes);
}

}  // namespace
