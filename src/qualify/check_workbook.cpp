// qualify/check_workbook.cpp — see check_workbook.h.
#include "qualify/check_workbook.h"

#include "core/clock.h"
#include "report/layout.h"

namespace pts::qualify {

namespace {

using report::Table;
using report::TableCell;

report::PageHeader header(const model::RequirementSheet& sheet, const std::string& subtitle, uint64_t when,
                          const std::string& dut, const std::vector<report::Banner>& banners) {
  report::PageHeader h;
  h.organisation = "ptsuite";
  h.spec = "Requirement check";
  h.revision = "sheet";
  h.test_page = "Requirement Check – " + sheet.title;
  h.subtitle = subtitle;
  h.run_start = "—";
  h.run_end = "—";
  h.report_date = when ? core::iso8601_utc(when) : "—";
  h.dut_line = dut;
  h.banners = banners;
  return h;
}

std::vector<report::Banner> drive_banners(const DriveCheck& d) {
  std::vector<report::Banner> b;
  const size_t failed = d.failed();
  if (failed) b.push_back({"FAIL: " + std::to_string(failed) + " of " + std::to_string(d.results.size()) +
                               " requirement(s) not met", true});
  else b.push_back({"PASS: all " + std::to_string(d.results.size()) + " requirement(s) met", false});
  if (d.simulated) b.push_back({"SIMULATED DRIVE: not a measurement of hardware", true});
  if (d.scaled) b.push_back({"SCALED RUN: cell length or time scale differ from the spec; not compliant", true});
  return b;
}

report::Page first_page(const model::RequirementSheet& sheet, const CheckOutcome& o) {
  report::Page page;
  page.kind = report::PageKind::Summary;
  page.title = "Requirement check – " + sheet.title;
  Table s;
  s.id = "sheet";
  s.caption = "The requirement sheet";
  s.columns = {{"item", "Item", "", 3}, {"value", "Value", "", 9}};
  s.rows.push_back({TableCell::str("Sheet"), TableCell::str(sheet.title)});
  s.rows.push_back({TableCell::str("File"), TableCell::str(sheet.file)});
  if (!sheet.source.empty()) s.rows.push_back({TableCell::str("Shaped on"), TableCell::str(sheet.source)});
  s.rows.push_back({TableCell::str("Requirements"), TableCell::num(static_cast<double>(sheet.requirements.size()))});
  s.notes = sheet.notes;
  page.tables.push_back(std::move(s));
  Table d;
  d.id = "drives";
  d.order = 1;
  d.caption = "Verdict per drive";
  d.columns = {{"drive", "Drive", "", 4}, {"kind", "Kind", "", 2}, {"passed", "Passed", "0"},
               {"failed", "Failed", "0"}, {"verdict", "Verdict", "", 2}};
  for (const auto& x : o.drives) {
    const size_t failed = x.failed();
    d.rows.push_back({TableCell::str(x.label),
                      TableCell::str(std::string(x.simulated ? "simulated" : "real") + (x.scaled ? ", scaled" : "")),
                      TableCell::num(static_cast<double>(x.results.size() - failed)),
                      TableCell::num(static_cast<double>(failed)), TableCell::str(failed ? "FAIL" : "PASS")});
  }
  page.tables.push_back(std::move(d));
  return page;
}

report::Page drive_page(const DriveCheck& x) {
  report::Page page;
  page.title = "Requirements on " + x.label;
  page.caption = "Measured: the stored Measurement Window result of the cell at the test point; margin on the "
                 "passing side is positive";
  Table t;
  t.id = "results";
  t.caption = "Each requirement: measured value, limit and margin";
  t.columns = {{"id", "Req.", ""},
               {"text", "Requirement", "", 3},
               {"point", "Test point (cell that answered)", "", 3},
               {"figure", "Figure", "", 1},
               {"measured", "Measured", "#,##0.0###"},
               {"limit", "Limit", "#,##0.0###"},
               {"margin", "Margin", "+#,##0.0###;-#,##0.0###;0"},
               {"margin_pct", "Margin %", "+0.0;-0.0;0.0"},
               {"verdict", "Verdict", ""},
               {"window", "Run, window", "", 2}};
  for (const auto& r : x.results) {
    const auto& q = *r.requirement;
    const std::string limit_word = q.kind == model::LimitKind::Floor ? "≥ " : "≤ ";
    t.rows.push_back({TableCell::str(q.id), TableCell::str(q.text.empty() ? q.figure : q.text),
                      TableCell::str(r.point->name + ": " + r.cell + (r.point->load.empty() ? "" : " — " + r.point->load)),
                      TableCell::str(q.figure + " (" + limit_word + r.unit + ")"), TableCell::num(r.measured),
                      TableCell::num(r.limit), TableCell::num(r.margin), TableCell::num(r.margin_pct),
                      TableCell::str(r.pass ? "PASS" : "FAIL"),
                      TableCell::str(r.run_name + ", " + r.window + (r.steady_state ? "" : " (NOT steady state)"))});
  }
  page.tables.push_back(std::move(t));
  return page;
}

}  // namespace

report::Document check_document(const model::RequirementSheet& sheet, const CheckOutcome& o, uint64_t when) {
  report::Document doc;
  doc.title = "ptsuite requirement check – " + sheet.title;
  doc.subject = std::to_string(o.drives.size()) + " drive(s) against " + sheet.file;
  std::vector<std::pair<std::string, report::Page>> pages;
  pages.emplace_back("Check", first_page(sheet, o));
  for (size_t i = 0; i < o.drives.size(); ++i) pages.emplace_back("Drive " + std::to_string(i + 1), drive_page(o.drives[i]));
  std::string all_drives;
  for (const auto& x : o.drives) all_drives += (all_drives.empty() ? "" : " · ") + x.label;
  for (size_t i = 0; i < pages.size(); ++i) {
    auto& [name, page] = pages[i];
    std::vector<report::Banner> banners;
    if (i == 0) {
      banners.push_back(o.all_pass() ? report::Banner{"PASS: every drive meets every requirement", false}
                                      : report::Banner{"FAIL: at least one drive misses a requirement", true});
    } else {
      banners = drive_banners(o.drives[i - 1]);
    }
    page.sheet_name = report::sheet_name(name, doc.pages);
    page.header = header(sheet, page.title, when, i == 0 ? all_drives : o.drives[i - 1].label, banners);
    page.header.page_label = "Page " + std::to_string(i + 1) + " of " + std::to_string(pages.size());
    if (page.caption.empty()) page.caption = page.title;
    doc.pages.push_back(std::move(page));
  }
  return doc;
}

}  // namespace pts::qualify
