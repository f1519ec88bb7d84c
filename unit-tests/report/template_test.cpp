// unit-tests/report/template_test.cpp — templates/ lookup and validation (every problem at
// once with file:line), --format parsing, sheet names.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "report/layout.h"
#include "report/report.h"
#include "report/template_loader.h"

#include "report/temp_dir.h"

namespace pts::report {
namespace {

namespace fs = std::filesystem;

using testing::temp_dir;

TEST(ReportTemplates, ShippedTemplatesLoad) {
  for (const char* name : {"iops", "throughput", "latency", "wsat", "hir", "xsr", "dirth", "ecw"}) {
    auto t = load_template_file(std::string(PTS_SOURCE_DIR) + "/templates/" + name + ".toml");
    ASSERT_TRUE(t.ok()) << t.error().message();
    EXPECT_EQ(t->name, name);
    EXPECT_FALSE(t->sheets.empty());
  }
}

TEST(ReportTemplates, EveryProblemReportedWithFileAndLine) {
  const std::string dir = temp_dir("bad-template");
  const std::string path = dir + "/bad.toml";
  std::ofstream(path) << "name = \"bad\"\n"                      // 1
                         "test_name = \"Bad\"\n"                 // 2
                         "colour = \"red\"\n"                    // 3 unknown key
                         "[[sheet]]\n"                           // 4
                         "name = \"S\"\n"                        // 5
                         "title = \"T\"\n"                       // 6
                         "  [[sheet.table]]\n"                   // 7
                         "  id = \"m\"\n"                        // 8
                         "  kind = \"matrix\"\n"                 // 9
                         "  metric = \"bananas\"\n"              // 10 unknown metric
                         "  [[sheet.table]]\n"                   // 11
                         "  id = \"w\"\n"                        // 12
                         "  kind = \"window\"\n"                 // 13 not on a tracking sheet
                         "  [[sheet.chart]]\n"                   // 14
                         "  table = \"nope\"\n"                  // 15 no such table
                         "  type = \"pie\"\n";                   // 16 unknown type
  auto t = load_template_file(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().kind, core::ErrorKind::BadInput);
  const std::string msg = t.error().message();
  EXPECT_NE(msg.find(path + ":3: unknown key 'colour'"), std::string::npos) << msg;
  EXPECT_NE(msg.find(path + ":10: unknown metric 'bananas'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("needs a sheet with repeat = \"tracking\""), std::string::npos) << msg;
  EXPECT_NE(msg.find(path + ":15: chart refers to table 'nope'"), std::string::npos) << msg;
  EXPECT_NE(msg.find(path + ":16: 'type' = 'pie'"), std::string::npos) << msg;
  EXPECT_GE(t.error().messages.size(), 5u);
}

TEST(ReportTemplates, PhaseTableKeysCheckedWithFileAndLine) {
  const std::string dir = temp_dir("bad-phase-template");
  const std::string path = dir + "/bad.toml";
  std::ofstream(path) << "name = \"bad\"\n"                       // 1
                         "test_name = \"Bad\"\n"                  // 2
                         "[[sheet]]\n"                             // 3
                         "name = \"S\"\n"                         // 4
                         "title = \"T\"\n"                        // 5
                         "role = \"hir-wait-state\"\n"            // 6
                         "  [[sheet.table]]\n"                     // 7 samples without metrics
                         "  id = \"s\"\n"                         // 8
                         "  kind = \"samples\"\n"                 // 9
                         "  x = \"fortnights\"\n"                 // 10 unknown axis
                         "  [[sheet.table]]\n"                     // 11
                         "  id = \"p\"\n"                         // 12
                         "  kind = \"points\"\n"                  // 13 points without x_metric
                         "  metric = \"art_ms\"\n"                // 14
                         "  levels = [\"x\"]\n"                   // 15 levels on a points table
                         "[[headline]]\n"                          // 16
                         "label = \"L\"\n"                        // 17
                         "finding = \"max_iops\"\n"               // 18
                         "metric = \"iops\"\n";                   // 19 finding and metric
  auto t = load_template_file(path);
  ASSERT_FALSE(t.ok());
  const std::string msg = t.error().message();
  EXPECT_NE(msg.find(path + ":7: a 'samples' table needs 'metrics'"), std::string::npos) << msg;
  EXPECT_NE(msg.find(path + ":10: 'x' = 'fortnights'"), std::string::npos) << msg;
  EXPECT_NE(msg.find(path + ":11: a 'points' table needs 'x_metric'"), std::string::npos) << msg;
  EXPECT_NE(msg.find(path + ":15: 'levels' applies to 'samples' tables only"), std::string::npos) << msg;
  EXPECT_NE(msg.find(path + ":16: [[headline]] with 'finding' takes no 'metric'"), std::string::npos) << msg;
}

// ECW's template takes DIRTH's pages under its name after a page of its own; a sheet group
// needs per-sub-test sheets; a filter's threads takes "max" only.
TEST(ReportTemplates, BasedTemplateAddsItsSheetsFirstAndGroupsAreChecked) {
  auto ecw = load_template_file(std::string(PTS_SOURCE_DIR) + "/templates/ecw.toml");
  auto dirth = load_template_file(std::string(PTS_SOURCE_DIR) + "/templates/dirth.toml");
  ASSERT_TRUE(ecw.ok() && dirth.ok()) << (ecw.ok() ? dirth.error().message() : ecw.error().message());
  ASSERT_EQ(ecw->sheets.size(), dirth->sheets.size() + 1);
  EXPECT_EQ(ecw->sheets[0].name, "Access Probabilities");
  EXPECT_EQ(ecw->sheets[0].title, "ECW – Block Size × LBA Range Access Probabilities");
  EXPECT_EQ(ecw->sheets[0].tables.at(0).kind, TableKind::AccessMix);
  for (size_t i = 0; i < dirth->sheets.size(); ++i) EXPECT_EQ(ecw->sheets[i + 1].name, dirth->sheets[i].name);
  EXPECT_EQ(ecw->sheets[1].title.rfind("ECW – ", 0), 0u) << ecw->sheets[1].title;

  const std::string dir = temp_dir("group-template");
  const std::string path = dir + "/bad.toml";
  std::ofstream(path) << "name = \"bad\"\n"                 // 1
                         "test_name = \"Bad\"\n"            // 2
                         "[[sheet]]\n"                       // 3
                         "name = \"S\"\n"                   // 4
                         "title = \"T\"\n"                  // 5
                         "group = \"g\"\n"                  // 6 group without repeat = subtest
                         "  [[sheet.table]]\n"                // 7
                         "  id = \"c\"\n"                   // 8
                         "  kind = \"convergence\"\n"       // 9
                         "  metric = \"iops\"\n"            // 10
                         "  filter = { threads = \"most\" }\n";  // 11
  auto t = load_template_file(path);
  ASSERT_FALSE(t.ok());
  const std::string msg = t.error().message();
  EXPECT_NE(msg.find(path + ":6: 'group' lays out sheets sub-test by sub-test"), std::string::npos) << msg;
  EXPECT_NE(msg.find(path + ":11: filter 'threads' takes \"max\""), std::string::npos) << msg;
}

TEST(ReportTemplates, SyntaxErrorNamesFileAndLine) {
  const std::string dir = temp_dir("syntax");
  std::ofstream(dir + "/x.toml") << "name = \"x\"\n[[sheet]\n";
  auto t = load_template_file(dir + "/x.toml");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message().rfind(dir + "/x.toml:2:", 0), 0u) << t.error().message();
}

TEST(ReportTemplates, LookupHonoursTheEnvironment) {
  const std::string dir = temp_dir("env");
  ::setenv("PTSUITE_TEMPLATES_DIR", dir.c_str(), 1);
  auto found = find_templates_dir();
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(*found, dir);
  auto missing = load_template("iops");  // the env dir holds no iops.toml
  EXPECT_FALSE(missing.ok());
  ::setenv("PTSUITE_TEMPLATES_DIR", (dir + "/nope").c_str(), 1);
  EXPECT_FALSE(find_templates_dir().ok());
  ::unsetenv("PTSUITE_TEMPLATES_DIR");
  auto def = find_templates_dir();  // falls back to the source tree's templates/
  ASSERT_TRUE(def.ok()) << def.error().message();
  EXPECT_TRUE(fs::exists(*def + "/iops.toml"));
  EXPECT_FALSE(load_template("../etc/passwd").ok());
}

TEST(ReportFormats, ParsesSubsetsAndRejectsEveryUnknownEntry) {
  auto all = parse_report_formats("xlsx,json,csv");
  ASSERT_TRUE(all.ok());
  EXPECT_TRUE(all->xlsx && all->json && all->csv);
  auto one = parse_report_formats("csv");
  ASSERT_TRUE(one.ok());
  EXPECT_TRUE(one->csv && !one->xlsx && !one->json && !one->pdf);
  auto pdf = parse_report_formats("pdf");
  ASSERT_TRUE(pdf.ok());
  EXPECT_TRUE(pdf->pdf && !pdf->xlsx);
  auto bad = parse_report_formats("xlsx,docx,html");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, core::ErrorKind::BadInput);
  EXPECT_EQ(bad.error().messages.size(), 2u);
  EXPECT_NE(bad.error().message().find("--format: 'xlsx,docx,html' names an unknown format 'docx'"), std::string::npos);
  EXPECT_FALSE(parse_report_formats("").ok());
  EXPECT_FALSE(parse_report_formats("xlsx,").ok());
}

TEST(ReportSheetNames, ValidUniqueAndShort) {
  std::vector<Page> pages;
  auto add = [&](const std::string& want) {
    Page p;
    p.sheet_name = sheet_name(want, pages);
    pages.push_back(p);
    return p.sheet_name;
  };
  EXPECT_EQ(add("SS Window 1"), "SS Window 1");
  EXPECT_EQ(add("ss window 1"), "ss window 1 (2)");
  EXPECT_EQ(add("a/b:c[d]*?\\"), "a-b-c-d----");
  const std::string long_name = add("Convergence – a very long sub-test title here");
  EXPECT_LE(long_name.size(), 31u);
  EXPECT_EQ(add(""), "Sheet");
}

}  // namespace
}  // namespace pts::report
