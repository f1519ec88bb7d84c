// app/cmd_compare.cpp — `ptsuite compare RUNDIR... [--baseline RUNDIR] [--out FILE.xlsx]
// [--allow-mismatch]`: loads complete runs (app/finished_runs.h), refuses runs that differ in
// an aspect a comparison must match (qualify/comparability.h; exit 2, naming each difference)
// unless --allow-mismatch, writes the side-by-side workbook (qualify/compare_workbook.h) and
// prints the headline figures with their deltas. Reads run.json only; never touches a device.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "app/commands.h"
#include "app/finished_runs.h"
#include "core/clock.h"
#include "qualify/comparability.h"
#include "qualify/compare_workbook.h"
#include "report/record_view.h"
#include "report/report.h"
#include "report/summary_page.h"
#include "report/template_loader.h"

namespace pts::app {

namespace {

constexpr const char* kName = "ptsuite compare";

int bad(const std::vector<std::string>& messages) {
  for (const auto& m : messages) std::fprintf(stderr, "%s: %s\n", kName, m.c_str());
  return 2;
}

bool same_dir(const std::string& a, const std::string& b) {
  std::error_code ea, eb;
  const auto ca = std::filesystem::weakly_canonical(a, ea), cb = std::filesystem::weakly_canonical(b, eb);
  return !ea && !eb ? ca == cb : a == b;
}

void print_headlines(const qualify::CompareInput& in) {
  std::printf("%-40s", "headline");
  for (const auto& r : in.runs) std::printf(" %18.18s", r.name.c_str());
  std::printf("\n");
  for (const auto& h : in.tmpl.headlines) {
    std::printf("%-40.40s", h.label.c_str());
    std::optional<double> base;
    for (size_t i = 0; i < in.runs.size(); ++i) {
      const auto v = report::headline_value(*in.runs[i].record, h);
      if (i == 0) base = v.value;
      std::string text = v.value ? report::trimmed_number(*v.value, 2) : "—";
      if (i > 0 && v.value && base && *base != 0) {
        char d[32];
        std::snprintf(d, sizeof d, " (%+.1f%%)", (*v.value - *base) / *base * 100.0);
        text += d;
      }
      std::printf(" %18s", text.c_str());
    }
    std::printf("\n");
  }
}

}  // namespace

int cmd_compare(const CompareArgs& args) {
  std::vector<std::string> errors = args.errors;
  std::vector<std::string> dirs = args.run_dirs;
  if (args.baseline && args.baseline->empty()) errors.push_back("--baseline: '' is not a run directory");
  if (args.out && args.out->empty()) errors.push_back("--out: '' is not a file name");
  if (args.baseline && !args.baseline->empty()) {
    size_t at = dirs.size();
    for (size_t i = 0; i < dirs.size(); ++i)
      if (same_dir(dirs[i], *args.baseline)) at = i;
    if (at < dirs.size()) dirs.erase(dirs.begin() + static_cast<long>(at));
    dirs.insert(dirs.begin(), *args.baseline);
  }
  if (dirs.empty()) errors.push_back("RUNDIR...: missing: give the run directories to compare (see ptsuite compare --help)");
  else if (dirs.size() < 2) errors.push_back("RUNDIR...: only " + dirs.front() + "; a comparison needs two runs or more");
  for (size_t i = 0; i < dirs.size(); ++i)
    for (size_t k = i + 1; k < dirs.size(); ++k)
      if (same_dir(dirs[i], dirs[k])) errors.push_back("RUNDIR...: " + dirs[k] + " is given twice");
  if (!errors.empty()) return bad(errors);

  auto loaded = load_finished_runs(dirs);
  if (!loaded) return bad(loaded.error().messages);
  std::vector<const model::RunRecord*> records;
  std::vector<std::string> names;
  for (const auto& r : *loaded) {
    records.push_back(&r.record);
    names.push_back(r.name);
  }
  qualify::CompareInput in;
  in.differences = qualify::differences(records, names);
  if (!in.differences.empty() && !args.allow_mismatch) {
    std::vector<std::string> m{"the runs are not comparable: " + std::to_string(in.differences.size()) +
                               " difference(s) (--allow-mismatch compares them anyway, listing each on the first page)"};
    for (const auto& d : in.differences) m.push_back("  " + d.text);
    return bad(m);
  }
  const auto& base = loaded->front().record;
  auto tmpl = report::load_template(base.plan.template_name.empty() ? base.plan.test_id : base.plan.template_name);
  if (!tmpl) return bad(tmpl.error().messages);
  in.tmpl = std::move(*tmpl);
  in.report_wall_ns = core::wall_ns();
  for (const auto& r : *loaded) in.runs.push_back({&r.record, r.name, r.dir});
  const std::string out = args.out.value_or("compare-" + base.plan.test_id + ".xlsx");
  auto written = report::write_document_files(qualify::compare_document(in), out, {}, in.report_wall_ns);
  if (!written) {
    for (const auto& m : written.error().messages) std::fprintf(stderr, "%s: %s\n", kName, m.c_str());
    return core::exit_code(written.error().kind);
  }
  std::printf("compared %zu runs of %s (baseline %s)\n", in.runs.size(), base.plan.test_id.c_str(),
              in.runs.front().name.c_str());
  for (const auto& d : in.differences) std::printf("NOT COMPARABLE (--allow-mismatch): %s\n", d.text.c_str());
  print_headlines(in);
  for (const auto& p : *written) std::printf("wrote %s\n", p.c_str());
  return 0;
}

}  // namespace pts::app
