// report/summary_page.cpp — see summary_page.h.
#include "report/summary_page.h"

#include <algorithm>

#include "core/units.h"
#include "report/header_block.h"
#include "report/record_view.h"
#include "report/phase_tables.h"
#include "report/tables.h"

namespace pts::report {

namespace {

std::string titled(const model::SubTestPlan& p) { return p.title.empty() ? p.id : p.title; }

Table drive_table(const model::RunRecord& rec) {
  const auto& d = rec.device;
  Table t;
  t.id = "drive";
  t.caption = "Drive";
  t.columns = {{"item", "Item", "", 3}, {"value", "Value", "", 9}};
  auto add = [&](const std::string& k, const std::string& v) {
    t.rows.push_back({TableCell::str(k), TableCell::str(v.empty() ? "not reported" : v)});
  };
  add("Manufacturer / model", (d.manufacturer.empty() ? "" : d.manufacturer + " ") + d.model);
  add("Serial No.", d.serial);
  add("Firmware", d.firmware);
  add("User capacity", core::format_bytes(d.capacity_bytes) + " (" + std::to_string(d.capacity_bytes) + " B)");
  add("Interface", d.interface + " · " + model::pcie_link_label(d.pcie_link));
  for (const auto& f : operator_header_fields(rec)) add(f.label, f.value);
  return t;
}

std::string window_state(const model::SubTestRecord* st, const model::TestPlan& plan, const model::SubTestPlan& p) {
  if (!st || st->rounds.empty()) return "not run";
  if (p.role != model::SubTestRole::SteadyRounds && p.tracking.empty())  // a phase with its own stop rule
    return st->complete ? "n/a — complete (own stop rule)" : "n/a — not finished";
  const ReportedRounds rr = reported_rounds(plan, *st);
  const std::string r = rounds_label(rr.first, rr.last);
  if (st->steady_state_reached) return "achieved, " + r;
  if (rr.from_record) return "NOT achieved (" + r + " reported)";
  return "NOT determined — partial (" + r + ")";
}

Table verdict_table(const model::RunRecord& rec) {
  Table t;
  t.id = "verdicts";
  t.caption = "Verdicts: steady state per sub-test and Tracking Variable (as pts stored them)";
  t.columns = {{"subtest", "Sub-test", "", 2},        {"rounds", "Rounds run", "0"},
               {"steady", "Steady state", "", 3},     {"tracking", "Tracking Variable", "", 3},
               {"average", "Window average", "#,##0.0###"}, {"data_ok", "Data excursion", ""},
               {"slope_ok", "Slope excursion", ""}};
  for (const auto& p : rec.plan.subtests) {
    const auto* st = record_for(rec, p);
    const double rounds = st && !st->rounds.empty() ? st->rounds.back().round : 0;
    const std::string state = window_state(st, rec.plan, p);
    if (p.tracking.empty())
      t.rows.push_back({TableCell::str(titled(p)), TableCell::num(rounds), TableCell::str(state), TableCell::str("none"),
                        {}, {}, {}});
    for (const auto& tv : p.tracking) {
      const auto* v = find_tracking_verdict(st, tv);
      std::vector<TableCell> row{TableCell::str(titled(p)), TableCell::num(rounds), TableCell::str(state),
                                 TableCell::str(tv.label.empty() ? tv.cell_id : tv.label)};
      if (v) {
        const TrackingUnit u = tracking_unit(tv.metric);
        row.push_back(TableCell::num(v->window.average * u.scale));
        row.push_back(TableCell::str(v->window.data_ok ? "met" : "NOT met"));
        row.push_back(TableCell::str(v->window.slope_ok ? "met" : "NOT met"));
      } else {
        row.push_back(TableCell::str("no determination"));
        row.push_back({});
        row.push_back({});
      }
      t.rows.push_back(std::move(row));
    }
  }
  return t;
}

Table headline_table(const model::RunRecord& rec, const ReportTemplate& tmpl) {
  Table t;
  t.id = "headlines";
  t.caption = "Headline numbers: stored Measurement Window results";
  t.columns = {{"label", "Result", "", 4}, {"value", "Value", "#,##0.00##"}, {"unit", "Unit", ""},
               {"source", "From", "", 6}};
  for (const auto& h : tmpl.headlines) {
    const HeadlineValue v = headline_value(rec, h);
    std::vector<TableCell> row{TableCell::str(h.label)};
    row.push_back(v.value ? TableCell::num(*v.value) : TableCell::str(v.why));
    row.push_back(TableCell::str(v.found ? v.unit : ""));
    row.push_back(TableCell::str(v.from));
    t.rows.push_back(std::move(row));
  }
  if (tmpl.headlines.empty()) t.notes.push_back("This test's template names no headline numbers.");
  return t;
}

}  // namespace

HeadlineValue headline_value(const model::RunRecord& rec, const HeadlineSpec& h) {
  HeadlineValue out;
  if (!h.finding.empty()) {  // a finding pts stored (WSAT's plateau, DIRTH's MaxIOPS, ...)
    std::vector<size_t> subs;
    for (size_t i = 0; i < rec.plan.subtests.size(); ++i)
      if (h.subtest.empty() || rec.plan.subtests[i].id == h.subtest) subs.push_back(i);
    size_t at = 0;
    const model::Finding* f = find_finding(rec, subs, h.finding, &at);
    if (!f) {
      out.why = "not stored (the sub-test has not finished)";
      return out;
    }
    out.found = true;
    out.value = f->value;
    if (!f->value) out.why = "undefined";
    out.unit = f->unit;
    out.from = titled(rec.plan.subtests[at]) + ", " + f->label + (f->detail.empty() ? "" : ": " + f->detail);
    return out;
  }
  const MetricInfo* m = find_metric(h.metric);
  const model::CellPlan* cell = nullptr;
  const model::SubTestPlan* sub = nullptr;
  for (const auto& p : rec.plan.subtests) {
    if (!h.subtest.empty() && p.id != h.subtest) continue;
    for (const auto& c : p.cells)
      if (c.applicable && cell_matches(c, h.filter)) {
        cell = &c;
        sub = &p;
        break;
      }
    if (cell) break;
  }
  const auto* st = sub ? record_for(rec, *sub) : nullptr;
  const auto* w = st && cell ? find_window_result(*st, cell->id) : nullptr;
  out.value = w && m ? window_metric_value(*w, h.metric) : std::nullopt;
  out.found = true;
  if (!out.value) out.why = cell ? "no window result stored" : "no such cell in this run";
  out.unit = m ? std::string(m->unit) : "";
  if (cell && st) {
    const ReportedRounds rr = reported_rounds(rec.plan, *st);
    out.from = titled(*sub) + ", " + (cell->label.empty() ? cell->id : cell->label) +
               (rr.empty() ? "" : ", " + rounds_label(rr.first, rr.last)) +
               (st->steady_state_reached ? " (steady state)" : " (NOT steady state)");
  }
  return out;
}

Table deviations_table(const model::RunRecord& rec) {
  Table t;
  t.id = "deviations";
  t.caption = "Deviations from " + edition_label(rec.plan.pts_edition) + ", in plain words";
  t.columns = {{"index", "No.", "0"}, {"deviation", "Deviation [code]", "", 11}};
  const auto all = deviation_texts(rec);
  for (size_t i = 0; i < all.size(); ++i)
    t.rows.push_back({TableCell::num(static_cast<double>(i + 1)), TableCell::str(all[i])});
  if (all.empty()) t.notes.push_back("None: the run followed the specification.");
  return t;
}

Page summary_page(const model::RunRecord& rec, const ReportTemplate& tmpl) {
  Page page;
  page.kind = PageKind::Summary;
  page.title = "Summary – " + (rec.plan.title.empty() ? tmpl.test_name : rec.plan.title) + " of " +
               (rec.device.model.empty() ? rec.device.serial : rec.device.model);
  page.tables.push_back(drive_table(rec));
  // A test where no sub-test has a Tracking Variable (WSAT without its optional stop, XSR) has
  // no steady-state determination: its Summary says nothing about one.
  const bool tracked = std::any_of(rec.plan.subtests.begin(), rec.plan.subtests.end(),
                                   [](const model::SubTestPlan& p) { return !p.tracking.empty(); });
  if (tracked) page.tables.push_back(verdict_table(rec));
  page.tables.push_back(headline_table(rec, tmpl));
  page.tables.push_back(deviations_table(rec));
  for (size_t i = 0; i < page.tables.size(); ++i) page.tables[i].order = static_cast<int>(i);
  return page;
}

}  // namespace pts::report
