// unit-tests/config/definition_test.cpp — the shipped tests-pts definitions load and hold the
// spec's matrices; broken definitions are rejected with every problem, each with file:line.
#include <gtest/gtest.h>

#include <string>

#include "config/definition.h"
#include "definition_fixtures.h"

namespace {

using namespace pts;

using test::kDir;

config::TestDefinition load(const std::string& name) {
  auto d = config::load_definition(kDir + name);
  EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().message());
  return d.ok() ? d.value() : config::TestDefinition{};
}

TEST(Definitions, ShippedDefinitionsLoad) {
  for (const char* f : {"iops.toml", "throughput.toml", "latency.toml", "_template.toml", "wsat.toml", "hir.toml",
                        "xsr.toml", "dirth.toml", "ecw.toml"}) {
    auto d = config::load_definition(kDir + f);
    EXPECT_TRUE(d.ok()) << f << ": " << (d.ok() ? "" : d.error().message());
  }
}

TEST(Definitions, IopsMatrixInSpecOrder) {
  auto d = load("iops.toml");
  EXPECT_EQ(d.id, "iops");
  EXPECT_EQ(d.rw_mix, (std::vector<uint32_t>{100, 95, 65, 50, 35, 5, 0}));
  EXPECT_EQ(d.block_sizes, (std::vector<uint32_t>{1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512}));
  EXPECT_EQ(d.pattern, model::AccessPattern::Random);
  EXPECT_EQ(d.cell_seconds, 60);
  EXPECT_EQ(d.window_rounds, 5u);
  EXPECT_EQ(d.max_rounds, 25u);
  EXPECT_EQ(d.wipc_capacity_multiple, 2);
  EXPECT_EQ(d.wipc_block_bytes, 131072u);
  ASSERT_EQ(d.subtests.size(), 1u);
  EXPECT_EQ(d.subtests[0].id, "main");
  // PTS-E 1.1: one Tracking Variable; PTS 2.0.2: three.
  EXPECT_EQ(d.editions.at("pts-e-1.1").at("enterprise").tracking.size(), 1u);
  const auto& e = d.editions.at("pts-2.0.2").at("enterprise");
  ASSERT_EQ(e.tracking.size(), 3u);
  EXPECT_EQ(e.tracking[1].read_pct, 65u);
  EXPECT_EQ(e.tracking[1].block_bytes, 65536u);
  EXPECT_EQ(e.threads, 4u);
  EXPECT_EQ(e.queue_depth, 32u);
  const auto& c = d.editions.at("pts-2.0.2").at("client");
  EXPECT_EQ(c.threads, 2u);
  EXPECT_EQ(c.queue_depth, 16u);
  EXPECT_EQ(c.active_range_pct, 75);
  EXPECT_TRUE(c.write_cache_enabled);
  EXPECT_FALSE(e.write_cache_enabled);
  EXPECT_EQ(d.editions.count("pts-e-1.1") && d.editions.at("pts-e-1.1").count("client"), 0u);
}

TEST(Definitions, ThroughputHasTwoSubTestsAndLatencyIsOio1) {
  auto tp = load("throughput.toml");
  ASSERT_EQ(tp.subtests.size(), 2u);
  EXPECT_EQ(tp.subtests[0].block_sizes, (std::vector<uint32_t>{1048576}));
  EXPECT_EQ(tp.subtests[1].block_sizes, (std::vector<uint32_t>{131072}));
  EXPECT_EQ(tp.wipc_block_bytes, 0u);  // the sub-test's block size
  EXPECT_EQ(tp.aliases, (std::vector<std::string>{"tp"}));
  auto lat = load("latency.toml");
  EXPECT_EQ(lat.rw_mix, (std::vector<uint32_t>{100, 65, 0}));
  EXPECT_EQ(lat.block_sizes, (std::vector<uint32_t>{8192, 4096, 512}));
  for (const auto& [e, classes] : lat.editions)
    for (const auto& [c, s] : classes) {
      EXPECT_EQ(s.threads * s.queue_depth, 1u) << e << " " << c;
      EXPECT_EQ(s.tc_qd_rule, config::TcQdRule::Required);
      EXPECT_EQ(s.tracking[0].metric, model::Metric::MeanLatencyNs);
    }
}

const char* kGood = R"(
[test]
id = "t"
title = "T"
[steady_state]
cell_seconds = 60
[preconditioning]
wipc_block_size = "128k"
[matrix]
pattern = "random"
rw_mix = [100, 0]
block_sizes = ["4k", "0.5k"]
[editions."pts-2.0.2".enterprise]
write_cache = false
active_range_pct = 100
threads = 1
queue_depth = 1
tc_qd = "required"
tracking = [ { rw = 0, bs = "4k", metric = "iops" } ]
)";

using test::replace;
using test::has;
using test::problems;

TEST(Definitions, MinimalDefinitionIsValid) { EXPECT_TRUE(problems(kGood).empty()); }

TEST(Definitions, TypoedKeyNamesFileLineAndSuggestion) {
  auto p = problems(replace(kGood, "threads = 1", "thraeds = 1"));
  EXPECT_TRUE(has(p, "x.toml:16: unknown key 'thraeds'")) << testing::PrintToString(p);
  EXPECT_TRUE(has(p, "did you mean 'threads'?")) << testing::PrintToString(p);
  EXPECT_TRUE(has(p, "needs 'threads'")) << testing::PrintToString(p);
}

TEST(Definitions, NegativeDurationIsRejected) {
  auto p = problems(replace(kGood, "cell_seconds = 60", "cell_seconds = -60"));
  ASSERT_EQ(p.size(), 1u) << testing::PrintToString(p);
  EXPECT_EQ(p[0], "x.toml:6: [steady_state] cell_seconds = -60 must be greater than 0 and at most 86400");
}

TEST(Definitions, PollBudgetIsAutoOrMicroseconds) {
  auto parse = [](const std::string& value) { return config::parse_definition(std::string(kGood) + "\n[engine]\npoll_budget_us = " + value + "\n", "x.toml"); };
  auto a = parse("\"auto\"");
  ASSERT_TRUE(a.ok()) << a.error().message();
  EXPECT_EQ(a.value().poll_budget_ns, model::kPollBudgetAuto);
  auto us = parse("250");
  ASSERT_TRUE(us.ok()) << us.error().message();
  EXPECT_EQ(us.value().poll_budget_ns, 250'000u);
  for (const char* bad : {"-1", "\"fast\"", "1.5", "100000000", "1e308", "-inf"}) {
    auto p = problems(std::string(kGood) + "\n[engine]\npoll_budget_us = " + bad + "\n");
    ASSERT_EQ(p.size(), 1u) << bad << ": " << testing::PrintToString(p);
    EXPECT_TRUE(has(p, "[engine] poll_budget_us must be \"auto\" or a whole number of microseconds")) << p[0];
    EXPECT_TRUE(p[0].rfind("x.toml:", 0) == 0) << p[0];
  }
}

TEST(Definitions, AFloatWhereAnIntegerBelongsIsRefusedNotConverted) {
  // 1e308 is past every integer type: converting it would be undefined (the fuzzer found it).
  for (const char* bad : {"1e308", "-1e308", "nan", "50.0"}) {
    auto p = problems(replace(kGood, "rw_mix = [100, 0]", std::string("rw_mix = [100, ") + bad + "]"));
    ASSERT_EQ(p.size(), 1u) << bad << ": " << testing::PrintToString(p);
    EXPECT_TRUE(has(p, "[matrix] rw_mix values are read percentages, integers 0")) << p[0];
  }
}

TEST(Definitions, EveryProblemIsReportedAtOnceInLineOrder) {
  std::string t = replace(kGood, "cell_seconds = 60", "cell_seconds = 0");
  t = replace(t, "\"0.5k\"", "\"0.3k\"");
  t = replace(t, "tc_qd = \"required\"", "tc_qd = \"mandatory\"");
  t = replace(t, "[test]", "[tset]");
  auto p = problems(t);
  ASSERT_GE(p.size(), 4u) << testing::PrintToString(p);
  EXPECT_TRUE(has(p, "x.toml:2: unknown key 'tset'"));
  EXPECT_TRUE(has(p, "x.toml:6: [steady_state] cell_seconds = 0"));
  EXPECT_TRUE(has(p, "x.toml:12: [matrix] block_sizes '0.3k' is not a block size"));
  EXPECT_TRUE(has(p, "x.toml:18: [editions.\"pts-2.0.2\".enterprise] tc_qd 'mandatory'"));
  for (size_t i = 1; i < p.size(); ++i) {
    auto line = [](const std::string& m) { return std::stoi(m.substr(7)); };
    EXPECT_LE(line(p[i - 1]), line(p[i]));
  }
}

TEST(Definitions, StructuralMistakes) {
  EXPECT_TRUE(has(problems(replace(kGood, "\"pts-2.0.2\"", "\"pts-2.0.3\"")), "unknown edition 'pts-2.0.3'"));
  EXPECT_TRUE(has(problems(replace(kGood, "enterprise]", "enterprize]")), "unknown class 'enterprize'"));
  EXPECT_TRUE(has(problems(replace(kGood, "rw = 0, bs = \"4k\"", "rw = 65, bs = \"4k\"")),
                  "x.toml:19: [editions.\"pts-2.0.2\".enterprise] tracking cell rw65-bs4096"));
  EXPECT_TRUE(has(problems(replace(kGood, "metric = \"iops\"", "metric = \"lops\"")), "tracking metric 'lops'"));
  EXPECT_TRUE(has(problems(replace(kGood, "rw_mix = [100, 0]", "rw_mix = [100, 101]")), "x.toml:11:"));
  EXPECT_TRUE(has(problems(replace(kGood, "\"4k\", \"0.5k\"", "\"4k\", \"1000\"")), "multiple of 512"));
  EXPECT_TRUE(has(problems(replace(kGood, "threads = 1", "threads = \"one\"")), "threads must be an integer"));
  EXPECT_TRUE(has(problems(replace(kGood, "pattern = \"random\"", "pattern = \"zigzag\"")), "pattern 'zigzag'"));
  EXPECT_TRUE(has(problems(replace(kGood, "cell_seconds = 60", "cell_seconds = 60\nmax_rounds = 3")),
                  "max_rounds 3 is shorter than window_rounds 5"));
  EXPECT_TRUE(has(problems(replace(kGood, "wipc_block_size = \"128k\"", "purge = true")),
                  "x.toml:7: [preconditioning] needs wipc_block_size"));
  EXPECT_TRUE(problems(replace(kGood, "wipc_block_size = \"128k\"", "wipc = false")).empty());
}

TEST(Definitions, SyntaxErrorNamesTheLine) {
  auto p = problems(replace(kGood, "threads = 1", "threads = "));
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].rfind("x.toml:16: TOML syntax:", 0), 0u) << p[0];
}

TEST(Definitions, MissingFileIsBadInput) {
  auto d = config::load_definition("/nonexistent/dir/x.toml");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().kind, core::ErrorKind::BadInput);
  EXPECT_NE(d.error().message().find("/nonexistent/dir/x.toml"), std::string::npos);
}

}  // namespace
