// unit-tests/config/inputs_test.cpp — run option parsing, the analyze series CSV reader and
// finding definitions by CLI id.
#include <gtest/gtest.h>

#include <cstdlib>

#include "config/catalog.h"
#include "config/run_options.h"
#include "config/series_csv.h"

namespace {

using namespace pts;

TEST(RunOptions, ParsesEveryFlag) {
  config::RunOptions o;
  EXPECT_EQ(config::set_run_option(o, "--pts", "pts-e-1.1"), "");
  EXPECT_EQ(config::set_run_option(o, "--class", "client"), "");
  EXPECT_EQ(config::set_run_option(o, "--cell-seconds", "0.5"), "");
  EXPECT_EQ(config::set_run_option(o, "--max-rounds", "30"), "");
  EXPECT_EQ(config::set_run_option(o, "--continue-past-max", ""), "");
  EXPECT_EQ(config::set_run_option(o, "--threads", "8"), "");
  EXPECT_EQ(config::set_run_option(o, "--oio", "64"), "");
  EXPECT_EQ(config::set_run_option(o, "--active-range", "75"), "");
  EXPECT_EQ(config::set_run_option(o, "--purge", "format-user"), "");
  EXPECT_EQ(config::set_run_option(o, "--seed", "42"), "");
  EXPECT_EQ(o.pts_edition, "pts-e-1.1");
  EXPECT_EQ(o.device_class, "client");
  EXPECT_EQ(*o.cell_seconds, 0.5);
  EXPECT_EQ(*o.max_rounds, 30u);
  EXPECT_TRUE(o.continue_past_max);
  EXPECT_EQ(*o.threads, 8u);
  EXPECT_EQ(*o.queue_depth, 64u);
  EXPECT_EQ(*o.active_range_pct, 75);
  EXPECT_EQ(*o.purge, model::PurgeMethod::FormatUser);
  EXPECT_EQ(*o.seed, 42u);
  EXPECT_EQ(config::set_run_option(o, "--purge", "auto"), "");
  EXPECT_FALSE(o.purge.has_value());
}

TEST(RunOptions, BadValuesNameTheFlag) {
  config::RunOptions o;
  EXPECT_EQ(config::set_run_option(o, "--cell-seconds", "-5"),
            "--cell-seconds: '-5' is not a positive number of seconds (at most 86400)");
  EXPECT_NE(config::set_run_option(o, "--pts", "pts-3").find("--pts: 'pts-3'"), std::string::npos);
  EXPECT_NE(config::set_run_option(o, "--threads", "0").find("--threads"), std::string::npos);
  EXPECT_NE(config::set_run_option(o, "--oio", "4x").find("--oio"), std::string::npos);
  EXPECT_NE(config::set_run_option(o, "--active-range", "101").find("--active-range"), std::string::npos);
  EXPECT_NE(config::set_run_option(o, "--active-range", "nan").find("--active-range"), std::string::npos);
  EXPECT_NE(config::set_run_option(o, "--purge", "shred").find("--purge"), std::string::npos);
  EXPECT_NE(config::set_run_option(o, "--max-rounds", "-1").find("--max-rounds"), std::string::npos);
  EXPECT_FALSE(o.cell_seconds.has_value());
  bool v = true;
  EXPECT_TRUE(config::is_run_option("--continue-past-max", &v));
  EXPECT_FALSE(v);
  EXPECT_TRUE(config::is_run_option("--oio", &v));
  EXPECT_TRUE(v);
  EXPECT_FALSE(config::is_run_option("--out"));
}

TEST(SeriesCsv, OneValuePerLine) {
  auto v = config::parse_series_csv("# IOPS per round\n1000\n 1000.5 \n\n1e3\r\n-2\n", "s.csv");
  ASSERT_TRUE(v.ok()) << v.error().message();
  EXPECT_EQ(*v, (std::vector<double>{1000, 1000.5, 1000, -2}));
}

TEST(SeriesCsv, HeaderWithValueColumn) {
  auto v = config::parse_series_csv("round,Value,note\n1,11880,a\n2,\"11592.8\",b\n", "s.csv");
  ASSERT_TRUE(v.ok()) << v.error().message();
  EXPECT_EQ(*v, (std::vector<double>{11880, 11592.8}));
}

TEST(SeriesCsv, TextInAValueNamesFileAndLineForEveryBadLine) {
  auto v = config::parse_series_csv("1000\n1000\nabc\n1000\n12,5\ninf\n", "s.csv");
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.error().kind, core::ErrorKind::BadInput);
  ASSERT_EQ(v.error().messages.size(), 3u) << v.error().message();
  EXPECT_EQ(v.error().messages[0], "s.csv:3: 'abc' is not a number");
  EXPECT_EQ(v.error().messages[1].rfind("s.csv:5: 2 field(s)", 0), 0u);
  EXPECT_EQ(v.error().messages[2], "s.csv:6: 'inf' is not a number");
}

TEST(SeriesCsv, HeaderWithoutValueColumnOrNoValues) {
  auto a = config::parse_series_csv("round,iops\n1,2\n", "s.csv");
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.error().message().find("s.csv:1: the header row has no column named 'value'"), std::string::npos);
  auto b = config::parse_series_csv("value\n", "s.csv");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error().message(), "s.csv: no values");
  auto c = config::parse_series_csv("iops\n1\n", "s.csv");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message().find("s.csv:1: 'iops' is not a number"), std::string::npos);
}

TEST(Catalog, FindsDefinitionsByIdAndAlias) {
  setenv("PTSUITE_TESTS_DIR", PTS_SOURCE_DIR "/tests-pts", 1);
  for (const auto& [name, id] : {std::pair{"iops", "iops"}, {"tp", "throughput"}, {"throughput", "throughput"},
                                 {"lat", "latency"}, {"LATENCY", "latency"}, {"wsat", "wsat"}, {"HIR", "hir"},
                                 {"xsr", "xsr"}, {"dirth", "dirth"}, {"ecw", "ecw"}, {"cbw", "ecw"}}) {
    auto d = config::find_definition(name);
    ASSERT_TRUE(d.ok()) << name << ": " << d.error().message();
    EXPECT_EQ(d->id, id);
  }
  auto bad = config::find_definition("isw");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, core::ErrorKind::BadInput);
  for (const char* part : {"unknown test 'isw' (known: ", " dirth ecw/cbw hir ", " iops latency/lat ", " throughput/tp wsat xsr)"})
    EXPECT_NE(bad.error().message().find(part), std::string::npos) << bad.error().message();
  auto all = config::load_all_definitions(PTS_SOURCE_DIR "/tests-pts");
  ASSERT_TRUE(all.ok());
  // The eight PTS tests, 27 review-lab workloads (curves, sweeps) and the three quality-of-service
  // tests (pressure, neighbour); _template.toml is not a test.
  EXPECT_EQ(all->size(), 8u + 27u + 3u);
  auto dir = config::find_tests_dir();
  ASSERT_TRUE(dir.ok());
  unsetenv("PTSUITE_TESTS_DIR");
}

}  // namespace
