// unit-tests/qualify/qualify_test.cpp — comparability (identical runs compare; a TC × QD split,
// another test, another version, a simulated drive are named), requirement verdicts (measured
// value taken from the stored window result, margin and verdict by arithmetic here, a missing
// test point named with file:line, an unknown figure refused) and the two workbooks' pages, on the
// report tests' fixed records.
#include <gtest/gtest.h>

#include <algorithm>

#include "qualify/check_workbook.h"
#include "qualify/comparability.h"
#include "qualify/compare_workbook.h"
#include "qualify/evaluate.h"
#include "report/fixture_record.h"

namespace pts::qualify {
namespace {

const model::CellWindowResult& window_of(const model::RunRecord& r, const std::string& cell) {
  for (const auto& w : r.subtests[0].window_results)
    if (w.cell_id == cell) return w;
  throw std::runtime_error("no window result " + cell);
}

std::vector<std::string> aspects_of(const std::vector<Difference>& d) {
  std::vector<std::string> out;
  for (const auto& x : d) out.push_back(x.aspect);
  return out;
}

TEST(Comparability, IdenticalRunsCompare) {
  const auto a = report::fixture::iops_tv6();
  auto b = a;
  b.device.serial = "OTHER";  // another drive of the same model: not an aspect
  EXPECT_TRUE(differences({&a, &b}, {"a", "b"}).empty());
}

TEST(Comparability, ATcQdSplitIsNamedWithBothValues) {
  const auto a = report::fixture::iops_tv6();
  auto b = a;
  for (auto& st : b.plan.subtests)
    for (auto& c : st.cells) {
      c.spec.threads *= 2;
      c.spec.queue_depth = std::max<uint32_t>(1, c.spec.queue_depth / 2);
    }
  const auto d = differences({&a, &b}, {"a", "b"});
  ASSERT_EQ(aspects_of(d), std::vector<std::string>{"TC × QD split"});
  const std::string want_a = std::to_string(a.plan.subtests[0].cells[0].spec.threads) + " × " +
                             std::to_string(a.plan.subtests[0].cells[0].spec.queue_depth);
  EXPECT_NE(d[0].text.find("a " + want_a), std::string::npos) << d[0].text;
  auto c = a;
  for (auto& st : c.plan.subtests)
    for (auto& cell : st.cells) cell.spec.queue_depth *= 2;
  EXPECT_EQ(aspects_of(differences({&a, &c}, {"a", "c"})),
            (std::vector<std::string>{"total outstanding I/O (TC × QD)", "TC × QD split"}));
}

TEST(Comparability, AnotherTestVersionOrDriveKindIsNamed) {
  const auto iops = report::fixture::iops_tv6();
  const auto tp = report::fixture::throughput_two_subtests();
  const auto names = aspects_of(differences({&iops, &tp}, {"i", "t"}));
  for (const char* want : {"test", "access pattern", "block sizes", "read shares (R/W)"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  auto sim = iops;
  sim.tool_version = "9.9.9";
  sim.simulated_drive = model::SimulatedDriveInfo{};
  EXPECT_EQ(aspects_of(differences({&iops, &sim}, {"i", "s"})),
            (std::vector<std::string>{"ptsuite version", "drive"}));
}

model::RequirementSheet sheet_for(double floor_iops, double ceiling_ms) {
  model::RequirementSheet s;
  s.file = "sheet.toml";
  s.title = "T";
  s.points.push_back({"w4k", "iops", "", 0u, 4096u, std::nullopt, std::nullopt, "", 5});
  s.points.push_back({"qd1", "latency", "", 100u, 4096u, 1u, 1u, "", 9});
  s.requirements.push_back({"P-1", "write IOPS", "w4k", "iops", model::LimitKind::Floor, floor_iops, 12});
  s.requirements.push_back({"L-1", "ART", "w4k", "art_ms", model::LimitKind::Ceiling, ceiling_ms, 18});
  return s;
}

TEST(Evaluate, MeasuredLimitMarginAndVerdictFromTheStoredWindow) {
  const auto rec = report::fixture::iops_tv6();
  const auto& w = window_of(rec, "rw0-bs4096");
  const double art_ms = w.mean_latency_ns / 1e6;
  const auto s = sheet_for(w.iops - 100, art_ms / 2);  // IOPS passes by 100, ART fails by half
  auto s_iops_only = s;
  s_iops_only.points.pop_back();
  const auto o = evaluate(s_iops_only, {{&rec, "a", "/runs/a"}});
  ASSERT_TRUE(o.unanswered.empty()) << o.unanswered.front();
  ASSERT_EQ(o.drives.size(), 1u);
  const auto& r = o.drives[0].results;
  ASSERT_EQ(r.size(), 2u);
  EXPECT_DOUBLE_EQ(r[0].measured, w.iops);
  EXPECT_NEAR(r[0].margin, 100, 1e-9);
  EXPECT_NEAR(r[0].margin_pct, 100 / (w.iops - 100) * 100, 1e-9);
  EXPECT_TRUE(r[0].pass);
  EXPECT_DOUBLE_EQ(r[1].measured, art_ms);
  EXPECT_NEAR(r[1].margin, -art_ms / 2, 1e-12);
  EXPECT_FALSE(r[1].pass);
  EXPECT_EQ(o.drives[0].failed(), 1u);
  EXPECT_FALSE(o.all_pass());
}

TEST(Evaluate, ATestPointNoRunHoldsIsNamedWithTheSheetLine) {
  const auto rec = report::fixture::iops_tv6();
  auto s = sheet_for(1, 1000);
  s.requirements.push_back({"L-2", "QD 1 read", "qd1", "read_p99_ms", model::LimitKind::Ceiling, 1, 24});
  const auto o = evaluate(s, {{&rec, "a", "/runs/a"}});
  ASSERT_EQ(o.unanswered.size(), 1u);
  EXPECT_EQ(o.unanswered[0].rfind("sheet.toml:24: [[requirement]] L-2 (at 'qd1'", 0), 0u) << o.unanswered[0];
  EXPECT_NE(o.unanswered[0].find("no run of test 'latency'"), std::string::npos) << o.unanswered[0];
  EXPECT_FALSE(o.all_pass());
}

TEST(Evaluate, AFigurePtsuiteDoesNotRecordIsNamed) {
  EXPECT_FALSE(figure_problem("read_p99_99_ms"));
  const auto why = figure_problem("p99_9999_ms");
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("is not one ptsuite records per Measurement Window (known: iops,"), std::string::npos) << *why;
}

TEST(Evaluate, RunsAreGroupedByDrive) {
  const auto a = report::fixture::iops_tv6();
  auto b = a;
  b.device.serial = "SECOND";
  auto s = sheet_for(1, 1000);
  const auto o = evaluate(s, {{&a, "a", "/a"}, {&b, "b", "/b"}});
  ASSERT_EQ(o.drives.size(), 2u);
  EXPECT_EQ(o.drives[1].serial, "SECOND");
  EXPECT_TRUE(o.all_pass());
}

TEST(CompareWorkbook, PagesSideBySideWithDeltas) {
  const auto a = report::fixture::iops_tv6();
  auto b = a;
  for (auto& w : b.subtests[0].window_results) w.iops *= 1.25;
  CompareInput in;
  in.runs = {{&a, "a", "/a"}, {&b, "b", "/b"}};
  report::HeadlineSpec h;
  h.label = "RND 4 KiB write";
  h.metric = "iops";
  h.filter.read_pct = 0;
  h.filter.block_bytes = 4096;
  in.tmpl.headlines.push_back(h);
  const auto doc = compare_document(in);
  ASSERT_GE(doc.pages.size(), 4u);  // Comparison, Headlines, Matrix, Rounds per Tracking Variable
  EXPECT_EQ(doc.pages[0].sheet_name, "Comparison");
  EXPECT_EQ(doc.pages[0].tables[1].id, "comparability");
  const auto& head = doc.pages[1].tables[0];
  ASSERT_EQ(head.rows.size(), 1u);
  // Figure, Unit, a, b, Δ b: b is 25 % above the baseline.
  EXPECT_DOUBLE_EQ(head.rows[0][2].number, window_of(a, "rw0-bs4096").iops);
  EXPECT_NEAR(head.rows[0][4].number, 0.25, 1e-12);
  const auto& matrix = doc.pages[2].tables[0];
  EXPECT_EQ(matrix.id, "matrix");
  EXPECT_EQ(matrix.rows.size(), a.plan.subtests[0].cells.size());
  const auto& curve = doc.pages[3];
  ASSERT_EQ(curve.charts.size(), 1u);
  EXPECT_EQ(curve.tables[0].columns.size(), 3u);  // Round, then one line per drive
}

TEST(CompareWorkbook, DifferencesGoOnTheFirstPage) {
  const auto a = report::fixture::iops_tv6();
  auto b = a;
  b.tool_version = "9.9.9";
  CompareInput in;
  in.runs = {{&a, "a", "/a"}, {&b, "b", "/b"}};
  in.differences = differences({&a, &b}, {"a", "b"});
  const auto doc = compare_document(in);
  const auto& t = doc.pages[0].tables[1];
  EXPECT_EQ(t.id, "differences");
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0][0].text, "ptsuite version");
  EXPECT_EQ(t.rows[0][2].text, "9.9.9");
  EXPECT_TRUE(doc.pages[0].header.banners[0].alert);
}

TEST(CheckWorkbook, OnePagePerDriveWithMeasuredLimitAndMargin) {
  const auto rec = report::fixture::iops_tv6();
  auto s = sheet_for(1, 1000);
  s.points.pop_back();
  const auto o = evaluate(s, {{&rec, "a", "/a"}});
  const auto doc = check_document(s, o, 0);
  ASSERT_EQ(doc.pages.size(), 2u);
  const auto& t = doc.pages[1].tables[0];
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.columns[4].header, "Measured");
  EXPECT_EQ(t.columns[5].header, "Limit");
  EXPECT_EQ(t.columns[6].header, "Margin");
  EXPECT_DOUBLE_EQ(t.rows[0][4].number, window_of(rec, "rw0-bs4096").iops);
  EXPECT_EQ(t.rows[0][8].text, "PASS");
}

}  // namespace
}  // namespace pts::qualify
