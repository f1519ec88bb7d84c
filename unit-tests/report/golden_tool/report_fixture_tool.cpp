// unit-tests/report/golden_tool/report_fixture_tool.cpp — writes the fixed RunRecords of
// fixture_record.h as run directories (run.json), renders each with report::write_reports
// (unless --no-render) and writes expected.json: the numbers and texts the openpyxl checker
// (check_workbook.py) must find in the workbook. Expectations are computed here from the
// record's raw cells, independently of report/.
//   usage: report_fixture_tool OUTDIR [--no-render]
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "report/fixture_record.h"
#include "report/report.h"
#include "results/codec.h"
#include "results/run_store.h"

using nlohmann::json;
namespace fx = pts::report::fixture;
namespace model = pts::model;

namespace {

json num_or_null(double v) { return std::isnan(v) ? json(nullptr) : json(v); }

/// Mean (or max) over the stored window Rounds of a cell's metric, from raw cells.
double window_value(const model::RunRecord& r, size_t si, const std::string& id, const std::string& metric,
                    bool max, double scale) {
  const auto& st = r.subtests[si];
  const uint32_t first = st.window_first_round, last = st.window_last_round;
  if (last == 0) return std::nan("");  // partial record: no Measurement Window, no window numbers
  double sum = 0, m = -1;
  int n = 0;
  for (uint32_t k = first; k <= last; ++k) {
    const double v = fx::cell_value(r, si, k, id, metric);
    if (std::isnan(v)) continue;
    sum += v;
    m = std::max(m, v);
    ++n;
  }
  if (n == 0) return std::nan("");
  return (max ? m : sum / n) * scale;
}

/// Expected matrix table: rows = block sizes ascending, columns = read % ascending.
json matrix(const model::RunRecord& r, const std::string& sheet, const std::string& caption,
            const std::vector<uint32_t>& sizes, const std::vector<uint32_t>& reads, const std::string& metric,
            bool max, double scale) {
  json rows = json::array();
  for (uint32_t bs : sizes) {
    json row = json::array({bs / 1024.0});
    for (uint32_t rd : reads) {
      const std::string id = "rw" + std::to_string(rd) + "-bs" + std::to_string(bs);
      double v = std::nan("");
      for (size_t si = 0; si < r.subtests.size(); ++si) {
        const double x = window_value(r, si, id, metric, max, scale);
        if (!std::isnan(x)) v = x;
      }
      row.push_back(num_or_null(v));
    }
    rows.push_back(row);
  }
  json header = json::array({"Block Size (KiB)"});
  for (uint32_t rd : reads) header.push_back(std::to_string(rd) + "/" + std::to_string(100 - rd));
  return {{"sheet", sheet}, {"caption", caption}, {"header", header}, {"rows", rows}};
}

json convergence(const model::RunRecord& r, size_t si, const std::string& sheet, const std::string& caption,
                 uint32_t read_pct, const std::string& metric, double scale) {
  std::vector<std::string> ids;
  for (const auto& c : r.plan.subtests[si].cells)
    if (c.spec.read_pct == read_pct && c.applicable) ids.push_back(c.id);
  json rows = json::array();
  for (const auto& round : r.subtests[si].rounds) {
    json row = json::array({round.round});
    for (const auto& id : ids) row.push_back(num_or_null(fx::cell_value(r, si, round.round, id, metric) * scale));
    rows.push_back(row);
  }
  return {{"sheet", sheet}, {"caption", caption}, {"rows", rows}};
}

/// Window table from the stored verdict (values, average, bands, fit), scaled for display.
json window(const model::RunRecord& r, size_t si, size_t tv, const std::string& sheet, double scale) {
  const auto& w = r.subtests[si].final_verdict->variables[tv].window;
  json rows = json::array();
  for (size_t i = 0; i < w.values.size(); ++i) {
    const double R = w.first_round + i, a = w.average * scale;
    rows.push_back({R, w.values[i] * scale, a, 1.1 * a, 0.9 * a, (w.slope * R + w.intercept) * scale});
  }
  return {{"sheet", sheet},
          {"caption", "Measurement Window: " + r.plan.subtests[si].tracking[tv].label},
          {"rows", rows}};
}

/// The window chart of a window page: exactly the five SNIA series, x axis = the window Rounds.
json window_chart(const model::RunRecord& r, size_t si, size_t tv, const std::string& sheet) {
  const auto& w = r.subtests[si].final_verdict->variables[tv].window;
  return {{"sheet", sheet},
          {"series", {r.plan.subtests[si].tracking[tv].label, "Average", "110 % of average", "90 % of average",
                      "Least-squares fit"}},
          {"x_min", w.first_round},
          {"x_max", w.last_round}};
}

/// Summary headline rows (label, value): the window mean of a cell's metric from raw cells.
json headline(const model::RunRecord& r, const std::string& label, const std::string& id, const std::string& metric,
              bool max, double scale) {
  return json::array({label, num_or_null(window_value(r, 0, id, metric, max, scale))});
}

/// What the title rows of every sheet hold (Summary, Deviations, report pages and Raw).
json common_header(const model::RunRecord& r) {
  json c = json::array({"SNIA SSS TWG", "Solid State Storage Performance Test Specification", "Fixture Storage Inc.",
                        "FX-9000 3.84TB", "SN FX12345678", "FW 1.2.3A", "3.5 TiB", "Report date:", "Test Run Date:",
                        "Run end:", "Tested by:", "Test sponsor:", "NAND type:", "Form factor:", "Notes:"});
  if (r.operator_fields.empty()) {
    c.push_back("not stated");
    c.push_back("n/a (not a PCIe device)");
  } else {
    for (const auto& f : r.operator_fields) {
      c.push_back(f.value);
      if (f.key == "lab_ticket") c.push_back("lab_ticket:");
    }
    c.push_back("PCIe Gen4 x4");
  }
  return c;
}

/// What the four header columns of every report page hold.
json report_header(const model::RunRecord& r) {
  json c = json::array({"Test Platform", "Device Under Test", "Set-up Parameters", "Test Parameters",
                        "3840755982336 B", "AMD EPYC 7302P 16-Core Processor", "24.0 GiB",
                        "Debian GNU/Linux 12 (bookworm)", "6.1.0-18-amd64", "ptsuite 0.1.0", "0123456789ab",
                        "file re-created — not a SNIA purge", "completed", "verified", "WIPC", "WDPC",
                        "disabled (WCD)", "100 %", "random", "Cells ran 5 s instead of the 60 s the specification requires.",
                        "File target: purged by re-creating the file, which is not a SNIA purge.",
                        "2× user capacity", "5 s per cell (spec: 60 s)"});
  c.push_back(std::to_string(r.device.lba_size) + " B (LBA format 0)");
  return c;
}

struct Fixture {
  std::string name;
  model::RunRecord record;
};

/// A stored finding's value (the procedure's own figure: what a finding headline prints).
double stored_finding(const model::RunRecord& r, const std::string& key) {
  for (const auto& st : r.subtests)
    for (const auto& f : st.findings)
      if (f.key == key && f.value) return *f.value;
  return std::nan("");
}

/// The fixtures of the tests with phases of their own: their pages, their finding headlines, and a table of each recomputed
/// here from the raw cells (sample time and IOPS, recovery ratios, the DIRTH demand matrix).
void phase_expectations(const std::string& name, const model::RunRecord& r, json& e) {
  e["report_sheets_contain"] = {"Test Platform", "Device Under Test", "Set-up Parameters", "Test Parameters"};
  e["every_sheet_absent"] = {"INCOMPLETE"};
  auto headline_of = [&](const std::string& label, const std::string& key) {
    e["headlines"].push_back(json::array({label, num_or_null(stored_finding(r, key))}));
  };
  if (name == "wsat") {
    e["sheets"] = {"Summary",           "IOPS vs Time",   "IOPS vs TGBW", "IOPS vs TGBW log",
                   "IOPS vs Drive Fills", "Response Times", "Findings",     "Raw"};
    headline_of("FOB plateau IOPS", "fob_plateau_iops");
    headline_of("Steady plateau IOPS", "steady_plateau_iops");
    json rows = json::array();
    double secs = 0;
    for (const auto& round : r.subtests[0].rounds) {
      secs += round.cells[0].seconds;
      rows.push_back({secs / 60, round.cells[0].iops});
    }
    e["tables"].push_back({{"sheet", "IOPS vs Time"},
                           {"caption", "One sample per minute of stimulus (scaled by --time-scale where stated)"},
                           {"rows", rows}});
  } else if (name == "hir") {
    e["sheets"] = {"Summary",      "Preconditioning", "SS Window 1", "Wait State 1",
                   "Wait State 2", "All Wait States", "Recovery",    "Raw"};
    // All wait states on one time axis (idle included, baselines included): per wait state one
    // column for Access A and one for Access C; x runs on from one wait state into the next.
    json all = json::array();
    double t = 0;
    for (size_t si = 1; si < r.subtests.size(); ++si)
      for (const auto& round : r.subtests[si].rounds) {
        for (const auto& c : round.cells) {
          t += c.seconds;
          json row = json::array({t / 60, nullptr, nullptr, nullptr, nullptr});
          row[1 + 2 * (si - 1) + (c.cell_id == "access-c" ? 1 : 0)] = c.iops;
          all.push_back(row);
        }
        if (round.idle_after) t += static_cast<double>(round.idle_after->measured_ns) / 1e9;
      }
    e["tables"].push_back({{"sheet", "All Wait States"},
                           {"caption", "IOPS of every Access A and Access C sample on one time axis; per wait state "
                                       "one series for Access A and one for its return to baseline (Access C)"},
                           {"rows", all}});
    const double base = r.subtests[0].final_verdict->variables[0].window.average;
    json rows = json::array();
    for (size_t si = 1; si < r.subtests.size(); ++si) {
      double a = 0;
      size_t n = 0;
      for (const auto& round : r.subtests[si].rounds)
        if (round.cells[0].cell_id == "access-a") a += round.cells[0].iops, ++n;
      rows.push_back({r.plan.params<model::HirPlan>()->wait_seconds[si - 1], a / n / base});
    }
    e["tables"].push_back({{"sheet", "Recovery"},
                           {"caption", "Per wait state: idle, recovery ratio, baseline, Access A and Access C IOPS, "
                                       "idle periods proven idle"},
                           {"rows", rows}});
    e["tables"].push_back(window(r, 0, 0, "SS Window 1", 1));
    e["window_charts"].push_back(window_chart(r, 0, 0, "SS Window 1"));
  } else if (name == "xsr") {
    e["sheets"] = {"Summary", "Throughput vs Time", "Response Time vs Time", "Access Groups", "Raw"};
    headline_of("Recovery time of Access Group 3", "recovery_minutes");
    json rows = json::array();
    double secs = 0;
    for (const auto& round : r.subtests[0].rounds) {
      secs += round.cells[0].seconds;
      rows.push_back({secs / 60, round.cells[0].mbps});
    }
    e["tables"].push_back({{"sheet", "Throughput vs Time"},
                           {"caption", "Throughput per sample; the dashed line is Access Group 1's mean (the "
                                       "recovery reference)"},
                           {"rows", rows}});
  } else {
    // The pages of the one implementation's DIRTH report (P1–P15), the histogram pages after
    // their pre-writes point by point; ECW's access probabilities first.
    e["sheets"] = {"Summary", "PC IOPS", "SS Window 1", "Round Pre-writes", "Top TC vs Round", "SS Window 2",
                   "Demand Variation", "Demand Intensity", "CPU", "Pre-writes 1", "Histogram 1", "Pre-writes 2",
                   "Histogram 2", "Pre-writes 3", "Histogram 3", "IOPS ART vs TOIO", "Readings", "Raw"};
    if (name == "ecw") {
      e["sheets"].insert(e["sheets"].begin() + 1, "Access Probabilities");
      // Share of all I/Os by size × LBA group: the size's share × the group's, computed here
      // from the fixture's mix (0.5, 1, 4, 8, 16, 32, 64 KiB; groups 50/30/20 %).
      json mix = json::array();
      const std::pair<const char*, double> sizes[] = {{"0.5 KiB", 4}, {"1 KiB", 6},  {"4 KiB", 67}, {"8 KiB", 10},
                                                      {"16 KiB", 7},  {"32 KiB", 3}, {"64 KiB", 3}};
      for (const auto& [bs, share] : sizes) mix.push_back({bs, share * 0.5, share * 0.3, share * 0.2, share});
      mix.push_back({"All block sizes", 50.0, 30.0, 20.0, 100.0});
      e["tables"].push_back({{"sheet", "Access Probabilities"},
                             {"caption", "Share of all I/Os (%) by block size and LBA group, as run"},
                             {"rows", mix}});
    }
    headline_of("MaxIOPS (highest IOPS with ART ≤ the ceiling)", "max_iops");
    headline_of("MinIOPS (TC 1 / QD 1)", "min_iops");
    json rows = json::array();
    for (uint32_t qd : {1u, 4u, 8u}) {
      json row = json::array({qd});
      for (uint32_t tc : {1u, 2u, 4u})
        row.push_back(num_or_null(window_value(r, 1, "tc" + std::to_string(tc) + "-qd" + std::to_string(qd), "iops",
                                               false, 1)));
      rows.push_back(row);
    }
    e["tables"].push_back({{"sheet", "Demand Variation"},
                           {"caption", "IOPS, mean over the Measurement Window (rows: QD; columns: TC)"},
                           {"header", {"QD (per thread)", "TC 1", "TC 2", "TC 4"}},
                           {"rows", rows}});
  }
}

/// The review-lab workloads (not SNIA PTS tests): every page says so and names ptsuite, not SNIA;
/// the per-run tables are recomputed here from the raw cells (warm-ups and ramps left out).
void review_expectations(const std::string& name, const model::RunRecord& r, json& e) {
  json every = json::array({"ptsuite", "Not a SNIA PTS test: a workload review labs run beside the PTS",
                            "NOT A SNIA PTS TEST — source: "});
  for (const auto& x : e["every_sheet_contains"])
    if (x != "SNIA SSS TWG" && x != "Solid State Storage Performance Test Specification") every.push_back(x);
  e["every_sheet_contains"] = every;
  e["report_sheets_contain"] = {"Test Platform", "Device Under Test", "Set-up Parameters", "Test Parameters",
                                "Preconditioning", "review (the lab's, not the PTS's): fill-64k"};
  e["every_sheet_absent"] = {"INCOMPLETE", "WDPC"};
  auto headline_of = [&](const std::string& label, const std::string& key) {
    e["headlines"].push_back(json::array({label, num_or_null(stored_finding(r, key))}));
  };
  const auto& cells = r.subtests.back().rounds.back().cells;
  auto measured = [](const model::CellResult& c) {
    const std::string& id = c.cell_id;
    return id.find("-warmup") == std::string::npos && id.find("-ramp") == std::string::npos;
  };
  json rows = json::array();
  if (name == "curve") {
    e["sheets"] = {"Summary", "Curve", "Points", "Findings", "Preconditioning", "Raw"};
    e["every_sheet_contains"].push_back("APPROXIMATION — built from a description of the profile");
    headline_of("Peak (the maximum run)", "peak_iops");
    headline_of("Mean response time at the peak", "peak_response_us");
    double peak = 0;
    for (const auto& c : cells)
      if (c.cell_id == "max") peak = c.iops;
    for (const auto& c : cells) {
      if (!measured(c)) continue;
      const bool paced = c.spec.rate_iops > 0;
      const double offered = static_cast<double>(c.spec.rate_iops);
      const std::string label = c.cell_id == "qd1" ? "QD 1" : c.cell_id == "max" ? "max"
                                : std::to_string(std::lround(offered / peak * 100)) + " %";
      const auto& svc = paced ? c.submission_latency : c.latency;
      rows.push_back({label, paced ? json(offered) : json("unpaced"), c.iops,
                      paced ? json(c.iops / offered * 100) : json(nullptr), c.latency.mean_ns / 1e3,
                      svc.mean_ns / 1e3, c.latency.p99_ns / 1e3, svc.p99_ns / 1e3, c.cpu_usr_pct + c.cpu_sys_pct});
    }
    e["tables"].push_back({{"sheet", "Points"},
                           {"caption", "Every measured run: offered and achieved rate, response and service time "
                                       "(means and 99th percentiles), CPU"},
                           {"rows", rows}});
  } else {
    e["sheets"] = {"Summary", "vs Depth", "vs Read Share", "Steps", "Findings", "Preconditioning", "Raw"};
    headline_of("Little's law at every step", "littles_law");
    headline_of("Writes stop climbing (0 % read), total QD", "climb_stops_rw0");
    for (const auto& c : cells) {
      if (!measured(c)) continue;
      const double depth = static_cast<double>(c.spec.threads) * c.spec.queue_depth;
      const double little = c.iops * c.latency.mean_ns / 1e9;
      rows.push_back({c.spec.read_pct, c.spec.threads, c.spec.queue_depth, depth, c.iops, c.latency.mean_ns / 1e3,
                      c.latency.p99_ns / 1e3, c.cpu_usr_pct + c.cpu_sys_pct, little, little / depth});
    }
    e["tables"].push_back({{"sheet", "Steps"},
                           {"caption", "Each measured step (ramps excluded); Little's law: IOPS × mean latency ≈ total QD"},
                           {"rows", rows}});
  }
}

void qos_expectations(const std::string& name, const model::RunRecord& r, json& e) {
  // Not a SNIA PTS test: the header names ptsuite and the source, never SNIA's specification.
  json every = json::array({"ptsuite", "NOT A SNIA PTS TEST — source: review lab, fio "});
  for (const auto& x : e["every_sheet_contains"])
    if (x != "SNIA SSS TWG" && x != "Solid State Storage Performance Test Specification") every.push_back(x);
  e["every_sheet_contains"] = every;
  e["report_sheets_contain"] = {"Test Platform", "Device Under Test", "Set-up Parameters", "Test Parameters",
                                "not a SNIA PTS test; nothing here is a PTS result [not-pts]",
                                "cells last 2 s instead of the 60 s the definition asks for [cell-seconds]"};
  e["every_sheet_absent"] = {"INCOMPLETE", "SNIA SSS TWG"};
  json rows = json::array();
  const auto& rounds = r.subtests.back().rounds;
  if (name == "pressure") {
    e["sheets"] = {"Summary", "Read mean", "Read 99 %", "Read 99.9 %", "Read 99.99 %", "Steps", "Interpretations", "Raw"};
    // x = the step's write MB/s achieved, the reads' 99.99 % (ms); the cap (the last step) marked.
    for (size_t k = 0; k < rounds.size(); ++k) {
      const auto& c = rounds[k].cells.front();
      const double p = static_cast<double>(c.read_latency.p99_99_ns) / 1e6;
      rows.push_back(k + 1 == rounds.size() ? json::array({c.write_mbps, p, p}) : json::array({c.write_mbps, p}));
    }
    e["tables"].push_back({{"sheet", "Read 99.99 %"},
                           {"caption", "Read latency 99.99 % (from each read's schedule) per step; the line stops at "
                                       "the cap, marked in red. Not a SNIA PTS test."},
                           {"rows", rows}});
  } else {
    e["sheets"] = {"Summary", "Namespaces 99.99 %", "Namespaces mean", "Findings", "Interpretations", "Raw"};
    // A row per quiet namespace's read job, a column per step: its reads' 99.99 % (ms).
    for (size_t j = 0; j < 3; ++j) {
      json row = json::array({j + 4});  // read4 … read6
      for (const auto& round : rounds)
        row.push_back(static_cast<double>(round.cells.front().jobs[j].read_latency.p99_99_ns) / 1e6);
      rows.push_back(row);
    }
    e["tables"].push_back({{"sheet", "Namespaces 99.99 %"},
                           {"caption", "Read latency 99.99 % (from each read's schedule) of each quiet namespace, per "
                                       "step. Not a SNIA PTS test."},
                           {"rows", rows}});
  }
}

json expectations(const Fixture& f) {
  const auto& r = f.record;
  json e;
  e["every_sheet_contains"] = common_header(r);
  e["report_sheets_contain"] = report_header(r);
  e["window_charts"] = json::array();
  e["headlines"] = json::array();
  e["tables"] = json::array();
  e["determinations"] = json::array();
  e["every_sheet_absent"] = json::array();
  std::vector<uint32_t> iops_sizes = {512, 4096, 8192, 16384, 32768, 65536, 131072, 1048576};
  std::vector<uint32_t> iops_reads = {0, 5, 35, 50, 65, 95, 100};
  const std::string iops_caption = "IOPS, mean over the Measurement Window (rows: block size; columns: R/W mix)";
  if (f.name == "iops_tv6" || f.name == "iops_interrupted") {
    e["sheets"] = {"Summary", "Convergence", "SS Window 1", "Table", "2D Plot", "3D Plot", "Raw"};
    e["every_sheet_contains"].push_back("PTS-E 1.1 (enterprise)");
    for (auto s : {"TC 4 / QD 32 (OIO 128)", "RND 4 KiB 0/100 IOPS",
                   "R/W mix (outer) 100/0, 95/5, 65/35, 50/50, 35/65, 5/95, 0/100",
                   "block size (inner) 1024 KiB, 128 KiB, 64 KiB, 32 KiB, 16 KiB, 8 KiB, 4 KiB, 0.5 KiB"})
      e["report_sheets_contain"].push_back(s);
    e["tables"].push_back(matrix(r, "Table", iops_caption, iops_sizes, iops_reads, "iops", false, 1));
    e["tables"].push_back(convergence(r, 0, "Convergence", "IOPS per Round, RND R/W 0/100, every block size", 0,
                                      "iops", 1));
  }
  if (f.name == "iops_tv6") {
    e["every_sheet_contains"].push_back("Steady state achieved (Measurement Window rounds 1–5)");
    e["every_sheet_absent"] = {"NOT achieved", "INCOMPLETE"};
    e["tables"].push_back(window(r, 0, 0, "SS Window 1", 1));
    e["window_charts"].push_back(window_chart(r, 0, 0, "SS Window 1"));
    e["headlines"].push_back(headline(r, "RND 4 KiB write IOPS (R/W 0/100)", "rw0-bs4096", "iops", false, 1));
    e["headlines"].push_back(headline(r, "RND 4 KiB read IOPS (R/W 100/0)", "rw100-bs4096", "iops", false, 1));
    e["headlines"].push_back(headline(r, "RND 128 KiB read MB/s (R/W 100/0)", "rw100-bs131072", "mbps", false, 1));
    // PTS-digest §9 TV-6, published figures.
    e["determinations"].push_back({{"sheet", "SS Window 1"},
                                   {"values",
                                    {{"Average value", 11726.8},
                                     {"Allowed maximum data excursion (20 % of average)", 2345.36},
                                     {"Measured data excursion (max − min)", 300.0},
                                     {"Allowed maximum slope excursion (10 % of average)", 1172.68},
                                     {"Measured slope excursion (|slope| × (last − first Round))", 25.6},
                                     {"Least-squares slope (per Round)", -6.4},
                                     {"Least-squares intercept", 11746.0},
                                     {"Least-squares fit", "−6.4·R + 11746"},
                                     {"Measurement Window", "Rounds 1–5"},
                                     {"Steady state in this window", "yes"}}}});
  }
  if (f.name == "iops_interrupted") {
    e["every_sheet_contains"].push_back("INCOMPLETE RUN — partial results");
    e["every_sheet_contains"].push_back("Steady state NOT determined — partial (rounds 1–3 reported)");
    e["report_sheets_contain"].push_back("The run was interrupted during Round 3; results are partial.");
  }
  if (f.name == "iops_not_steady_25") {
    e["sheets"] = {"Summary", "Deviations", "Convergence", "SS Window 1", "SS Window 2", "SS Window 3", "Table",
                   "2D Plot", "3D Plot", "Raw"};
    e["every_sheet_contains"].push_back("Steady state NOT achieved (rounds 21–25 reported)");
    e["every_sheet_contains"].push_back("PTS 2.0.2 (enterprise)");
    e["report_sheets_contain"].push_back("0.5 KiB cells omitted: the namespace uses 4096 B logical blocks.");
    e["report_sheets_contain"].push_back("… and 1 more deviations: see the Deviations page.");
    e["every_sheet_absent"] = {"INCOMPLETE", "Steady state achieved"};
    e["tables"].push_back(matrix(r, "Table", iops_caption, iops_sizes, iops_reads, "iops", false, 1));
    for (size_t tv = 0; tv < 3; ++tv) {
      e["tables"].push_back(window(r, 0, tv, "SS Window " + std::to_string(tv + 1), 1));
      e["window_charts"].push_back(window_chart(r, 0, tv, "SS Window " + std::to_string(tv + 1)));
    }
    e["determinations"].push_back(
        {{"sheet", "SS Window 1"}, {"values", {{"Steady state in this window", "NO"}, {"Slope excursion criterion", "NOT met"}}}});
  }
  if (f.name == "throughput") {
    e["sheets"] = {"Summary", "Convergence bs128k", "Convergence bs1024k", "SS Window 1", "SS Window 2", "Table", "Raw"};
    e["report_sheets_contain"].push_back("TC 1 / QD 32 (OIO 32)");
    e["every_sheet_absent"] = {"NOT achieved", "INCOMPLETE"};
    e["tables"].push_back(matrix(r, "Table", "MB/s (10^6 B/s), mean over each sub-test's Measurement Window",
                                 {131072, 1048576}, {0, 100}, "mbps", false, 1));
    e["tables"].push_back(window(r, 1, 0, "SS Window 2", 1));
    e["window_charts"].push_back(window_chart(r, 1, 0, "SS Window 2"));
    e["headlines"].push_back(headline(r, "SEQ 128 KiB read MB/s", "rw100-bs131072", "mbps", false, 1));
    e["determinations"].push_back({{"sheet", "SS Window 2"},
                                   {"values",
                                    {{"Average value", 1072.38},
                                     {"Allowed maximum data excursion (20 % of average)", 214.476},
                                     {"Measured data excursion (max − min)", 39.48},
                                     {"Allowed maximum slope excursion (10 % of average)", 107.238},
                                     {"Measured slope excursion (|slope| × (last − first Round))", 13.464},
                                     {"Least-squares slope (per Round)", -3.366},
                                     {"Least-squares intercept", 1082.478},
                                     {"Least-squares fit", "−3.366·R + 1082.478"}}}});
  }
  if (f.name == "latency") {
    e["sheets"] = {"Summary", "Convergence", "SS Window 1", "ART", "5 Nines", "MRT", "IOPS", "Raw"};
    e["every_sheet_contains"].push_back("Steady state achieved (Measurement Window rounds 3–7)");
    e["report_sheets_contain"].push_back("TC 1 / QD 1 (OIO 1)");
    e["every_sheet_absent"] = {"NOT achieved", "INCOMPLETE"};
    const std::vector<uint32_t> sizes = {512, 4096, 8192}, reads = {0, 65, 100};
    e["tables"].push_back(matrix(r, "ART", "ART (ms), mean over the Measurement Window", sizes, reads,
                                 "mean_latency_ns", false, 1e-6));
    e["tables"].push_back(matrix(r, "5 Nines", "99.999 % response time (ms) of all the Measurement Window's I/Os (Rounds' histograms merged)", sizes,
                                 reads, "p99_999_ns", false, 1e-6));
    e["tables"].push_back(matrix(r, "MRT", "MRT (ms), maximum over the Measurement Window", sizes, reads,
                                 "max_latency_ns", true, 1e-6));
    e["tables"].push_back(matrix(r, "IOPS", "IOPS, mean over the Measurement Window", sizes, reads, "iops", false, 1));
    e["tables"].push_back(window(r, 0, 0, "SS Window 1", 1e-6));
    e["window_charts"].push_back(window_chart(r, 0, 0, "SS Window 1"));
    e["headlines"].push_back(headline(r, "RND 4 KiB write ART (R/W 0/100)", "rw0-bs4096", "mean_latency_ns", false, 1e-6));
    e["headlines"].push_back(headline(r, "RND 4 KiB write 5 nines (99.999 %)", "rw0-bs4096", "p99_999_ns", false, 1e-6));
    e["headlines"].push_back(headline(r, "RND 4 KiB write MRT (R/W 0/100)", "rw0-bs4096", "max_latency_ns", true, 1e-6));
  }
  if (f.name == "wsat" || f.name == "hir" || f.name == "xsr" || f.name == "dirth" || f.name == "ecw")
    phase_expectations(f.name, r, e);
  if (f.name == "curve" || f.name == "sweep") review_expectations(f.name, r, e);
  if (f.name == "pressure" || f.name == "neighbour") qos_expectations(f.name, r, e);
  // Raw sheet: every Round's every cell.
  size_t cells = 0;
  json spot = json::array();
  for (size_t si = 0; si < r.subtests.size(); ++si)
    for (const auto& round : r.subtests[si].rounds)
      for (const auto& c : round.cells) {
        if (cells % 17 == 0 || &c == &round.cells.back())
          spot.push_back({{"index", cells}, {"Round", round.round}, {"Cell", c.cell_id}, {"IOPS", c.iops},
                          {"MB/s", c.mbps}, {"ART (ns)", c.latency.mean_ns}});
        ++cells;
      }
  e["raw"] = {{"sheet", "Raw"}, {"rows", cells}, {"spot", spot}};
  return e;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: report_fixture_tool OUTDIR [--no-render]\n");
    return 2;
  }
  const std::string out = argv[1];
  const bool render = !(argc > 2 && std::string(argv[2]) == "--no-render");
  const Fixture fixtures[] = {{"iops_tv6", fx::iops_tv6()},
                              {"iops_not_steady_25", fx::iops_not_steady_25()},
                              {"throughput", fx::throughput_two_subtests()},
                              {"latency", fx::latency_steady()},
                              {"iops_interrupted", fx::iops_interrupted()},
                              {"wsat", fx::wsat_fixture()},
                              {"hir", fx::hir_fixture()},
                              {"xsr", fx::xsr_fixture()},
                              {"dirth", fx::dirth_fixture(false)},
                              {"ecw", fx::dirth_fixture(true)},
                              {"curve", fx::curve_fixture()},
                              {"sweep", fx::sweep_fixture()},
                              {"pressure", fx::pressure_fixture()},
                              {"neighbour", fx::neighbour_fixture()}};
  for (const auto& f : fixtures) {
    const std::string dir = out + "/" + f.name;
    std::filesystem::create_directories(dir);
    auto saved = pts::results::save_run_json(f.record, dir);
    if (!saved) {
      std::fprintf(stderr, "%s\n", saved.error().message().c_str());
      return 1;
    }
    json e = expectations(f);
    e["workbook"] = f.record.plan.test_id + ".xlsx";
    e["csv"] = {{"path", "csv/" + f.record.plan.test_id + ".csv"}, {"rows", e["raw"]["rows"]}};
    std::ofstream(dir + "/expected.json") << e.dump(1) << "\n";
    if (render) {
      pts::report::ReportOptions o;
      o.record_json = pts::results::run_record_to_json_text(f.record);
      o.report_wall_ns = 1795100000000000000ull;
      auto w = pts::report::write_reports(f.record, dir, o);
      if (!w) {
        std::fprintf(stderr, "%s: %s\n", f.name.c_str(), w.error().message().c_str());
        return 1;
      }
    }
    std::printf("%s\n", dir.c_str());
  }
  return 0;
}
