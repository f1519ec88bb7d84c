// unit-tests/report/output_test.cpp — write_reports: files and names, CSV rows, all-or-nothing
// output (a failing format leaves no file and no temporary behind), bad output paths.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "report/csv_writer.h"
#include "report/fixture_record.h"
#include "report/report.h"
#include "report/tables.h"

#include "report/temp_dir.h"

namespace pts::report {
namespace {

namespace fs = std::filesystem;

using testing::temp_dir;

ReportOptions options() {
  ReportOptions o;
  o.record_json = "{\"schema_version\": 1}\n";
  o.report_wall_ns = 1795100000000000000ull;
  o.templates_dir = PTS_SOURCE_DIR "/templates";
  return o;
}

std::vector<std::string> listing(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) out.push_back(fs::relative(e.path(), dir).string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ReportOutput, WritesTheThreeFormats) {
  const std::string dir = temp_dir("three");
  auto w = write_reports(fixture::throughput_two_subtests(), dir, options());
  ASSERT_TRUE(w.ok()) << w.error().message();
  EXPECT_EQ(w->size(), 3u);
  EXPECT_EQ(listing(dir), (std::vector<std::string>{"csv", "csv/throughput.csv", "throughput.json", "throughput.xlsx"}));
  std::ifstream json(dir + "/throughput.json");
  std::stringstream ss;
  ss << json.rdbuf();
  EXPECT_EQ(ss.str(), options().record_json);  // the JSON report is the record, verbatim
  EXPECT_EQ(fs::status(dir + "/throughput.xlsx").permissions() & fs::perms::others_read, fs::perms::others_read);
}

TEST(ReportOutput, CsvHasOneRowPerRoundAndCell) {
  const model::RunRecord rec = fixture::iops_not_steady_25();
  const std::string csv = table_to_csv(raw_table(rec, {0}));
  size_t lines = 0;
  for (char c : csv) lines += c == '\n';
  EXPECT_EQ(lines, 1u + 25u * 49u);  // header + 25 Rounds × 49 applicable cells
  EXPECT_EQ(csv.rfind("subtest,round,cell_id,in_window,round_verdict,", 0), 0u);
  EXPECT_NE(csv.find("\r\nmain,21,rw100-bs1048576,yes,not steady,randread,100,1048576,"), std::string::npos);
}

TEST(ReportOutput, CsvQuotesTextWithSeparators) {
  Table t;
  t.columns = {{"a", "A", ""}, {"b", "B", ""}};
  t.rows = {{TableCell::str("x, \"y\""), TableCell::num(0.1)}};
  EXPECT_EQ(table_to_csv(t), "a,b\r\n\"x, \"\"y\"\"\",0.1\r\n");
}

TEST(ReportOutput, AFailingFormatLeavesNothingBehind) {
  const std::string dir = temp_dir("atomic");
  std::ofstream(dir + "/csv") << "a file where the csv/ directory should be";
  auto w = write_reports(fixture::iops_tv6(), dir, options());
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().kind, core::ErrorKind::BadInput);
  EXPECT_NE(w.error().message().find("csv"), std::string::npos) << w.error().message();
  EXPECT_EQ(listing(dir), (std::vector<std::string>{"csv"}));  // no workbook, no JSON, no temp file
}

TEST(ReportOutput, UnwritableOutputDirectoryIsBadInput) {
  const std::string dir = temp_dir("unwritable");
  std::ofstream(dir + "/file") << "x";
  auto w = write_reports(fixture::iops_tv6(), dir + "/file/out", options());
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().kind, core::ErrorKind::BadInput);
  EXPECT_NE(w.error().message().find("cannot create output directory " + dir + "/file/out"), std::string::npos);
}

TEST(ReportOutput, ReplacesAnOldReportAtomically) {
  const std::string dir = temp_dir("replace");
  std::ofstream(dir + "/iops.xlsx") << "old";
  ReportOptions o = options();
  o.formats = {true, false, false};
  auto w = write_reports(fixture::iops_tv6(), dir, o);
  ASSERT_TRUE(w.ok()) << w.error().message();
  EXPECT_GT(fs::file_size(dir + "/iops.xlsx"), 10000u);
  EXPECT_EQ(listing(dir), (std::vector<std::string>{"iops.xlsx"}));
}

TEST(ReportOutput, JsonNeedsTheRecordText) {
  ReportOptions o = options();
  o.record_json.clear();
  auto w = write_reports(fixture::iops_tv6(), temp_dir("nojson"), o);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().kind, core::ErrorKind::Internal);
}

TEST(ReportOutput, UnknownTemplateIsBadInput) {
  model::RunRecord rec = fixture::iops_tv6();
  rec.plan.template_name = "no-such-layout";
  auto w = write_reports(rec, temp_dir("notemplate"), options());
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().kind, core::ErrorKind::BadInput);
  EXPECT_NE(w.error().message().find("no report template 'no-such-layout'"), std::string::npos);
}

}  // namespace
}  // namespace pts::report
