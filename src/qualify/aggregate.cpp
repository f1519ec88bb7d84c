// qualify/aggregate.cpp — see aggregate.h.
#include "qualify/aggregate.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace pts::qualify {

namespace {

using report::Table;
using report::TableCell;

/// min, max and (max − min) / mean of `v` (all 0 when empty).
void spread(const std::vector<double>& v, double& lo, double& hi, double& rel) {
  lo = hi = rel = 0;
  if (v.empty()) return;
  lo = *std::min_element(v.begin(), v.end());
  hi = *std::max_element(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  const double mean = sum / static_cast<double>(v.size());
  rel = mean > 0 ? (hi - lo) / mean : 0;
}

void summarize(Interval& iv) {
  std::vector<double> iops, mbps;
  for (const auto& d : iv.drives) {
    if (iv.cell_id.empty() && d.role == "measured") {
      iv.subtest = d.subtest;
      iv.cell_id = d.cell_id;
      iv.round = d.round;
    }
    if (!d.error.empty() && d.seconds <= 0) continue;
    iops.push_back(d.iops);
    mbps.push_back(d.mbps);
    iv.iops_sum += d.iops;
    iv.mbps_sum += d.mbps;
  }
  spread(iops, iv.iops_min, iv.iops_max, iv.iops_spread);
  spread(mbps, iv.mbps_min, iv.mbps_max, iv.mbps_spread);
}

const IntervalDrive* drive_in(const Interval& iv, const std::string& label) {
  for (const auto& d : iv.drives)
    if (d.label == label) return &d;
  return nullptr;
}

}  // namespace

Aggregate aggregate_from_log(const std::string& text, const std::vector<std::string>& labels) {
  Aggregate a;
  a.labels = labels;
  std::istringstream in(text);
  std::string line;
  std::map<std::pair<std::string, std::string>, size_t> last;
  std::vector<std::pair<std::string, std::string>> order;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("interval") || !j.contains("drives")) {
      ++a.skipped_lines;
      continue;
    }
    Interval iv;
    iv.number = j.value("interval", uint64_t{0});
    iv.kind = j.value("kind", std::string("timed"));
    for (const auto& d : j["drives"]) {
      IntervalDrive x;
      x.label = d.value("label", std::string());
      x.role = d.value("role", std::string());
      x.subtest = d.value("subtest", std::string());
      x.cell_id = d.value("cell_id", std::string());
      x.round = d.value("round", uint32_t{0});
      x.seconds = d.value("seconds", 0.0);
      x.iops = d.value("iops", 0.0);
      x.mbps = d.value("mbps", 0.0);
      x.io_errors = d.value("io_errors", uint64_t{0});
      x.error = d.value("error", std::string());
      iv.drives.push_back(std::move(x));
    }
    summarize(iv);
    a.intervals.push_back(std::move(iv));
    const Interval& back = a.intervals.back();
    if (back.kind == "timed" && !back.cell_id.empty()) {
      const auto key = std::make_pair(back.subtest, back.cell_id);
      if (!last.count(key)) order.push_back(key);
      last[key] = a.intervals.size() - 1;
    }
  }
  for (const auto& k : order) a.last_per_cell.push_back(last[k]);
  return a;
}

std::string aggregate_json(const Aggregate& a, const std::string& test_id) {
  auto interval_json = [&](const Interval& iv) {
    nlohmann::json j;
    j["interval"] = iv.number;
    j["kind"] = iv.kind;
    j["subtest"] = iv.subtest;
    j["round"] = iv.round;
    j["cell_id"] = iv.cell_id;
    j["iops_sum"] = iv.iops_sum;
    j["mbps_sum"] = iv.mbps_sum;
    j["iops"] = {{"min", iv.iops_min}, {"max", iv.iops_max}, {"relative_spread", iv.iops_spread}};
    j["mbps"] = {{"min", iv.mbps_min}, {"max", iv.mbps_max}, {"relative_spread", iv.mbps_spread}};
    nlohmann::json drives = nlohmann::json::array();
    for (const auto& d : iv.drives) {
      nlohmann::json x = {{"label", d.label}, {"role", d.role}, {"seconds", d.seconds}, {"iops", d.iops},
                          {"mbps", d.mbps},   {"io_errors", d.io_errors}};
      if (!d.error.empty()) x["error"] = d.error;
      drives.push_back(std::move(x));
    }
    j["drives"] = std::move(drives);
    return j;
  };
  nlohmann::json out;
  out["test_id"] = test_id;
  out["drives"] = a.labels;
  out["definition"] =
      "per interval (one lockstep cell, every drive in the same interval): IOPS and MB/s summed over the drives "
      "that ran it without an error, measured or serving as load; relative_spread = (max - min) / mean across "
      "those drives. by_cell: the last timed interval that ran each cell.";
  nlohmann::json by_cell = nlohmann::json::array();
  for (size_t k : a.last_per_cell) by_cell.push_back(interval_json(a.intervals[k]));
  out["by_cell"] = std::move(by_cell);
  nlohmann::json all = nlohmann::json::array();
  for (const auto& iv : a.intervals) all.push_back(interval_json(iv));
  out["intervals"] = std::move(all);
  out["skipped_log_lines"] = a.skipped_lines;
  return out.dump(2) + "\n";
}

report::Document aggregate_document(const Aggregate& a, const std::string& title) {
  report::Document doc;
  doc.title = title;
  doc.subject = "ptsuite multi-drive aggregate";
  auto table = [&](const std::string& id, const std::string& caption, const std::vector<size_t>& rows) {
    Table t;
    t.id = id;
    t.caption = caption;
    t.columns = {{"interval", "Interval", "0"}, {"subtest", "Sub-test", ""},  {"round", "Round", "0"},
                 {"cell", "Cell", "", 2},        {"iops_sum", "IOPS (sum)", "#,##0"},
                 {"mbps_sum", "MB/s (sum)", "#,##0.0"}, {"iops_min", "IOPS min", "#,##0"},
                 {"iops_max", "IOPS max", "#,##0"},     {"iops_spread", "IOPS spread", "0.0%"},
                 {"mbps_spread", "MB/s spread", "0.0%"}};
    for (const auto& l : a.labels) t.columns.push_back({"iops_" + l, l + " IOPS", "#,##0"});
    for (size_t k : rows) {
      const Interval& iv = a.intervals[k];
      std::vector<TableCell> r = {TableCell::num(static_cast<double>(iv.number)), TableCell::str(iv.subtest),
                                  TableCell::num(iv.round), TableCell::str(iv.kind == "fill" ? "fill" : iv.cell_id),
                                  TableCell::num(iv.iops_sum), TableCell::num(iv.mbps_sum),
                                  TableCell::num(iv.iops_min), TableCell::num(iv.iops_max),
                                  TableCell::num(iv.iops_spread), TableCell::num(iv.mbps_spread)};
      for (const auto& l : a.labels) {
        const IntervalDrive* d = drive_in(iv, l);
        if (!d) r.push_back(TableCell::str("—"));
        else if (!d->error.empty()) r.push_back(TableCell::str("failed"));
        else r.push_back(TableCell::num(d->iops));
      }
      t.rows.push_back(std::move(r));
    }
    t.notes = {"Summed over the drives that ran the interval without an error, each drive's job in the same "
               "interval (a drive past its own steady state runs it as load); spread = (max - min) / mean.",
               "Not a SNIA PTS figure: the PTS measures one drive; this is the system of drives in lockstep."};
    return t;
  };
  report::Page by_cell;
  by_cell.sheet_name = "By cell";
  by_cell.kind = report::PageKind::Raw;
  by_cell.title = title + " – per cell, its last interval";
  by_cell.header.organisation = "ptsuite";
  by_cell.header.spec = "Multi-drive aggregate (NOT A SNIA PTS TEST)";
  by_cell.header.test_page = title;
  by_cell.tables.push_back(table("by_cell", "Per cell: the last lockstep interval that ran it", a.last_per_cell));
  doc.pages.push_back(std::move(by_cell));
  report::Page all;
  all.sheet_name = "Intervals";
  all.kind = report::PageKind::Raw;
  all.title = title + " – every interval";
  all.header = doc.pages.front().header;
  std::vector<size_t> every(a.intervals.size());
  for (size_t k = 0; k < every.size(); ++k) every[k] = k;
  all.tables.push_back(table("intervals", "Every lockstep interval", every));
  doc.pages.push_back(std::move(all));
  return doc;
}

}  // namespace pts::qualify
