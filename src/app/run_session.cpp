// app/run_session.cpp — see run_session.h.
#include "app/run_session.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "app/progress.h"
#include "app/signals.h"
#include "core/atomic_file.h"
#include "core/clock.h"
#include "report/pdf_render.h"
#include "core/units.h"
#include "results/run_store.h"

namespace pts::app {

namespace {

std::string first_line_with(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) return line;
  return "";
}

std::string after_colon(const std::string& line) {
  auto p = line.find(':');
  if (p == std::string::npos) return "";
  auto v = line.substr(p + 1);
  while (!v.empty() && v.front() == ' ') v.erase(v.begin());
  return v;
}

const char* state_text(model::RunState s) {
  switch (s) {
    case model::RunState::Complete: return "complete";
    case model::RunState::Interrupted: return "interrupted";
    case model::RunState::Failed: return "failed";
    case model::RunState::Running: break;
  }
  return "running";
}

void print_summary(const char* command, const std::string& run_dir, const model::RunRecord& rec) {
  std::printf("ptsuite %s: %s on %s (%s, serial %s) — run %s\n", command, rec.plan.title.c_str(),
              rec.device.path.c_str(), rec.device.model.c_str(), rec.device.serial.c_str(), state_text(rec.state));
  for (size_t i = 0; i < rec.subtests.size(); ++i) {
    const auto& s = rec.subtests[i];
    const auto& sp = rec.plan.subtests.at(i);
    uint64_t max_gap = 0;
    double gap_sum = 0;
    size_t gaps = 0;
    for (const auto& r : s.rounds) {
      max_gap = std::max(max_gap, r.max_cell_gap_ns);
      for (uint64_t g : r.cell_gaps_ns) gap_sum += static_cast<double>(g), ++gaps;
    }
    std::printf("  %s: %zu round(s)", sp.title.empty() ? sp.id.c_str() : sp.title.c_str(), s.rounds.size());
    if (s.complete && !s.final_verdict && !s.findings.empty()) {
      std::printf(", done\n");
    } else if (s.complete) {
      if (s.steady_state_reached)
        std::printf(", steady state reached in round %u; Measurement Window rounds %u-%u\n", s.window_last_round,
                    s.window_first_round, s.window_last_round);
      else
        std::printf(", steady state NOT achieved by round %u; Measurement Window rounds %u-%u reported\n",
                    s.window_last_round, s.window_first_round, s.window_last_round);
    } else {
      std::printf(", not finished\n");
    }
    if (s.final_verdict)
      for (const auto& v : s.final_verdict->variables)
        std::printf("    %s: window average %.6g, data excursion %.4g (allowed %.4g), slope excursion %.4g (allowed %.4g)\n",
                    v.variable.label.c_str(), v.window.average, v.window.data_excursion,
                    v.window.allowed_data_excursion, v.window.slope_excursion, v.window.allowed_slope_excursion);
    for (const auto& f : s.findings) {
      if (!f.value) {
        std::printf("    %s: %s\n", f.label.c_str(), f.detail.empty() ? "undefined" : f.detail.c_str());
        continue;
      }
      std::printf("    %s: %.6g %s%s%s\n", f.label.c_str(), *f.value, f.unit.c_str(), f.detail.empty() ? "" : " — ",
                  f.detail.c_str());
    }
    if (gaps)
      std::printf("    gap between cells: mean %.3f ms, max %.3f ms over %zu gaps\n", gap_sum / gaps / 1e6,
                  static_cast<double>(max_gap) / 1e6, gaps);
  }
  if (!rec.deviations.empty()) {
    std::printf("  deviations from the spec (%zu):\n", rec.deviations.size());
    for (const auto& d : rec.deviations) std::printf("    [%s] %s\n", d.code.c_str(), d.text.c_str());
  }
  for (auto t = rec.transitions.rbegin(); t != rec.transitions.rend(); ++t)
    if (t->state == "WriteCacheRestored") {  // the operator's setting, set back when the run ended
      std::printf("  write cache: %s\n", t->detail.c_str());
      break;
    }
  std::printf("  run directory: %s\n", run_dir.c_str());
}

}  // namespace

model::HostInfo collect_host_info() {
  model::HostInfo h;
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) == 0) h.hostname = name;
  h.cpu_model = after_colon(first_line_with("/proc/cpuinfo", "model name"));
  const long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
  h.cpu_count = cpus > 0 ? static_cast<uint32_t>(cpus) : 0;
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) h.memory_bytes = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
  std::string os = first_line_with("/etc/os-release", "PRETTY_NAME=");
  if (!os.empty()) {
    os = os.substr(12);
    if (os.size() >= 2 && os.front() == '"') os = os.substr(1, os.size() - 2);
  }
  h.os = os;
  struct utsname u {};
  if (::uname(&u) == 0) h.kernel = std::string(u.sysname) + " " + u.release + " " + u.machine;
  return h;
}

SessionOptions session_options(const SessionArgs& args, std::vector<std::string>& errors) {
  SessionOptions options;
  options.write_report = !args.no_report;
  options.quiet = args.quiet;
  if (args.format) {
    auto f = report::parse_report_formats(*args.format, "--format");
    if (!f.ok()) errors.insert(errors.end(), f.error().messages.begin(), f.error().messages.end());
    else options.formats = *f;
  }
  // A PDF needs LibreOffice: known now, before the first device I/O, not after a long run.
  if (options.formats.pdf && options.write_report)
    if (auto soffice = report::find_soffice(); !soffice.ok())
      errors.insert(errors.end(), soffice.error().messages.begin(), soffice.error().messages.end());
  return options;
}

int run_session(const char* command, const std::string& run_dir, engine::IoEngine& engine,
                device::TargetDevice& device, core::Clock& clock, results::JournalSink& sink,
                const model::TestPlan& plan, const SessionOptions& options,
                const std::function<runner::RunResult(runner::RunEnv&)>& go) {
  ProgressDisplay progress(plan, ::isatty(STDERR_FILENO) != 0, options.quiet);
  StopFlags& flags = stop_flags();
  install_stop_handlers();
  runner::RunEnv env{engine, device, clock, sink, {&flags.stop_after_cell, &flags.abort_now}, &progress};
  runner::RunResult res = go(env);
  remove_stop_handlers();
  return finish_session(command, run_dir, res, options);
}

int finish_session(const char* command, const std::string& run_dir, runner::RunResult& res,
                   const SessionOptions& options) {
  if (res.journaled && options.write_report) {
    report::ReportOptions ropt;
    ropt.formats = options.formats;
    auto text = core::read_file(run_dir + "/" + results::kRunJson);
    if (text.ok()) ropt.record_json = *text;
    auto written = report::write_reports(res.record, run_dir, ropt);
    if (!written.ok()) {
      std::fprintf(stderr, "ptsuite %s: the report could not be written (run.json is complete; retry with "
                           "`ptsuite report %s`):\n", command, run_dir.c_str());
      for (const auto& m : written.error().messages) std::fprintf(stderr, "  %s\n", m.c_str());
      if (!res.error && res.record.state == model::RunState::Complete) {  // the run itself is fine: not bad input
        res.error = written.error();
        res.error->kind = core::ErrorKind::Internal;
      }
    } else if (!options.quiet) {
      for (const auto& f : *written) std::fprintf(stderr, "report: %s\n", f.c_str());
    }
  }
  if (res.journaled) print_summary(command, run_dir, res.record);
  std::fflush(stdout);
  if (res.error) {
    std::fprintf(stderr, "ptsuite %s: %s\n", command, res.error->message().c_str());
    return core::exit_code(res.error->kind);
  }
  if (res.record.state == model::RunState::Interrupted) {
    std::fprintf(stderr, "ptsuite %s: interrupted; continue with `ptsuite resume %s`\n", command, run_dir.c_str());
    return core::exit_code(core::ErrorKind::Interrupted);
  }
  return 0;
}

}  // namespace pts::app
