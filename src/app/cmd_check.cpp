// app/cmd_check.cpp — `ptsuite check RUNDIR... --spec REQUIREMENTS.toml [--out DIR] [--json]`:
// reads the requirement sheet (config/requirements.h, figures checked by qualify) and complete
// runs (app/finished_runs.h),
// refuses what cannot be answered (exit 2: a bad sheet, a figure ptsuite does not record, a test
// point no run holds), holds every drive against every requirement (qualify/evaluate.h), writes
// check.xlsx and check.json, and prints each requirement's measured value, limit and margin.
// Exit 0 all pass, 6 any fails. Reads run.json only; never touches a device.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "app/finished_runs.h"
#include "app/json_out.h"
#include "config/requirements.h"
#include "core/clock.h"
#include "qualify/check_workbook.h"
#include "qualify/evaluate.h"
#include "report/record_view.h"
#include "report/report.h"

namespace pts::app {

namespace {

constexpr const char* kName = "ptsuite check";
constexpr int kExitFailed = 6;

int bad(const std::vector<std::string>& messages) {
  for (const auto& m : messages) std::fprintf(stderr, "%s: %s\n", kName, m.c_str());
  return 2;
}

nlohmann::json result_json(const model::RequirementSheet& sheet, const qualify::CheckOutcome& o) {
  nlohmann::json j;
  j["sheet"] = {{"file", sheet.file}, {"title", sheet.title}, {"source", sheet.source}};
  j["pass"] = o.all_pass();
  j["drives"] = nlohmann::json::array();
  for (const auto& d : o.drives) {
    nlohmann::json dj = {{"model", d.model},       {"serial", d.serial},   {"simulated", d.simulated},
                         {"scaled", d.scaled},     {"pass", d.failed() == 0}, {"failed", d.failed()},
                         {"requirements", nlohmann::json::array()}};
    for (const auto& r : d.results) {
      const auto& q = *r.requirement;
      dj["requirements"].push_back({{"id", q.id},
                                    {"text", q.text},
                                    {"line", q.source_line},
                                    {"point", r.point->name},
                                    {"test", r.point->test},
                                    {"cell", r.cell},
                                    {"figure", q.figure},
                                    {"unit", r.unit},
                                    {"limit_kind", q.kind == model::LimitKind::Floor ? "floor" : "ceiling"},
                                    {"limit", r.limit},
                                    {"measured", r.measured},
                                    {"margin", r.margin},
                                    {"margin_pct", r.margin_pct},
                                    {"pass", r.pass},
                                    {"run_dir", r.run_dir},
                                    {"window", r.window},
                                    {"steady_state", r.steady_state}});
    }
    j["drives"].push_back(std::move(dj));
  }
  return j;
}

void print_table(const qualify::CheckOutcome& o) {
  for (const auto& d : o.drives) {
    const size_t failed = d.failed();
    std::printf("%s: %s (%zu of %zu met)%s%s\n", d.label.c_str(), failed ? "FAIL" : "PASS", d.results.size() - failed,
                d.results.size(), d.simulated ? " [simulated drive]" : "", d.scaled ? " [scaled run]" : "");
    std::printf("  %-8s %-16s %-16s %14s %14s %14s %9s  %s\n", "req", "point", "figure", "measured", "limit", "margin",
                "margin%", "verdict");
    for (const auto& r : d.results) {
      const auto& q = *r.requirement;
      const std::string limit = (q.kind == model::LimitKind::Floor ? ">= " : "<= ") + report::trimmed_number(r.limit, 4);
      char margin[32];
      std::snprintf(margin, sizeof margin, "%+.4g", r.margin);
      char pct[32];
      std::snprintf(pct, sizeof pct, "%+.1f", r.margin_pct);
      std::printf("  %-8s %-16s %-16s %14s %14s %14s %9s  %s\n", q.id.c_str(), r.point->name.c_str(), q.figure.c_str(),
                  report::trimmed_number(r.measured, 4).c_str(), limit.c_str(), margin, pct, r.pass ? "PASS" : "FAIL");
    }
  }
}

}  // namespace

int cmd_check(const CheckArgs& args) {
  std::vector<std::string> errors = args.errors;
  if (!args.spec || args.spec->empty())
    errors.push_back("--spec: missing: the requirement sheet (e.g. tests-pts/requirements/ocp-datacenter-style.toml)");
  if (args.run_dirs.empty()) errors.push_back("RUNDIR...: missing: give the run directories to check (see ptsuite check --help)");
  if (args.out && args.out->empty()) errors.push_back("--out: '' is not a directory name");
  std::optional<model::RequirementSheet> sheet;
  if (args.spec && !args.spec->empty()) {
    auto loaded = config::load_requirement_sheet(*args.spec, qualify::figure_problem);
    if (!loaded) errors.insert(errors.end(), loaded.error().messages.begin(), loaded.error().messages.end());
    else sheet = std::move(*loaded);
  }
  std::vector<FinishedRun> runs;
  if (!args.run_dirs.empty()) {
    auto loaded = load_finished_runs(args.run_dirs);
    if (!loaded) errors.insert(errors.end(), loaded.error().messages.begin(), loaded.error().messages.end());
    else runs = std::move(*loaded);
  }
  if (!errors.empty()) return bad(errors);

  std::vector<qualify::CheckedRun> checked;
  for (const auto& r : runs) checked.push_back({&r.record, r.name, r.dir});
  const qualify::CheckOutcome outcome = qualify::evaluate(*sheet, checked);
  if (!outcome.unanswered.empty()) {
    std::vector<std::string> m = outcome.unanswered;
    m.push_back("the runs cannot answer " + std::to_string(outcome.unanswered.size()) +
                " requirement(s) of the sheet; nothing written");
    return bad(m);
  }
  const std::string dir = args.out.value_or(".");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return bad({"--out: cannot create " + dir + " (" + ec.message() + ")"});
  const uint64_t now = core::wall_ns();
  const nlohmann::json j = result_json(*sheet, outcome);
  auto written = report::write_document_files(qualify::check_document(*sheet, outcome, now), dir + "/check.xlsx",
                                              {{dir + "/check.json", json_text(j) + "\n"}}, now);
  if (!written) {
    for (const auto& m : written.error().messages) std::fprintf(stderr, "%s: %s\n", kName, m.c_str());
    return core::exit_code(written.error().kind);
  }
  if (args.json) {
    std::printf("%s\n", json_text(j).c_str());
  } else {
    std::printf("sheet: %s (%s)\n", sheet->title.c_str(), sheet->file.c_str());
    print_table(outcome);
    for (const auto& p : *written) std::printf("wrote %s\n", p.c_str());
  }
  return outcome.all_pass() ? 0 : kExitFailed;
}

}  // namespace pts::app
