// bench/report_render_bench.cpp — how long `ptsuite report` takes to render a full 25-Round
// IOPS record (56 cells × 25 Rounds, three Tracking Variables): layout alone, the xlsx alone,
// and all three formats written (what `report` does). Target: under a second. Not a test:
// timings on shared machines are noisy, so it prints the median of several runs.
//   usage: report_render_bench [RUNS] [OUTDIR]    (defaults: 7, /dev/shm or /tmp)
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "report/fixture_record.h"
#include "report/report.h"
#include "report/xlsx_writer.h"
#include "results/codec.h"

namespace {

double median_ms(int runs, const std::function<void()>& fn) {
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
  std::string out = argc > 2 ? argv[2] : (std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : "/tmp");
  out += "/ptsuite-report-bench-" + std::to_string(::getpid());
  std::filesystem::create_directories(out);

  const pts::model::RunRecord rec = pts::report::fixture::iops_not_steady_25(false);
  size_t cells = 0;
  for (const auto& r : rec.subtests[0].rounds) cells += r.cells.size();
  pts::report::ReportOptions o;
  o.record_json = pts::results::run_record_to_json_text(rec);
  bool ok = true;
  auto check = [&](const pts::core::Status& s) {
    if (!s.ok()) {
      std::fprintf(stderr, "%s\n", s.error().message().c_str());
      ok = false;
    }
  };

  pts::report::Document doc;
  const double layout = median_ms(runs, [&] {
    auto d = pts::report::render_document(rec, o);
    if (d.ok()) doc = *d;
    else ok = false;
  });
  const double xlsx = median_ms(runs, [&] { check(pts::report::write_xlsx(doc, out + "/bench.xlsx", 0)); });
  const double all = median_ms(runs, [&] {
    auto w = pts::report::write_reports(rec, out, o);
    if (!w.ok()) check(w.take_error());
  });
  std::filesystem::remove_all(out);
  if (!ok) return 1;
  std::printf("record: %zu Rounds x %zu cells = %zu cell results, %zu sheets\n", rec.subtests[0].rounds.size(),
              rec.plan.subtests[0].cells.size(), cells, doc.pages.size());
  std::printf("median of %d runs: layout %.1f ms, xlsx %.1f ms, xlsx+json+csv written %.1f ms\n", runs, layout, xlsx,
              all);
  std::printf("%s: full report %s 1 s\n", all < 1000.0 ? "OK" : "SLOW", all < 1000.0 ? "under" : "over");
  return 0;
}
