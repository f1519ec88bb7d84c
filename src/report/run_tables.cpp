// report/run_tables.cpp — see run_tables.h.
#include "report/run_tables.h"

#include <cmath>
#include <functional>
#include <map>

#include "report/record_view.h"

namespace pts::report {

namespace {

/// One measured run and what it is measured against.
struct Run {
  const model::CellResult* cell;
  double peak_iops;  ///< the sub-test's unpaced "max" run, 0 when it has none
};

struct RunMetric {
  const char* header;
  const char* format;
  std::function<TableCell(const Run&)> value;
};

bool excluded(const std::string& id) {
  auto ends = [&](const char* s) {
    const std::string t(s);
    return id.size() > t.size() && id.compare(id.size() - t.size(), t.size(), t) == 0;
  };
  return ends("-warmup") || ends("-ramp");
}

bool paced(const Run& r) { return r.cell->spec.rate_iops > 0; }
double service_mean(const Run& r) { return paced(r) ? r.cell->submission_latency.mean_ns : r.cell->latency.mean_ns; }
uint64_t service_p99(const Run& r) { return paced(r) ? r.cell->submission_latency.p99_ns : r.cell->latency.p99_ns; }
double total_qd(const Run& r) { return static_cast<double>(r.cell->spec.threads) * r.cell->spec.queue_depth; }

std::string point_label(const Run& r) {
  const auto& id = r.cell->cell_id;
  if (id == "max") return "max";
  if (id == "qd1") return "QD 1";
  if (paced(r) && r.peak_iops > 0)
    return trimmed_number(std::round(static_cast<double>(r.cell->spec.rate_iops) / r.peak_iops * 100), 0) + " %";
  return id;
}

const std::map<std::string, RunMetric>& run_metrics() {
  using C = TableCell;
  static const std::map<std::string, RunMetric> m = {
      {"label", {"Point", "", [](const Run& r) { return C::str(point_label(r)); }}},
      {"fraction_pct", {"Offered (% of max)", "0.0",
                        [](const Run& r) {
                          return paced(r) && r.peak_iops > 0 ? C::num(static_cast<double>(r.cell->spec.rate_iops) / r.peak_iops * 100)
                                                             : C{};
                        }}},
      {"offered_iops", {"Offered IOPS", "#,##0", [](const Run& r) {
                          return paced(r) ? C::num(static_cast<double>(r.cell->spec.rate_iops)) : C::str("unpaced");
                        }}},
      {"iops", {"Achieved IOPS", "#,##0", [](const Run& r) { return C::num(r.cell->iops); }}},
      {"achieved_pct", {"Achieved ÷ offered (%)", "0.0", [](const Run& r) {
                          return paced(r) ? C::num(r.cell->iops / static_cast<double>(r.cell->spec.rate_iops) * 100) : C{};
                        }}},
      {"response_us", {"Response time, mean (µs)", "#,##0.0", [](const Run& r) { return C::num(r.cell->latency.mean_ns / 1e3); }}},
      {"service_us", {"Service time, mean (µs)", "#,##0.0", [](const Run& r) { return C::num(service_mean(r) / 1e3); }}},
      {"response_p99_us", {"Response time, 99 % (µs)", "#,##0.0",
                           [](const Run& r) { return C::num(static_cast<double>(r.cell->latency.p99_ns) / 1e3); }}},
      {"service_p99_us", {"Service time, 99 % (µs)", "#,##0.0",
                          [](const Run& r) { return C::num(static_cast<double>(service_p99(r)) / 1e3); }}},
      {"mean_us", {"Mean latency (µs)", "#,##0.0", [](const Run& r) { return C::num(r.cell->latency.mean_ns / 1e3); }}},
      {"p99_us", {"99 % latency (µs)", "#,##0.0",
                  [](const Run& r) { return C::num(static_cast<double>(r.cell->latency.p99_ns) / 1e3); }}},
      {"p99_99_us", {"99.99 % latency (µs)", "#,##0.0",
                     [](const Run& r) { return C::num(static_cast<double>(r.cell->latency.p99_99_ns) / 1e3); }}},
      {"cpu_pct", {"CPU (% of one core)", "0.0", [](const Run& r) { return C::num(r.cell->cpu_usr_pct + r.cell->cpu_sys_pct); }}},
      {"total_qd", {"Total QD (workers × outstanding)", "0", [](const Run& r) { return C::num(total_qd(r)); }}},
      {"workers", {"Workers (TC)", "0", [](const Run& r) { return C::num(r.cell->spec.threads); }}},
      {"outstanding", {"Outstanding per worker (QD)", "0", [](const Run& r) { return C::num(r.cell->spec.queue_depth); }}},
      {"read_pct", {"Read share (%)", "0", [](const Run& r) { return C::num(r.cell->spec.read_pct); }}},
      {"littles_oio", {"IOPS × mean latency (I/Os)", "#,##0.00",
                       [](const Run& r) { return C::num(r.cell->iops * r.cell->latency.mean_ns / 1e9); }}},
      {"littles_ratio", {"Little's law ÷ total QD", "0.000", [](const Run& r) {
                           return C::num(r.cell->iops * r.cell->latency.mean_ns / 1e9 / total_qd(r));
                         }}},
      {"read_iops", {"Read IOPS", "#,##0", [](const Run& r) { return C::num(r.cell->read_iops); }}},
      {"write_iops", {"Write IOPS", "#,##0", [](const Run& r) { return C::num(r.cell->write_iops); }}},
      {"mbps", {"MB/s", "#,##0.00", [](const Run& r) { return C::num(r.cell->mbps); }}},
  };
  return m;
}

}  // namespace

bool is_run_metric(const std::string& name) { return run_metrics().count(name) != 0; }

std::string run_metric_names() {
  std::string out;
  for (const auto& [k, _] : run_metrics()) out += (out.empty() ? "" : ", ") + k;
  return out;
}

Table runs_table(const TableSpec& spec, const Scope& scope) {
  const model::RunRecord& rec = *scope.record;
  std::vector<Run> runs;
  for (size_t si : scope.subtests) {
    const auto* st = record_for(rec, rec.plan.subtests[si]);
    if (!st || st->rounds.empty()) continue;
    double peak = 0;
    for (const auto& c : st->rounds.back().cells)
      if (c.cell_id == "max") peak = c.iops;
    for (const auto& c : st->rounds.back().cells) {
      if (excluded(c.cell_id) || c.cell_id.rfind(spec.filter.id_prefix, 0) != 0) continue;
      if (spec.filter.read_pct && c.spec.read_pct != *spec.filter.read_pct) continue;
      runs.push_back({&c, peak});
    }
  }
  Table t;
  const RunMetric& x = run_metrics().at(spec.x_metric);
  t.columns.push_back({spec.x_metric, x.header, x.format});
  if (spec.pivot.empty()) {
    for (const auto& k : spec.metrics) {
      const RunMetric& m = run_metrics().at(k);
      t.columns.push_back({k, m.header, m.format});
    }
    for (const Run& r : runs) {
      std::vector<TableCell> row{x.value(r)};
      for (const auto& k : spec.metrics) row.push_back(run_metrics().at(k).value(r));
      t.rows.push_back(std::move(row));
    }
  } else {  // one column of metrics[0] per value of the pivot, in the order first seen
    const RunMetric& m = run_metrics().at(spec.metrics.front());
    const RunMetric& by = run_metrics().at(spec.pivot);
    std::map<double, size_t> column;
    for (const Run& r : runs) {
      const double v = by.value(r).number;
      if (column.count(v)) continue;
      column[v] = t.columns.size();
      t.columns.push_back({spec.pivot + "_" + trimmed_number(v, 3), std::string(m.header) + ", " +
                                                                         (spec.pivot == "read_pct" ? trimmed_number(v, 3) + " % read"
                                                                                                   : "total QD " + trimmed_number(v, 0)),
                           m.format});
    }
    for (const Run& r : runs) {
      std::vector<TableCell> row(t.columns.size());
      row[0] = x.value(r);
      row[column[by.value(r).number]] = m.value(r);
      t.rows.push_back(std::move(row));
    }
  }
  if (t.rows.empty()) t.notes.push_back("No run was recorded yet.");
  return t;
}

}  // namespace pts::report
