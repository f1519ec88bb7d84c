// unit-tests/config/requirements_test.cpp — requirement sheets: a good sheet reads into points
// and requirements with their lines; every problem at once as file:line (unknown keys, a point
// no requirement names, both or neither limit, an unknown test, an undefined point, a figure
// the caller's check refuses); the
// shipped sheets of tests-pts/requirements/ read cleanly.
#include <gtest/gtest.h>

#include <filesystem>

#include "config/requirements.h"

namespace pts::config {
namespace {

/// A figure check standing in for the report's vocabulary: "nope" is not a figure.
std::optional<std::string> figures(const std::string& f) {
  if (f == "nope") return std::string("is not one ptsuite records");
  return std::nullopt;
}

constexpr const char* kGood = R"(# a sheet
[sheet]
title = "T"
source = "S"

[points.rnd-4k-write]
test = "iops"
block_size = "4k"
read_pct = 0

[points.qd1-read]
test = "lat"
block_size = "4k"
read_pct = 100
threads = 1
queue_depth = 1

[[requirement]]
id = "P-1"
at = "rnd-4k-write"
figure = "iops"
min = 1000

[[requirement]]
id = "L-1"
at = "qd1-read"
figure = "read_p99_99_ms"
max = 0.5
)";

TEST(Requirements, ReadsPointsAndRequirementsWithTheirLines) {
  auto s = parse_requirement_sheet(kGood, "good.toml", figures);
  ASSERT_TRUE(s.ok()) << s.error().message();
  EXPECT_EQ(s->title, "T");
  ASSERT_EQ(s->points.size(), 2u);
  const auto& w = s->points[0].name == "rnd-4k-write" ? s->points[0] : s->points[1];
  const auto& l = s->points[0].name == "qd1-read" ? s->points[0] : s->points[1];
  EXPECT_EQ(w.test, "iops");
  EXPECT_EQ(*w.block_bytes, 4096u);
  EXPECT_EQ(*w.read_pct, 0u);
  EXPECT_EQ(l.test, "latency");  // the alias "lat" is stored as the id run.json holds
  EXPECT_EQ(*l.threads, 1u);
  ASSERT_EQ(s->requirements.size(), 2u);
  EXPECT_EQ(s->requirements[0].kind, model::LimitKind::Floor);
  EXPECT_DOUBLE_EQ(s->requirements[0].limit, 1000);
  EXPECT_EQ(s->requirements[0].source_line, 18);
  EXPECT_EQ(s->requirements[1].kind, model::LimitKind::Ceiling);
  EXPECT_EQ(s->requirements[1].figure, "read_p99_99_ms");
}

TEST(Requirements, EveryProblemAtOnceWithItsLine) {
  const char* bad = R"([sheet]
title = "T"
colour = "red"

[points.a]
test = "iops"
read_pct = 0
depth = 4

[points.unused]
test = "nosuchtest"
read_pct = 100

[[requirement]]
id = "X"
at = "a"
figure = "iops"
min = 1
max = 2

[[requirement]]
id = "Y"
at = "b"
figure = "nope"
)";
  auto s = parse_requirement_sheet(bad, "bad.toml", figures);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, core::ErrorKind::BadInput);
  const std::string all = s.error().message();
  EXPECT_NE(all.find("bad.toml:3: unknown key 'colour' in [sheet]"), std::string::npos) << all;
  EXPECT_NE(all.find("bad.toml:8: unknown key 'depth' in [points.a]"), std::string::npos) << all;
  EXPECT_NE(all.find("bad.toml:11: [points.unused] test 'nosuchtest' is not a test of tests-pts/"), std::string::npos)
      << all;
  EXPECT_NE(all.find("bad.toml:10: [points.unused] is used by no [[requirement]]"), std::string::npos) << all;
  EXPECT_NE(all.find("bad.toml:14: [[requirement]] has both min and max"), std::string::npos) << all;
  EXPECT_NE(all.find("bad.toml:23: [[requirement]] at = 'b' names no [points.b] table"), std::string::npos) << all;
  EXPECT_NE(all.find("bad.toml:21: [[requirement]] has neither min nor max"), std::string::npos) << all;
  EXPECT_NE(all.find("bad.toml:24: [[requirement]] Y: figure 'nope' is not one ptsuite records"), std::string::npos) << all;
}

TEST(Requirements, SyntaxErrorNamesItsLine) {
  auto s = parse_requirement_sheet("[sheet]\ntitle = \"T\"\n[[requirement]\n", "syntax.toml", figures);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message().find("syntax.toml:3: TOML syntax"), std::string::npos) << s.error().message();
}

TEST(Requirements, ShippedSheetsReadCleanly) {
  const std::filesystem::path dir = std::filesystem::path(PTS_SOURCE_DIR) / "tests-pts" / "requirements";
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".toml") continue;
    ++n;
    auto s = load_requirement_sheet(e.path().string(), figures);
    EXPECT_TRUE(s.ok()) << e.path() << ": " << (s.ok() ? "" : s.error().message());
    if (s.ok()) {
      EXPECT_FALSE(s->requirements.empty()) << e.path();
      EXPECT_FALSE(s->source.empty()) << e.path() << ": a shipped sheet says what it is shaped on";
    }
  }
  EXPECT_GE(n, 2u);
}

}  // namespace
}  // namespace pts::config
