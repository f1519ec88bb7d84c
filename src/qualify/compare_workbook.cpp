// qualify/compare_workbook.cpp — see compare_workbook.h.
#include "qualify/compare_workbook.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/clock.h"
#include "core/units.h"
#include "report/layout.h"
#include "report/record_view.h"
#include "report/summary_page.h"

namespace pts::qualify {

namespace {

using report::Table;
using report::TableCell;
using report::TableColumn;

constexpr const char* kDeltaFormat = "+0.0%;-0.0%;0.0%";

std::string drive_name(const model::DeviceIdentity& d) {
  const std::string m = (d.manufacturer.empty() ? "" : d.manufacturer + " ") + d.model;
  return m.empty() ? d.serial : m;
}

/// "sim:demo,op=28%": the simulated target without its state file.
std::string simulated_name(const model::SimulatedDriveInfo& s) { return s.target.substr(0, s.target.find('@')); }

std::string time_or_dash(uint64_t wall_ns) { return wall_ns ? core::iso8601_utc(wall_ns) : "—"; }

/// (value − baseline) / baseline as a fraction; empty when either is missing or the baseline is 0.
TableCell delta(const std::optional<double>& v, const std::optional<double>& base) {
  if (!v || !base || *base == 0) return {};
  return TableCell::num((*v - *base) / *base);
}

TableCell value_cell(const std::optional<double>& v) { return v ? TableCell::num(*v) : TableCell::str("—"); }

/// Value columns (one per run), then delta columns (one per run after the baseline).
void value_columns(Table& t, const CompareInput& in, const std::string& number_format) {
  for (size_t i = 0; i < in.runs.size(); ++i)
    t.columns.push_back({"run" + std::to_string(i), in.runs[i].name + (i == 0 ? " (baseline)" : ""), number_format});
  for (size_t i = 1; i < in.runs.size(); ++i)
    t.columns.push_back({"delta" + std::to_string(i), "Δ " + in.runs[i].name + " vs baseline", kDeltaFormat});
}

void value_row(std::vector<TableCell>& row, const std::vector<std::optional<double>>& values) {
  for (const auto& v : values) row.push_back(value_cell(v));
  for (size_t i = 1; i < values.size(); ++i) row.push_back(delta(values[i], values[0]));
}

report::PageHeader header(const CompareInput& in, const std::string& subtitle) {
  const auto& base = *in.runs.front().record;
  report::PageHeader h;
  h.organisation = "ptsuite";
  h.spec = "Drive comparison";
  h.revision = report::edition_label(base.plan.pts_edition) + " (" + base.plan.device_class + ")";
  h.test_page = (base.plan.title.empty() ? base.plan.test_id : base.plan.title) + " – Drive Comparison";
  h.subtitle = subtitle;
  uint64_t first = UINT64_MAX, last = 0;
  for (const auto& r : in.runs) {
    first = std::min(first, r.record->started_wall_ns);
    last = std::max(last, r.record->ended_wall_ns);
  }
  h.run_start = time_or_dash(first == UINT64_MAX ? 0 : first);
  h.run_end = time_or_dash(last);
  h.report_date = time_or_dash(in.report_wall_ns);
  for (const auto& r : in.runs)
    h.dut_line += (h.dut_line.empty() ? "" : " · ") + r.name + ": " + drive_name(r.record->device) + " SN " +
                  r.record->device.serial;
  bool simulated = false, scaled = false, unsteady = false;
  for (const auto& r : in.runs) {
    const auto& rec = *r.record;
    simulated = simulated || rec.simulated_drive.has_value();
    scaled = scaled || rec.plan.time_scale != 1.0 || rec.plan.cell_seconds != rec.plan.spec_cell_seconds;
    for (const auto& st : rec.subtests) unsteady = unsteady || !st.steady_state_reached;
  }
  if (!in.differences.empty())
    h.banners.push_back({"NOT COMPARABLE: " + std::to_string(in.differences.size()) +
                             " difference(s), compared only because --allow-mismatch was given (first page)",
                         true});
  else
    h.banners.push_back({"Comparable: the runs match in every aspect listed on the first page", false});
  if (simulated) h.banners.push_back({"SIMULATED DRIVE(S): not measurements of hardware", true});
  if (scaled) h.banners.push_back({"SCALED RUN(S): cell length or time scale differ from the spec; not compliant", true});
  if (unsteady) h.banners.push_back({"Steady state NOT achieved in at least one run (see the first page)", true});
  return h;
}

std::string steady_text(const model::RunRecord& rec) {
  std::string out;
  for (const auto& st : rec.subtests) {
    std::string s = st.steady_state_reached ? "achieved, Rounds " : "NOT achieved, Rounds ";
    s += std::to_string(st.window_first_round) + "–" + std::to_string(st.window_last_round);
    out += (out.empty() ? "" : "; ") + (rec.subtests.size() > 1 ? st.id + ": " : "") + s;
  }
  return out.empty() ? "no sub-test recorded" : out;
}

report::Page first_page(const CompareInput& in) {
  report::Page page;
  page.kind = report::PageKind::Summary;
  const auto& base = *in.runs.front().record;
  page.title = "Comparison – " + (base.plan.title.empty() ? base.plan.test_id : base.plan.title) + " on " +
               std::to_string(in.runs.size()) + " drives; baseline " + in.runs.front().name;
  Table runs;
  runs.id = "runs";
  runs.caption = "The runs compared";
  runs.columns = {{"run", "Run", "", 2},        {"drive", "Drive", "", 2}, {"serial", "Serial No.", "", 2},
                  {"firmware", "Firmware", ""}, {"kind", "Drive kind", "", 2}, {"steady", "Steady state", "", 3},
                  {"dir", "Run directory", "", 3}};
  for (const auto& r : in.runs) {
    const auto& rec = *r.record;
    const std::string kind = rec.simulated_drive ? "simulated: " + simulated_name(*rec.simulated_drive)
                                                 : rec.device.interface;
    runs.rows.push_back({TableCell::str(r.name), TableCell::str(drive_name(rec.device)),
                         TableCell::str(rec.device.serial), TableCell::str(rec.device.firmware), TableCell::str(kind),
                         TableCell::str(steady_text(rec)), TableCell::str(r.dir)});
  }
  page.tables.push_back(std::move(runs));

  Table cmp;
  cmp.id = in.differences.empty() ? "comparability" : "differences";
  if (in.differences.empty()) {
    cmp.caption = "What the comparison matched (every run has these)";
    cmp.columns = {{"aspect", "Aspect", "", 3}, {"value", "Value in every run", "", 9}};
    for (const auto& a : comparability_aspects(base)) cmp.rows.push_back({TableCell::str(a.name), TableCell::str(a.value)});
  } else {
    cmp.caption = "DIFFERENCES: the runs are not comparable in these aspects (--allow-mismatch)";
    cmp.columns = {{"aspect", "Aspect", "", 2}};
    const int span = std::max(2, 10 / static_cast<int>(in.runs.size()));
    for (size_t i = 0; i < in.runs.size(); ++i)
      cmp.columns.push_back({"run" + std::to_string(i), in.runs[i].name, "", span});
    for (const auto& d : in.differences) {
      std::vector<TableCell> row{TableCell::str(d.aspect)};
      for (const auto& v : d.values) row.push_back(TableCell::str(v));
      cmp.rows.push_back(std::move(row));
    }
    for (const auto& d : in.differences) cmp.notes.push_back(d.text);
  }
  page.tables.push_back(std::move(cmp));

  Table dev;
  dev.id = "deviations";
  dev.caption = "Deviations from the spec, per run";
  dev.columns = {{"run", "Run", "", 2}, {"deviation", "Deviation [code]", "", 10}};
  for (const auto& r : in.runs)
    for (const auto& d : r.record->deviations)
      dev.rows.push_back({TableCell::str(r.name), TableCell::str(d.text + " [" + d.code + "]")});
  if (dev.rows.empty()) dev.notes.push_back("None: every run followed the specification.");
  page.tables.push_back(std::move(dev));
  for (size_t i = 0; i < page.tables.size(); ++i) page.tables[i].order = static_cast<int>(i);
  return page;
}

report::Page headline_page(const CompareInput& in) {
  report::Page page;
  page.title = "Headline figures side by side, with deltas against the baseline";
  page.caption = "Stored Measurement Window results of the template's headline figures; Δ = (drive − baseline) / baseline";
  Table t;
  t.id = "headlines";
  t.caption = "Headline figures";
  t.columns = {{"label", "Figure", "", 3}, {"unit", "Unit", ""}};
  value_columns(t, in, "#,##0.00##");
  for (const auto& h : in.tmpl.headlines) {
    std::vector<std::optional<double>> values;
    std::string unit;
    for (const auto& r : in.runs) {
      const auto v = report::headline_value(*r.record, h);
      values.push_back(v.value);
      if (unit.empty()) unit = v.unit;
    }
    std::vector<TableCell> row{TableCell::str(h.label), TableCell::str(unit)};
    value_row(row, values);
    t.rows.push_back(std::move(row));
  }
  if (in.tmpl.headlines.empty()) t.notes.push_back("This test's template names no headline figures.");
  page.tables.push_back(std::move(t));
  return page;
}

const model::SubTestRecord* subtest_of(const model::RunRecord& rec, const std::string& id) {
  for (const auto& st : rec.subtests)
    if (st.id == id) return &st;
  return nullptr;
}

std::string sub_title(const model::SubTestPlan& p) { return p.title.empty() ? p.id : p.title; }

report::Page matrix_page(const CompareInput& in, const model::SubTestPlan& sub) {
  const std::string metric = primary_metric(sub);
  const report::MetricInfo* m = report::find_metric(metric);
  report::Page page;
  page.title = sub_title(sub) + ": " + metric + " per cell, Measurement Window, side by side";
  page.caption = "Each cell's stored Measurement Window result (" + std::string(m ? m->unit : "") +
                 "); Δ = (drive − baseline) / baseline";
  Table t;
  t.id = "matrix";
  t.caption = sub_title(sub) + " – " + metric + " (" + std::string(m ? m->unit : "") + ")";
  t.columns = {{"cell", "Cell", "", 2}, {"rw", "R/W", ""}, {"bs", "Block size", ""}};
  value_columns(t, in, m ? std::string(m->number_format) : "General");
  for (const auto& c : sub.cells) {
    if (!c.applicable) continue;
    std::vector<std::optional<double>> values;
    for (const auto& r : in.runs) {
      const auto* st = subtest_of(*r.record, sub.id);
      const auto* w = st ? report::find_window_result(*st, c.id) : nullptr;
      values.push_back(w ? report::window_metric_value(*w, metric) : std::nullopt);
    }
    std::vector<TableCell> row{TableCell::str(c.label.empty() ? c.id : c.label),
                               TableCell::str(report::rw_mix_label(c.spec.read_pct)),
                               TableCell::str(core::format_block_size(c.spec.block_bytes))};
    value_row(row, values);
    t.rows.push_back(std::move(row));
  }
  page.tables.push_back(std::move(t));
  return page;
}

const model::TrackingVerdict* verdict_for(const model::SubTestRecord& st, const model::TrackingVariable& tv) {
  const model::SteadyStateVerdict* v = report::shown_verdict(st);
  if (!v) return nullptr;
  for (const auto& x : v->variables)
    if (x.variable.cell_id == tv.cell_id && x.variable.metric == tv.metric) return &x;
  return nullptr;
}

double tracked_value(const model::CellResult& c, model::Metric metric) {
  switch (metric) {
    case model::Metric::Iops: return c.iops;
    case model::Metric::Mbps: return c.mbps;
    case model::Metric::MeanLatencyNs: return c.latency.mean_ns;
    case model::Metric::MaxLatencyNs: return static_cast<double>(c.latency.max_ns);
  }
  return 0;
}

report::Page curve_page(const CompareInput& in, const model::SubTestPlan& sub, const model::TrackingVariable& tv) {
  const report::TrackingUnit u = report::tracking_unit(tv.metric);
  const std::string label = tv.label.empty() ? tv.cell_id : tv.label;
  report::Page page;
  page.title = sub_title(sub) + ": " + label + " per Round, one line per drive";
  page.caption = "Tracking Variable " + label + " in every Round of every run, and each run's Measurement Window";
  Table curve;
  curve.id = "curve";
  curve.printed = false;
  curve.caption = label + " per Round";
  curve.columns = {{"round", "Round", "0"}};
  for (size_t i = 0; i < in.runs.size(); ++i)
    curve.columns.push_back({"run" + std::to_string(i), in.runs[i].name, u.number_format});
  uint32_t rounds = 0;
  for (const auto& r : in.runs)
    if (const auto* st = subtest_of(*r.record, sub.id); st && !st->rounds.empty())
      rounds = std::max(rounds, st->rounds.back().round);
  for (uint32_t round = 1; round <= rounds; ++round) {
    std::vector<TableCell> row{TableCell::num(round)};
    for (const auto& r : in.runs) {
      const auto* st = subtest_of(*r.record, sub.id);
      const auto* rr = st ? report::find_round(*st, round) : nullptr;
      const auto* c = rr ? report::find_cell(*rr, tv.cell_id) : nullptr;
      row.push_back(c ? TableCell::num(tracked_value(*c, tv.metric) * u.scale) : TableCell{});
    }
    curve.rows.push_back(std::move(row));
  }
  Table win;
  win.id = "windows";
  win.order = 2;
  win.caption = "Steady-state Measurement Window of " + label + " per run";
  win.columns = {{"run", "Run", "", 2},
                 {"rounds", "Window", ""},
                 {"average", "Average (" + u.unit + ")", u.number_format},
                 {"delta", "Δ vs baseline", kDeltaFormat},
                 {"data", "Data excursion", u.detail_format},
                 {"data_allowed", "allowed", u.detail_format},
                 {"slope", "Slope excursion", u.detail_format},
                 {"slope_allowed", "allowed", u.detail_format},
                 {"steady", "Steady", ""}};
  std::optional<double> base;
  for (size_t i = 0; i < in.runs.size(); ++i) {
    const auto* st = subtest_of(*in.runs[i].record, sub.id);
    const auto* v = st ? verdict_for(*st, tv) : nullptr;
    std::vector<TableCell> row{TableCell::str(in.runs[i].name)};
    if (!v) {
      row.push_back(TableCell::str("no determination stored"));
      win.rows.push_back(std::move(row));
      continue;
    }
    const auto& w = v->window;
    const double avg = w.average * u.scale;
    if (i == 0) base = avg;
    row.push_back(TableCell::str(report::rounds_label(w.first_round, w.last_round)));
    row.push_back(TableCell::num(avg));
    row.push_back(i == 0 ? TableCell{} : delta(avg, base));
    row.push_back(TableCell::num(w.data_excursion * u.scale));
    row.push_back(TableCell::num(w.allowed_data_excursion * u.scale));
    row.push_back(TableCell::num(w.slope_excursion * u.scale));
    row.push_back(TableCell::num(w.allowed_slope_excursion * u.scale));
    row.push_back(TableCell::str(w.steady ? "yes" : "NO"));
    win.rows.push_back(std::move(row));
  }
  page.tables.push_back(std::move(curve));
  page.tables.push_back(std::move(win));
  report::Chart chart;
  chart.table_index = 0;
  chart.spec.table = "curve";
  chart.spec.type = report::ChartType::Line;
  chart.spec.title = label + " – every Round, one line per drive";
  chart.spec.x_title = "Round";
  chart.spec.y_title = u.unit;
  chart.spec.source_line = 1;
  page.charts.push_back(std::move(chart));
  return page;
}

}  // namespace

std::string primary_metric(const model::SubTestPlan& subtest) {
  if (subtest.tracking.empty()) return "iops";
  switch (subtest.tracking.front().metric) {
    case model::Metric::Iops: return "iops";
    case model::Metric::Mbps: return "mbps";
    case model::Metric::MeanLatencyNs: return "art_ms";
    case model::Metric::MaxLatencyNs: return "mrt_ms";
  }
  return "iops";
}

report::Document compare_document(const CompareInput& in) {
  report::Document doc;
  if (in.runs.empty()) return doc;
  const auto& base = *in.runs.front().record;
  doc.title = "ptsuite comparison – " + (base.plan.title.empty() ? base.plan.test_id : base.plan.title);
  doc.subject = std::to_string(in.runs.size()) + " drives side by side";
  std::vector<std::pair<std::string, report::Page>> pages;
  pages.emplace_back("Comparison", first_page(in));
  pages.emplace_back("Headlines", headline_page(in));
  for (const auto& sub : base.plan.subtests) {
    const std::string suffix = base.plan.subtests.size() > 1 ? " " + sub.id : "";
    pages.emplace_back("Matrix" + suffix, matrix_page(in, sub));
    for (size_t k = 0; k < sub.tracking.size(); ++k)
      pages.emplace_back("Rounds" + suffix + " " + std::to_string(k + 1), curve_page(in, sub, sub.tracking[k]));
  }
  const size_t total = pages.size();
  for (size_t i = 0; i < total; ++i) {
    auto& [name, page] = pages[i];
    page.sheet_name = report::sheet_name(name, doc.pages);
    page.header = header(in, page.title);
    page.header.page_label = "Page " + std::to_string(i + 1) + " of " + std::to_string(total);
    if (page.caption.empty()) page.caption = page.title;
    doc.pages.push_back(std::move(page));
  }
  return doc;
}

}  // namespace pts::qualify
