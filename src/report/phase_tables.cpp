// report/phase_tables.cpp — see phase_tables.h.
#include "report/phase_tables.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <cstdio>
#include <set>

#include "core/units.h"
#include "report/record_view.h"

namespace pts::report {

namespace {

/// Column header of a per-cell metric on the phase pages.
std::string metric_header(const std::string& m) {
  static const std::map<std::string, std::string> names = {
      {"iops", "IOPS"},           {"read_iops", "Read IOPS"},    {"write_iops", "Write IOPS"},
      {"mbps", "MB/s"},           {"read_mbps", "Read MB/s"},    {"write_mbps", "Write MB/s"},
      {"art_ms", "ART (ms)"},     {"mrt_ms", "MRT (ms)"},        {"p99_ms", "2 nines (ms)"},
      {"p99_99_ms", "4 nines (ms)"}, {"p99_999_ms", "5 nines (ms)"}, {"cpu_pct", "CPU (% of one core)"}};
  auto it = names.find(m);
  return it == names.end() ? m : it->second;
}

std::string fmt_of(const std::string& metric) {
  const MetricInfo* m = find_metric(metric);
  return m ? std::string(m->number_format) : "General";
}

std::string titled(const model::SubTestPlan& p) { return p.title.empty() ? p.id : p.title; }

const char* axis_header(SampleAxis x) {
  switch (x) {
    case SampleAxis::Minutes: return "Time (min)";
    case SampleAxis::Tgbw: return "Total GiB written (TGBW)";
    case SampleAxis::DriveFills: return "Drive fills (written ÷ user capacity)";
    case SampleAxis::Sample: return "Sample";
    case SampleAxis::Round: return "Round";
    case SampleAxis::WriteMbps: return "Write MB/s achieved";
  }
  return "";
}

const char* axis_format(SampleAxis x) {
  switch (x) {
    case SampleAxis::Minutes: return "0.00";
    case SampleAxis::Tgbw: return "#,##0.000";
    case SampleAxis::DriveFills: return "0.000";
    case SampleAxis::Sample: return "0";
    case SampleAxis::Round: return "0.00";
    case SampleAxis::WriteMbps: return "#,##0.0";
  }
  return "General";
}

/// One cell of a sub-test's Rounds with the x values it ends at.
struct Sample {
  size_t subtest;
  const model::CellResult* cell;
  double minutes, tgbw, fills, index, round;
};

/// The samples of sub-test `si`; x runs on from `start` (the end of the sub-tests before it when
/// a table's time is continuous), which is left at this sub-test's end.
std::vector<Sample> samples_of(const model::RunRecord& rec, size_t si, Sample* start = nullptr) {
  std::vector<Sample> out;
  const auto* st = record_for(rec, rec.plan.subtests[si]);
  if (!st) return out;
  double seconds = start ? start->minutes * 60.0 : 0;
  double bytes = start ? start->tgbw * 1073741824.0 : 0;
  const double cap = rec.device.capacity_bytes ? static_cast<double>(rec.device.capacity_bytes) : 1.0;
  for (const auto& r : st->rounds) {
    const double n = static_cast<double>(std::max<size_t>(1, r.cells.size()));
    double k = 0;
    for (const auto& c : r.cells) {
      seconds += c.seconds;
      bytes += static_cast<double>(c.write_bytes);
      out.push_back({si, &c, seconds / 60.0, bytes / 1073741824.0, bytes / cap, static_cast<double>(out.size() + 1),
                     static_cast<double>(r.round) - 1 + ++k / n});
    }
    if (r.idle_after) seconds += static_cast<double>(r.idle_after->measured_ns) / 1e9;  // host idle is time too
  }
  if (start) start->minutes = seconds / 60.0, start->tgbw = bytes / 1073741824.0;
  return out;
}

/// Every sub-test's samples in scope order; with `continuous`, x runs on across them.
std::vector<std::vector<Sample>> scope_samples(const model::RunRecord& rec, const std::vector<size_t>& subtests,
                                               bool continuous) {
  std::vector<std::vector<Sample>> out;
  Sample at{};
  for (size_t si : subtests) out.push_back(samples_of(rec, si, continuous ? &at : nullptr));
  return out;
}

double x_of(const Sample& s, SampleAxis x) {
  switch (x) {
    case SampleAxis::Minutes: return s.minutes;
    case SampleAxis::Tgbw: return s.tgbw;
    case SampleAxis::DriveFills: return s.fills;
    case SampleAxis::Sample: return s.index;
    case SampleAxis::Round: return s.round;
    case SampleAxis::WriteMbps: return s.cell->write_mbps;
  }
  return 0;
}

/// Whether a sample's cell passes the table's filter (its plan cell's spec and id).
bool selected(const model::RunRecord& rec, const Sample& s, const CellFilter& f) {
  if (f.id_prefix.empty() && !f.read_pct && !f.block_bytes) return true;
  for (const auto& pc : rec.plan.subtests[s.subtest].cells)
    if (pc.id == s.cell->cell_id) return cell_matches(pc, f);
  return false;
}

Table samples_table(const TableSpec& spec, const Scope& scope) {
  const model::RunRecord& rec = *scope.record;
  Table t;
  t.columns.push_back({"x", axis_header(spec.x), axis_format(spec.x)});
  const auto all = scope_samples(rec, scope.subtests, spec.continuous_time);
  if (spec.series_by_subtest) {
    std::map<std::pair<size_t, std::string>, size_t> column;  // (scope index, cell id or "") -> column
    for (size_t k = 0; k < scope.subtests.size(); ++k) {
      const auto& sp = rec.plan.subtests[scope.subtests[k]];
      if (!spec.series_by_cell) {
        column[{k, ""}] = t.columns.size();
        t.columns.push_back({"st_" + sp.id, titled(sp), fmt_of(spec.metrics[0])});
        continue;
      }
      for (const auto& c : sp.cells) {
        column[{k, c.id}] = t.columns.size();
        t.columns.push_back({"st_" + sp.id + "_" + c.id, titled(sp) + " – " + c.label, fmt_of(spec.metrics[0])});
      }
    }
    for (size_t k = 0; k < scope.subtests.size(); ++k)
      for (const auto& s : all[k]) {
        if (!selected(rec, s, spec.filter)) continue;
        const auto col = column.find({k, spec.series_by_cell ? s.cell->cell_id : std::string()});
        if (col == column.end()) continue;  // a cell the plan does not list (a damaged record)
        std::vector<TableCell> row(t.columns.size());
        row[0] = TableCell::num(x_of(s, spec.x));
        row[col->second] = TableCell::num(metric_value(*s.cell, spec.metrics[0]));
        t.rows.push_back(std::move(row));
      }
  } else {
    for (const auto& m : spec.metrics) t.columns.push_back({m, metric_header(m), fmt_of(m)});
    std::vector<std::optional<double>> levels;
    for (const auto& key : spec.levels) {
      const model::Finding* f = find_finding(rec, scope.subtests, key);
      t.columns.push_back({key, f ? f->label : key, fmt_of(spec.metrics[0])});
      levels.push_back(f ? f->value : std::nullopt);
      if (!f || !f->value) t.notes.push_back((f ? f->label : key) + ": not defined for this run" +
                                             (f && !f->detail.empty() ? " (" + f->detail + ")" : ""));
    }
    std::optional<double> mark;
    const model::Finding* mf = spec.mark.empty() ? nullptr : find_finding(rec, scope.subtests, spec.mark);
    if (!spec.mark.empty()) {
      t.columns.push_back({spec.mark, mf ? mf->label : spec.mark, fmt_of(spec.metrics[0])});
      if (mf) mark = mf->value;
      if (!mark) t.notes.push_back((mf ? mf->label : spec.mark) + ": none" +
                                   (mf && !mf->detail.empty() ? " (" + mf->detail + ")" : ""));
    }
    for (const auto& samples : all)
      for (const auto& s : samples) {
        if (!selected(rec, s, spec.filter)) continue;
        std::vector<TableCell> row{TableCell::num(x_of(s, spec.x))};
        for (const auto& m : spec.metrics) row.push_back(TableCell::num(metric_value(*s.cell, m)));
        for (const auto& l : levels) row.push_back(l ? TableCell::num(*l) : TableCell{});
        if (!spec.mark.empty())
          row.push_back(mark && std::llround(*mark) == std::llround(s.index)
                            ? TableCell::num(metric_value(*s.cell, spec.metrics[0]))
                            : TableCell{});
        t.rows.push_back(std::move(row));
      }
  }
  if (t.rows.empty()) t.notes.push_back("No sample was recorded.");
  return t;
}

TableCell finding_value(const model::Finding& f) {
  return f.value ? TableCell::num(*f.value) : TableCell::str("undefined");
}

Table findings_table(const TableSpec& spec, const Scope& scope) {
  const model::RunRecord& rec = *scope.record;
  Table t;
  if (spec.keys.empty()) {  // long form: every finding of every sub-test in scope
    const bool many = scope.subtests.size() > 1;
    if (many) t.columns.push_back({"subtest", "Sub-test", "", 2});
    t.columns.push_back({"finding", "Finding", "", 3});
    t.columns.push_back({"value", "Value", "#,##0.00##"});
    t.columns.push_back({"unit", "Unit", ""});
    t.columns.push_back({"detail", "How it was derived", "", many ? 5 : 7});
    for (size_t si : scope.subtests) {
      const auto* st = record_for(rec, rec.plan.subtests[si]);
      if (!st) continue;
      for (const auto& f : st->findings) {
        std::vector<TableCell> row;
        if (many) row.push_back(TableCell::str(titled(rec.plan.subtests[si])));
        row.push_back(TableCell::str(f.label));
        row.push_back(finding_value(f));
        row.push_back(TableCell::str(f.unit));
        row.push_back(TableCell::str(f.detail));
        t.rows.push_back(std::move(row));
      }
    }
  } else {  // rows = sub-tests, column 0 = the first key (the x of a chart), then the others
    for (const auto& key : spec.keys) {
      const model::Finding* f = find_finding(rec, scope.subtests, key);
      std::string header = f ? f->label : key;
      if (f && !f->unit.empty() && f->unit != "ratio") header += " (" + f->unit + ")";
      t.columns.push_back({key, header, key == spec.keys.front() ? "General" : "#,##0.000"});
    }
    for (size_t si : scope.subtests) {
      const auto* st = record_for(rec, rec.plan.subtests[si]);
      if (!st || st->findings.empty()) continue;
      std::vector<TableCell> row;
      bool any = false;
      for (const auto& key : spec.keys) {
        const model::Finding* f = find_finding(rec, {si}, key);
        row.push_back(f ? finding_value(*f) : TableCell{});
        any = any || f;
      }
      if (any) t.rows.push_back(std::move(row));
    }
  }
  if (t.rows.empty()) t.notes.push_back("No finding was stored (the sub-test has not finished).");
  return t;
}

Table interpretations_table(const Scope& scope) {
  const model::TestPlan& plan = scope.record->plan;
  Table t;
  t.columns = {{"index", "No.", "0"}, {"reading", "How ptsuite read what the sources leave open (definition keys)", "", 11}};
  auto add = [&](const std::string& text) {
    t.rows.push_back({TableCell::num(static_cast<double>(t.rows.size() + 1)), TableCell::str(text)});
  };
  if (plan.time_scale != 1.0) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "Every phase length x %g of the specification's (--time-scale): a scaled run, "
                                   "not a compliant one.", plan.time_scale);
    add(buf);
  }
  for (const auto& i : plan.interpretations) add(i);
  if (t.rows.empty()) t.notes.push_back("None: this test has no unconfirmed detail.");
  return t;
}

Table points_table(const TableSpec& spec, const Scope& scope) {
  const model::RunRecord& rec = *scope.record;
  Table t;
  struct Point {
    long series;
    long demand;
    std::string series_label;
    double x, y;
  };
  std::vector<Point> pts;
  std::map<long, std::string> series;
  for (size_t si : scope.subtests) {
    const auto& sp = rec.plan.subtests[si];
    const auto* st = record_for(rec, sp);
    if (!st) continue;
    for (const auto& c : sp.cells) {
      if (!c.applicable || !cell_matches(c, spec.filter)) continue;
      const auto* w = find_window_result(*st, c.id);
      const auto x = w ? window_metric_value(*w, spec.x_metric) : std::nullopt;
      const auto y = w ? window_metric_value(*w, spec.metric) : std::nullopt;
      if (!x || !y) continue;
      long key = 0;
      std::string label;
      switch (spec.series_label) {
        case Dimension::Threads: key = c.spec.threads, label = "TC " + std::to_string(c.spec.threads); break;
        case Dimension::QueueDepth: key = c.spec.queue_depth, label = "QD " + std::to_string(c.spec.queue_depth); break;
        case Dimension::BlockSize: key = model::max_block_bytes(c.spec), label = core::format_block_size(model::max_block_bytes(c.spec)); break;
        case Dimension::RwMix: key = c.spec.read_pct, label = rw_mix_label(c.spec.read_pct); break;
        case Dimension::Cell: key = static_cast<long>(pts.size()), label = c.label.empty() ? c.id : c.label; break;
      }
      series.emplace(key, label);
      pts.push_back({key, static_cast<long>(c.spec.threads) * c.spec.queue_depth, label, *x, *y});
    }
  }
  std::sort(pts.begin(), pts.end(), [](const Point& a, const Point& b) {
    return a.series != b.series ? a.series > b.series : a.demand < b.demand;
  });
  t.columns.push_back({"x", metric_header(spec.x_metric), fmt_of(spec.x_metric)});
  std::map<long, size_t> column;
  for (auto it = series.rbegin(); it != series.rend(); ++it) {
    column[it->first] = t.columns.size();
    t.columns.push_back({"s_" + std::to_string(it->first), it->second, fmt_of(spec.metric)});
  }
  for (const auto& p : pts) {
    std::vector<TableCell> row(t.columns.size());
    row[0] = TableCell::num(p.x);
    row[column[p.series]] = TableCell::num(p.y);
    t.rows.push_back(std::move(row));
  }
  if (pts.empty()) t.notes.push_back("No demand point has a stored window result yet.");
  return t;
}

/// A stored histogram bucket's range [low, low + width) in ns (model/cell.h's layout).
std::pair<double, double> bucket_range(const model::LatencyHistogramRecord& h, uint32_t i) {
  const uint32_t s = 1u << h.sub_bucket_bits;
  if (i < 2 * s) return {static_cast<double>(i), 1.0};
  const uint32_t shift = i / s - 1;
  return {std::ldexp(static_cast<double>(s + i % s), static_cast<int>(shift)), std::ldexp(1.0, static_cast<int>(shift))};
}

Table histogram_table(const Scope& scope) {
  const model::RunRecord& rec = *scope.record;
  constexpr int kPerDecade = 5;  // display bins: 5 per decade of response time
  Table t;
  t.columns = {{"bin", "Response time ≤ (ms)", "0.000##"}, {"ios", "I/Os", "#,##0"},
               {"cum", "Cumulative (% of I/Os)", "0.000##"}, {"n3", "3 nines", "#,##0"},
               {"n4", "4 nines", "#,##0"}, {"n5", "5 nines", "#,##0"}};
  const model::CellResult* cap = nullptr;
  for (size_t si : scope.subtests)
    if (const auto* st = record_for(rec, rec.plan.subtests[si]))
      for (const auto& r : st->rounds)
        for (const auto& c : r.cells)
          if (c.cell_id == "capture") cap = &c;
  if (!cap) {
    t.notes.push_back("No capture was recorded (the point was not found, or the sub-test has not run).");
    return t;
  }
  std::map<int, double> bins;
  double total = 0;
  for (const auto* h : {&cap->read_histogram, &cap->write_histogram}) {
    if (h->sub_bucket_bits == 0) continue;
    for (const auto& b : h->buckets) {
      const auto [low, width] = bucket_range(*h, b.index);
      const double mid = std::max(1.0, low + width / 2);
      bins[static_cast<int>(std::floor(std::log10(mid) * kPerDecade))] += static_cast<double>(b.count);
      total += static_cast<double>(b.count);
    }
  }
  if (bins.empty()) {
    t.notes.push_back("The capture cell stored no latency histogram.");
    return t;
  }
  const auto& l = cap->latency;
  const double marks[3] = {static_cast<double>(l.p99_9_ns), static_cast<double>(l.p99_99_ns),
                           static_cast<double>(l.p99_999_ns)};
  double cum = 0;
  for (int k = bins.begin()->first; k <= bins.rbegin()->first; ++k) {
    const double upper_ns = std::pow(10.0, static_cast<double>(k + 1) / kPerDecade);
    const double lower_ns = std::pow(10.0, static_cast<double>(k) / kPerDecade);
    const double n = bins.count(k) ? bins[k] : 0;
    cum += n;
    std::vector<TableCell> row{TableCell::num(upper_ns / 1e6), n > 0 ? TableCell::num(n) : TableCell{},
                               TableCell::num(100.0 * cum / total)};
    for (double m : marks)  // the marker sits on the bin holding the stored percentile
      row.push_back(m >= lower_ns && m < upper_ns ? TableCell::num(std::max(n, 1.0)) : TableCell{});
    t.rows.push_back(std::move(row));
  }
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "%llu I/Os at TC %u / QD %u; 3 nines %.4f ms, 4 nines %.4f ms, 5 nines %.4f ms, MRT %.4f ms "
                "(the capture's stored percentiles; bins are 1/%d decade wide)",
                static_cast<unsigned long long>(l.samples), cap->spec.threads, cap->spec.queue_depth, marks[0] / 1e6,
                marks[1] / 1e6, marks[2] / 1e6, static_cast<double>(l.max_ns) / 1e6, kPerDecade);
  t.notes.push_back(buf);
  return t;
}

}  // namespace

const model::Finding* find_finding(const model::RunRecord& record, const std::vector<size_t>& subtests,
                                   const std::string& key, size_t* found_in) {
  for (size_t si : subtests) {
    const auto* st = record_for(record, record.plan.subtests[si]);
    if (!st) continue;
    for (const auto& f : st->findings)
      if (f.key == key) {
        if (found_in) *found_in = si;
        return &f;
      }
  }
  return nullptr;
}

/// A multi-job cell's jobs: a row per job whose id starts with the prefix (x = the number its
/// id ends with, a namespace), a column per cell of the sub-tests (a step) = the metric.
Table jobs_table(const TableSpec& spec, const Scope& scope) {
  const model::RunRecord& rec = *scope.record;
  Table t;
  t.columns.push_back({"x", "Job (namespace)", "0"});
  std::vector<const model::CellResult*> cells;
  for (size_t si : scope.subtests)
    if (const auto* st = record_for(rec, rec.plan.subtests[si]))
      for (const auto& r : st->rounds)
        for (const auto& c : r.cells)
          if (!c.jobs.empty()) {
            cells.push_back(&c);
            t.columns.push_back({c.cell_id, c.cell_id + ": " + metric_header(spec.metrics[0]), fmt_of(spec.metrics[0])});
          }
  std::vector<std::string> ids;
  for (const auto* c : cells)
    for (const auto& j : c->jobs)
      if (j.job && j.job->id.rfind(spec.job_prefix, 0) == 0 &&
          std::find(ids.begin(), ids.end(), j.job->id) == ids.end())
        ids.push_back(j.job->id);
  for (const auto& id : ids) {
    const size_t digits = id.find_last_not_of("0123456789") + 1;
    std::vector<TableCell> row{digits < id.size() ? TableCell::num(std::stod(id.substr(digits))) : TableCell::str(id)};
    for (const auto* c : cells) {
      TableCell v;
      for (const auto& j : c->jobs)
        if (j.job && j.job->id == id) v = TableCell::num(metric_value(j, spec.metrics[0]));
      row.push_back(v);
    }
    t.rows.push_back(std::move(row));
  }
  if (t.rows.empty()) t.notes.push_back("No job of a multi-job cell was recorded.");
  return t;
}

Table phase_table(const TableSpec& spec, const Scope& scope) {
  switch (spec.kind) {
    case TableKind::Jobs: return jobs_table(spec, scope);
    case TableKind::Samples: return samples_table(spec, scope);
    case TableKind::Findings: return findings_table(spec, scope);
    case TableKind::Interpretations: return interpretations_table(scope);
    case TableKind::Points: return points_table(spec, scope);
    case TableKind::Histogram: return histogram_table(scope);
    default: return {};
  }
}

}  // namespace pts::report
