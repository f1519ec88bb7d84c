// unit-tests/report/document_test.cpp — the laid-out Document of each fixture: sheets, the
// header block on every page, status banners, the stored (not recomputed) determination, window
// means from the Measurement Window's Rounds only, partial records.
#include <gtest/gtest.h>

#include <cmath>

#include "report/fixture_record.h"
#include "report/layout.h"
#include "report/record_view.h"
#include "report/report.h"
#include "report/test_util.h"

namespace pts::report {
namespace {

using namespace testing;
constexpr uint64_t kReportDate = 1795100000000000000ull;

Document render(const model::RunRecord& rec) {
  ReportOptions o;
  o.report_wall_ns = kReportDate;
  o.templates_dir = PTS_SOURCE_DIR "/templates";
  auto d = render_document(rec, o);
  EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().message());
  return d.ok() ? *d : Document{};
}

double rel(double a, double b) { return std::fabs(a - b) / std::max(1.0, std::fabs(b)); }

TEST(ReportDocument, IopsSheetsInTemplateOrderWithPageLabels) {
  const Document d = render(fixture::iops_tv6());
  std::vector<std::string> names;
  for (const auto& p : d.pages) names.push_back(p.sheet_name);
  EXPECT_EQ(names, (std::vector<std::string>{"Summary", "Convergence", "SS Window 1", "Table", "2D Plot", "3D Plot",
                                             "Raw"}));
  const Page& t = d.pages[3];
  EXPECT_EQ(t.header.page_label, "Page 4 of 7");
  EXPECT_EQ(t.header.subtitle, "IOPS – Block Size x RW Mix Matrix");
  EXPECT_EQ(t.header.test_page, "IOPS Test – Report Page");
  EXPECT_EQ(t.title, "IOPS – All RW Mix & BS – Tabular Data");
  EXPECT_EQ(t.caption, "Table 1.4 – IOPS – All RW Mix & BS – Tabular Data");
  EXPECT_EQ(d.pages[2].caption, "Plot 1.3 – IOPS Steady State Measurement Window – RND 4 KiB 0/100 IOPS");
  EXPECT_EQ(d.pages[0].kind, PageKind::Summary);
  EXPECT_EQ(d.pages[6].kind, PageKind::Raw);
}

// The PDF's document: the report pages without the Raw sheet, every label counting the pages
// that are there.
TEST(ReportDocument, WithoutRawPagesTheLabelsCountThePagesPrinted) {
  ReportOptions o;
  o.report_wall_ns = kReportDate;
  o.templates_dir = PTS_SOURCE_DIR "/templates";
  auto d = render_document(fixture::iops_tv6(), o, false);
  ASSERT_TRUE(d.ok());
  ASSERT_EQ(d->pages.size(), 6u);
  for (const auto& p : d->pages) EXPECT_NE(p.kind, PageKind::Raw);
  EXPECT_EQ(d->pages.back().header.page_label, "Page 6 of 6");
}

// DIRTH's pages: its pre-writes before each histogram, point by point (a sheet group); the
// largest TC's QDs vs Round; IOPS and ART vs total OIO with each chart drawing one column.
TEST(ReportDocument, DirthPagesInTheOrderOfTheSniaPlots) {
  const Document d = render(fixture::dirth_fixture(false));
  std::vector<std::string> names;
  for (const auto& p : d.pages) names.push_back(p.sheet_name);
  EXPECT_EQ(names, (std::vector<std::string>{"Summary", "PC IOPS", "SS Window 1", "Round Pre-writes",
                                             "Top TC vs Round", "SS Window 2", "Demand Variation", "Demand Intensity",
                                             "CPU", "Pre-writes 1", "Histogram 1", "Pre-writes 2", "Histogram 2",
                                             "Pre-writes 3", "Histogram 3", "IOPS ART vs TOIO", "Readings", "Raw"}));
  auto page = [&](const std::string& n) -> const Page& {
    for (const auto& p : d.pages)
      if (p.sheet_name == n) return p;
    return d.pages.front();
  };
  // Top TC vs Round: TC 4 (the grid's largest), one column per QD 8, 4, 1.
  const Table& top = page("Top TC vs Round").tables.at(0);
  ASSERT_EQ(top.columns.size(), 4u);
  EXPECT_EQ(top.columns[1].key, "tc4-qd8");
  EXPECT_EQ(top.columns[3].key, "tc4-qd1");
  // TOIO: 9 points by total OIO ascending (1, 2, 4, 4, 8, 8, 16, 16, 32), more threads first
  // on a tie: TC 4 / QD 1 before TC 1 / QD 4.
  const Table& toio = page("IOPS ART vs TOIO").tables.at(0);
  ASSERT_EQ(toio.rows.size(), 9u);
  EXPECT_EQ(toio.rows.front()[0].number, 1);
  EXPECT_EQ(toio.rows.back()[0].number, 32);
  EXPECT_EQ(toio.rows[2][0].number, 4);
  EXPECT_EQ(toio.rows[2][3].number, 4);
  EXPECT_EQ(toio.rows[3][3].number, 1);
  EXPECT_EQ(page("IOPS ART vs TOIO").charts.at(1).spec.series, std::vector<std::string>{"art_ms"});
  // Process and system CPU, both as TC × QD matrices.
  EXPECT_EQ(page("CPU").tables.size(), 2u);
  // Each histogram page's cumulative share is a chart of its own.
  EXPECT_EQ(page("Histogram 1").charts.size(), 2u);
  EXPECT_EQ(page("Histogram 1").charts[1].spec.series, std::vector<std::string>{"cum"});
}

TEST(ReportDocument, EveryPageCarriesTheHeaderBlock) {
  model::RunRecord rec = fixture::iops_tv6();
  rec.device.pcie_link = {"simulated", 16, 4, 16, 4};
  rec.operator_fields = {{"tested_by", "Acme Labs, J. Doe"}, {"lab_ticket", "QA-1234"}, {"nand_type", ""}};
  const Document d = render(rec);
  for (const auto& p : d.pages) {
    const PageHeader& h = p.header;
    EXPECT_EQ(h.organisation, "SNIA SSS TWG") << p.sheet_name;
    EXPECT_EQ(h.revision, "PTS-E 1.1 (enterprise)") << p.sheet_name;
    EXPECT_EQ(h.run_start, "2026-11-18T11:06:40.000Z");
    EXPECT_EQ(h.report_date, "2026-11-19T14:53:20.000Z");
    EXPECT_EQ(h.dut_line, "Fixture Storage Inc. FX-9000 3.84TB · SN FX12345678 · FW 1.2.3A · 3.5 TiB · PCIe Gen4 x4");
    // Operator fields: the required ones in order ("not stated" when missing or empty), then
    // the others as given.
    ASSERT_EQ(h.operator_fields.size(), 6u);
    EXPECT_EQ(h.operator_fields[0].label, "Tested by");
    EXPECT_EQ(h.operator_fields[0].value, "Acme Labs, J. Doe");
    EXPECT_EQ(h.operator_fields[1].value, "not stated");  // test_sponsor missing
    EXPECT_EQ(h.operator_fields[2].value, "not stated");  // nand_type empty
    EXPECT_EQ(h.operator_fields[5].label, "lab_ticket");
    EXPECT_EQ(h.operator_fields[5].value, "QA-1234");
    EXPECT_TRUE(has_banner(h, "Steady state achieved (Measurement Window rounds 1–5)"));
    ASSERT_EQ(h.banners.size(), 1u);
    EXPECT_FALSE(h.banners[0].alert);
    if (p.kind != PageKind::Report) continue;
    ASSERT_EQ(h.sections.size(), 4u);
    EXPECT_EQ(h.sections[0].title, "Test Platform");
    EXPECT_EQ(h.sections[1].title, "Device Under Test");
    EXPECT_EQ(h.sections[2].title, "Set-up Parameters");
    EXPECT_EQ(h.sections[3].title, "Test Parameters");
    EXPECT_EQ(field(h, "Manufacturer"), "Fixture Storage Inc.");
    EXPECT_EQ(field(h, "Serial No."), "FX12345678");
    EXPECT_EQ(field(h, "Firmware"), "1.2.3A");
    EXPECT_EQ(field(h, "Capacity"), "3.5 TiB (3840755982336 B)");
    EXPECT_EQ(field(h, "PCIe link"), "PCIe Gen4 x4");
    EXPECT_EQ(field(h, "LBA format"), "512 B (LBA format 0)");
    EXPECT_EQ(field(h, "CPU"), "AMD EPYC 7302P 16-Core Processor × 2");
    EXPECT_EQ(field(h, "Memory"), "24.0 GiB");
    EXPECT_EQ(field(h, "Test SW"), "ptsuite 0.1.0");
    EXPECT_EQ(field(h, "Purge").rfind("file re-created — not a SNIA purge", 0), 0u);
    EXPECT_NE(field(h, "Purge result").find("verified"), std::string::npos);
    EXPECT_EQ(field(h, "WIPC"), "SEQ 128 KiB W, 2× user capacity: 7.0 TiB of 7.0 TiB written (complete), "
                                "TC 4 / QD 32 (OIO 128)");
    EXPECT_EQ(field(h, "Write cache"), "disabled (WCD) (required: disabled)");
    EXPECT_EQ(field(h, "TOIO"), "TC 4 / QD 32 (OIO 128)");
    EXPECT_EQ(field(h, "Rounds"), "5 run (max 25); window Rounds 1–5, steady");
    EXPECT_EQ(field(h, "Cell duration"), "5 s per cell (spec: 60 s)");
    ASSERT_EQ(h.deviation_lines.size(), 2u);  // two deviations: both shown, no Deviations page
    EXPECT_EQ(h.deviation_lines[0], "Cells ran 5 s instead of the 60 s the specification requires. [cell-seconds]");
  }
}

TEST(ReportDocument, LongDeviationListsGetTheirOwnPage) {
  model::RunRecord rec = fixture::iops_tv6();
  for (int i = 0; i < 6; ++i) rec.deviations.push_back({"extra-" + std::to_string(i), "Extra deviation " + std::to_string(i)});
  const Document d = render(rec);
  ASSERT_EQ(d.pages[1].sheet_name, "Deviations");
  EXPECT_EQ(d.pages[1].kind, PageKind::Deviations);
  EXPECT_EQ(table(d.pages[1], "deviations")->rows.size(), 8u);
  const Page* w = page(d, "SS Window 1");
  ASSERT_EQ(w->header.deviation_lines.size(), kHeaderDeviations + 1);
  EXPECT_EQ(w->header.deviation_lines.back(), "… and 5 more deviations: see the Deviations page.");
}

TEST(ReportDocument, WindowPageHoldsTheFiveSniaSeries) {
  const Document d = render(fixture::iops_not_steady_25());
  for (const char* name : {"SS Window 1", "SS Window 2", "SS Window 3"}) {
    const Page* p = page(d, name);
    ASSERT_NE(p, nullptr);
    const Table* w = table(*p, "window");
    std::vector<std::string> keys;
    for (const auto& c : w->columns) keys.push_back(c.key);
    EXPECT_EQ(keys, (std::vector<std::string>{"round", "value", "average", "band_hi10", "band_lo10", "fit"}));
    ASSERT_EQ(w->rows.size(), 5u);
    EXPECT_EQ(w->rows.front()[0].number, 21);  // the window's Rounds only
    EXPECT_EQ(w->rows.back()[0].number, 25);
    ASSERT_EQ(p->charts.size(), 1u);
    EXPECT_NE(table(*p, "determination"), nullptr);  // on the same page
  }
}

TEST(ReportDocument, SummaryNumbersAreTheStoredOnes) {
  model::RunRecord rec = fixture::latency_steady();
  const Document d = render(rec);
  const Page& s = d.pages[0];
  ASSERT_EQ(s.kind, PageKind::Summary);
  const Table* h = table(s, "headlines");
  ASSERT_NE(h, nullptr);
  const auto* w = find_window_result(rec.subtests[0], "rw0-bs4096");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(h->rows[0][0].text, "RND 4 KiB write ART (R/W 0/100)");
  EXPECT_DOUBLE_EQ(h->rows[0][1].number, w->mean_latency_ns / 1e6);
  EXPECT_DOUBLE_EQ(h->rows[2][1].number, w->p99_999_latency_ns / 1e6);
  EXPECT_DOUBLE_EQ(h->rows[4][1].number, static_cast<double>(w->max_latency_ns) / 1e6);
  const Table* v = table(s, "verdicts");
  ASSERT_EQ(v->rows.size(), 1u);
  EXPECT_EQ(v->rows[0][2].text, "achieved, Rounds 3–7");
  EXPECT_DOUBLE_EQ(v->rows[0][4].number, rec.subtests[0].final_verdict->variables[0].window.average / 1e6);
  EXPECT_EQ(table(s, "deviations")->rows.size(), rec.deviations.size());
}

TEST(ReportDocument, Tv6DeterminationShowsThePublishedFigures) {
  const Document d = render(fixture::iops_tv6());
  const Page* p = page(d, "SS Window 1");
  ASSERT_NE(p, nullptr);
  const Table* det = table(*p, "determination");
  ASSERT_NE(det, nullptr);
  auto num = [&](const std::string& label) {
    const TableCell* c = item(*det, label);
    EXPECT_NE(c, nullptr) << label;
    return c ? c->number : NAN;
  };
  EXPECT_LT(rel(num("Average value"), 11726.8), 1e-12);
  EXPECT_LT(rel(num("Allowed maximum data excursion (20 % of average)"), 2345.36), 1e-12);
  EXPECT_LT(rel(num("Measured data excursion (max − min)"), 300.0), 1e-12);
  EXPECT_LT(rel(num("Allowed maximum slope excursion (10 % of average)"), 1172.68), 1e-12);
  EXPECT_LT(rel(num("Measured slope excursion (|slope| × (last − first Round))"), 25.6), 1e-12);
  EXPECT_LT(rel(num("Least-squares slope (per Round)"), -6.4), 1e-12);
  EXPECT_LT(rel(num("Least-squares intercept"), 11746.0), 1e-12);
  EXPECT_EQ(item(*det, "Least-squares fit")->text, "−6.4·R + 11746");
  // The window plot's table: values, average, ±10 % / ±20 % bands and the fitted line.
  const Table* w = table(*p, "window");
  ASSERT_NE(w, nullptr);
  ASSERT_EQ(w->rows.size(), 5u);
  EXPECT_DOUBLE_EQ(w->rows[1][1].number, 11823.2);
  EXPECT_DOUBLE_EQ(w->rows[1][3].number, 1.1 * 11726.8);
  EXPECT_DOUBLE_EQ(w->rows[1][4].number, 0.9 * 11726.8);
  EXPECT_NEAR(w->rows[4][5].number, -6.4 * 5 + 11746, 1e-9);
}

TEST(ReportDocument, MatrixShowsTheStoredWindowResultsNeverRecomputesThem) {
  model::RunRecord rec = fixture::iops_not_steady_25();
  // A wild value outside the window (Round 3) must not move the table, and a stored window
  // result is printed as stored.
  for (auto& c : rec.subtests[0].rounds[2].cells)
    if (c.cell_id == "rw65-bs8192") c.iops = 1e9;
  double sum = 0;
  for (uint32_t r = 21; r <= 25; ++r) sum += fixture::cell_value(rec, 0, r, "rw65-bs8192", "iops");
  for (auto& w : rec.subtests[0].window_results)
    if (w.cell_id == "rw35-bs16384") w.iops = 4242.5;
  const Document d = render(rec);
  const Table* m = table(*page(d, "Table"), "matrix");
  ASSERT_NE(m, nullptr);
  const TableCell* cell = matrix_cell(*m, 8, "65/35");
  ASSERT_NE(cell, nullptr);
  EXPECT_LT(rel(cell->number, sum / 5), 1e-12);
  EXPECT_DOUBLE_EQ(matrix_cell(*m, 16, "35/65")->number, 4242.5);
  // 8 rows (0.5 KiB on top … 1024 KiB) × 7 mixes (0/100 left … 100/0).
  ASSERT_EQ(m->rows.size(), 8u);
  EXPECT_EQ(m->rows.front()[0].number, 0.5);
  EXPECT_EQ(m->rows.back()[0].number, 1024);
  EXPECT_EQ(m->columns[1].header, "0/100");
  EXPECT_EQ(m->columns[7].header, "100/0");
  // 0.5 KiB cells were not applicable: empty, with the reason in a note.
  EXPECT_EQ(matrix_cell(*m, 0.5, "0/100")->type, TableCell::Type::Empty);
  bool noted = false;
  for (const auto& n : m->notes) noted |= n.find("below the 4096 B logical block size") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(ReportDocument, NotSteadySaysSoOnEveryPage) {
  const Document d = render(fixture::iops_not_steady_25());
  ASSERT_EQ(d.pages.size(), 10u);  // Summary, Deviations (4 of them) + three window pages
  for (const auto& p : d.pages) {
    EXPECT_TRUE(has_banner(p.header, "Steady state NOT achieved (rounds 21–25 reported)")) << p.sheet_name;
    ASSERT_EQ(p.header.banners.size(), 1u);
    EXPECT_TRUE(p.header.banners[0].alert);  // drawn as a warning
    if (p.kind == PageKind::Report) {
      EXPECT_EQ(field(p.header, "Rounds"), "25 run (max 25); window Rounds 21–25, NOT steady");
    }
  }
  const Table* det = table(*page(d, "SS Window 1"), "determination");
  EXPECT_EQ(item(*det, "Steady state in this window")->text, "NO");
  EXPECT_EQ(item(*det, "Measurement Window")->text, "Rounds 21–25");
}

TEST(ReportDocument, UsesTheStoredVerdictNeverRecomputesIt) {
  model::RunRecord rec = fixture::iops_tv6();
  auto& st = rec.subtests[0];
  // Tamper with the stored determination: the report must print it as stored.
  st.final_verdict->variables[0].window.average = 12345.6;
  st.final_verdict->variables[0].window.steady = false;
  st.steady_state_reached = false;
  const Document d = render(rec);
  const Table* det = table(*page(d, "SS Window 1"), "determination");
  EXPECT_DOUBLE_EQ(item(*det, "Average value")->number, 12345.6);
  EXPECT_EQ(item(*det, "Steady state in this window")->text, "NO");
  EXPECT_TRUE(has_banner(d.pages[0].header, "Steady state NOT achieved (rounds 1–5 reported)"));
}

TEST(ReportDocument, InterruptedRunIsPartialAndMarkedIncomplete) {
  const model::RunRecord rec = fixture::iops_interrupted();
  const Document d = render(rec);
  for (const auto& p : d.pages) {
    EXPECT_TRUE(has_banner(p.header, "INCOMPLETE RUN — partial results (run interrupted)")) << p.sheet_name;
    EXPECT_TRUE(has_banner(p.header, "Steady state NOT determined — partial (rounds 1–3 reported)"));
  }
  const Page* w = page(d, "SS Window 1");
  ASSERT_NE(w, nullptr);
  EXPECT_TRUE(table(*w, "window")->rows.empty());
  EXPECT_FALSE(table(*w, "window")->notes.empty());
  // No Measurement Window was stored: the matrix is empty and says why (the report computes
  // no window numbers of its own).
  const Table* m = table(*page(d, "Table"), "matrix");
  EXPECT_EQ(matrix_cell(*m, 4, "100/0")->type, TableCell::Type::Empty);
  bool noted = false;
  for (const auto& n : m->notes) noted |= n.find("no Measurement Window result yet") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(ReportDocument, ThroughputRepeatsPerSubtestAndNamesEachPurge) {
  const Document d = render(fixture::throughput_two_subtests());
  std::vector<std::string> names;
  for (const auto& p : d.pages) names.push_back(p.sheet_name);
  EXPECT_EQ(names, (std::vector<std::string>{"Summary", "Convergence bs128k", "Convergence bs1024k", "SS Window 1",
                                             "SS Window 2", "Table", "Raw"}));
  // A sub-test page shows its own set-up; the run-wide pages list both sub-tests.
  EXPECT_EQ(field(d.pages[2].header, "WIPC").rfind("SEQ 1024 KiB W", 0), 0u);
  int purges = 0;
  for (const auto& s : page(d, "Table")->header.sections)
    for (const auto& f : s.fields)
      if (f.label == "Purge") ++purges;
  EXPECT_EQ(purges, 2);
  EXPECT_EQ(page(d, "Convergence bs1024k")->title, "TP – SEQ 1024KiB – Steady State Convergence Plot");
  const Table* m = table(*page(d, "Table"), "matrix");
  ASSERT_EQ(m->rows.size(), 2u);  // 128 KiB and 1024 KiB
  EXPECT_EQ(m->columns.size(), 3u);  // key + 0/100 + 100/0
}

TEST(ReportDocument, LatencyTablesInMillisecondsMrtIsTheWindowMaximum) {
  const model::RunRecord rec = fixture::latency_steady();
  const Document d = render(rec);
  double max_ns = 0, mean_ns = 0;
  for (uint32_t r = 3; r <= 7; ++r) {
    max_ns = std::max(max_ns, fixture::cell_value(rec, 0, r, "rw65-bs8192", "max_latency_ns"));
    mean_ns += fixture::cell_value(rec, 0, r, "rw65-bs8192", "mean_latency_ns") / 5;
  }
  EXPECT_LT(rel(matrix_cell(*table(*page(d, "MRT"), "mrt"), 8, "65/35")->number, max_ns / 1e6), 1e-12);
  EXPECT_LT(rel(matrix_cell(*table(*page(d, "ART"), "art"), 8, "65/35")->number, mean_ns / 1e6), 1e-12);
  const Table* det = table(*page(d, "SS Window 1"), "determination");
  EXPECT_LT(item(*det, "Average value")->number, 1.0);  // ms, not ns
}

}  // namespace
}  // namespace pts::report
