// app/cmd_spec_jobs.cpp — see spec_jobs.h: every problem of the command line and of the job
// set at once (exit 2) before a target is held; each target through the guard (a shared hold
// where the spec only reads), then one engine runs the cell and each job is printed with the
// cell's combined figures.
#include <csignal>
#include <cstdio>

#include "app/command_fail.h"
#include "app/access_options.h"
#include "app/cell_targets.h"
#include "app/json_out.h"
#include "app/spec_jobs.h"
#include "config/engine_check.h"
#include "core/units.h"
#include "engine/fidelity_check.h"

namespace pts::app {

namespace {

std::atomic<bool> g_stop{false};
extern "C" void on_sigint_jobs(int) { g_stop.store(true); }

int fail(const std::vector<std::string>& messages, int code) { return fail_command("spec", messages, code); }

double us(uint64_t ns) { return static_cast<double>(ns) / 1000.0; }

void print_line(const char* label, const model::CellResult& r) {
  std::printf("  %-10s IOPS %.0f (read %.0f, write %.0f), MB/s %.1f; %llu reads, %llu writes; latency mean %.1f us, "
              "p99 %.1f, p99.99 %.1f us\n",
              label, r.iops, r.read_iops, r.write_iops, r.mbps, static_cast<unsigned long long>(r.read_ios),
              static_cast<unsigned long long>(r.write_ios), r.latency.mean_ns / 1000.0, us(r.latency.p99_ns),
              us(r.latency.p99_99_ns));
  if (r.kernel)
    std::printf("  %-10s kernel %s: %llu I/Os (%llu merged)%s\n", "", r.kernel->device.c_str(),
                static_cast<unsigned long long>(r.kernel->read_ios + r.kernel->write_ios),
                static_cast<unsigned long long>(r.kernel->read_merges + r.kernel->write_merges),
                r.fidelity_flags.empty() ? "" : (", WARNING fidelity: " + r.fidelity_flags.front()).c_str());
}

}  // namespace

int spec_jobs(const SpecArgs& args) {
  ParsedAccessArgs parsed = parse_access_options(args.access);
  std::vector<std::string> errors = args.errors;
  errors.insert(errors.end(), parsed.errors.begin(), parsed.errors.end());
  if (parsed.options.size_bytes) errors.push_back("--size: a cell of several targets creates none; give existing targets");
  model::AccessSpec spec;
  parsed.options.apply_to(spec);
  std::vector<std::string> targets{args.target};
  targets.insert(targets.end(), args.more_targets.begin(), args.more_targets.end());
  if (spec.bytes_limit) errors.push_back("a cell of several targets is timed (--seconds), not a byte budget");
  const bool writes = spec.read_pct < 100;
  if (!errors.empty()) return fail(errors, 2);

  CellTargetsRequest rq;
  rq.targets = targets;
  rq.written.assign(targets.size(), writes);
  rq.confirm = confirm_values(args.confirm);
  rq.force_signatures = args.force_signatures;
  auto cell = open_cell_targets(rq);
  if (!cell) return fail(cell.error().messages, core::exit_code(cell.error().kind));
  if (!args.json)
    for (const auto& line : cell->consent_lines) std::fprintf(stderr, "ptsuite spec: %s\n", line.c_str());
  for (const auto& [code, text] : cell->deviations)
    std::fprintf(stderr, "ptsuite spec: deviation [%s] %s\n", code.c_str(), text.c_str());

  std::vector<model::JobSpec> jobs;
  const auto sizes = cell->engine->job_targets();
  for (size_t i = 0; i < targets.size(); ++i) {
    model::JobSpec j;
    j.id = "job" + std::to_string(i + 1);
    j.target = static_cast<uint32_t>(i);
    j.spec = spec;
    if (spec.seed) j.spec.seed = spec.seed + i;  // a given seed: each job its own stream
    jobs.push_back(j);
    for (const auto& m : check_spec_for_target(spec, sizes[i].logical_block_bytes, sizes[i].size_bytes))
      errors.push_back("TARGET " + targets[i] + ": " + m);
  }
  for (const auto& m : model::job_problems(jobs, sizes, args.allow_overlap)) errors.push_back(m);
  if (!errors.empty()) {
    close_cell_targets(*cell, "spec");
    return fail(errors, 2);
  }
  struct sigaction sa {};
  sa.sa_handler = on_sigint_jobs;
  sigaction(SIGINT, &sa, nullptr);
  auto result = cell->engine->run_jobs(jobs, args.allow_overlap, &g_stop);
  const std::string engine_name = cell->engine->describe();
  const bool saved = close_cell_targets(*cell, "spec");
  if (!result) return fail(result.error().messages, core::exit_code(result.error().kind));
  const model::CellResult& r = *result;
  if (args.json) {
    nlohmann::json j;
    engine::TargetInfo none;
    j["combined"] = spec_result_json(r, none, engine_name);
    j["jobs"] = nlohmann::json::array();
    for (size_t i = 0; i < r.jobs.size(); ++i) {
      engine::TargetInfo t;
      t.target.path = cell->paths[i < cell->paths.size() ? i : 0];
      t.target.size_bytes = r.jobs[i].job ? r.jobs[i].job->size_bytes : 0;
      nlohmann::json one = spec_result_json(r.jobs[i], t, engine_name);
      one["job"] = r.jobs[i].job ? r.jobs[i].job->id : "";
      j["jobs"].push_back(one);
    }
    std::printf("%s\n", json_text(j).c_str());
  } else {
    std::printf("ptsuite spec: %zu jobs, %s %s, %u thread(s) x QD %u each, over one interval of %.3f s%s\n",
                r.jobs.size(), model::rw_name(spec).c_str(), core::format_block_size(spec.block_bytes).c_str(),
                spec.threads, spec.queue_depth, r.seconds, r.simulated ? " VIRTUAL (a simulated drive's time)" : "");
    std::printf("  engine   %s\n", engine_name.c_str());
    for (const auto& job : r.jobs) {
      std::printf("  %s on %s\n", job.job->id.c_str(), job.job->target.c_str());
      print_line(job.job->id.c_str(), job);
    }
    print_line("combined", r);
    std::printf("  CPU      usr %.1f %%, sys %.1f %% of one core (the process, all jobs)\n", r.cpu_usr_pct, r.cpu_sys_pct);
  }
  std::fflush(stdout);
  if (!saved) return core::exit_code(core::ErrorKind::Internal);
  if (r.io_errors) {
    std::fprintf(stderr, "ptsuite spec: I/O error: %s\n", r.error.c_str());
    return core::exit_code(core::ErrorKind::Io);
  }
  return g_stop.load() ? core::exit_code(core::ErrorKind::Interrupted) : 0;
}

}  // namespace pts::app
