// app/cmd_spec.cpp — `ptsuite spec TARGET [access-spec options] [--json]`: runs one access
// spec on a block device or a regular file (created at --size when missing), like fio, and
// prints the result as text or as the design's JSON. Every input problem is reported at once
// with exit 2 before anything is created or written. May use: core, model, engine,
// device (the guard, before writing), app/access_options.h, nlohmann json.
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/access_options.h"
#include "app/commands.h"
#include "app/target_open.h"
#include "core/units.h"
#include "device/guard.h"
#include "engine/io_engine.h"
#include "engine/io_target.h"
#include "sim/target.h"

namespace pts::app {

namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void on_sigint(int) { g_interrupted.store(true); }

constexpr const char* kUsage =
    "usage: ptsuite spec TARGET [options] [--json]\n"
    "Runs one access spec on TARGET (a block device, or a regular file created at --size\n"
    "when missing) with io_uring and O_DIRECT, and prints IOPS, MB/s (10^6 B), latency\n"
    "percentiles, CPU and the Little's-law check. On a simulated drive (sim:PROFILE[,...][@FILE])\n"
    "the cell runs in its virtual time (--seconds are virtual) and the flash counters are shown.\n\n"
    "Options:\n";

double us(double ns) { return ns / 1000.0; }

nlohmann::json latency_json(const model::LatencySummary& s) {
  return {{"mean", us(s.mean_ns)},         {"min", us(static_cast<double>(s.min_ns))},
          {"max", us(static_cast<double>(s.max_ns))}, {"p50", us(static_cast<double>(s.p50_ns))},
          {"p99", us(static_cast<double>(s.p99_ns))},   {"p99_9", us(static_cast<double>(s.p99_9_ns))},
          {"p99_99", us(static_cast<double>(s.p99_99_ns))}, {"p99_999", us(static_cast<double>(s.p99_999_ns))},
          {"samples", s.samples},                {"percentile_rel_error", s.percentile_rel_error}};
}

std::string block_text(const model::AccessSpec& spec) {
  if (spec.bs_split.empty()) return core::format_block_size(spec.block_bytes);
  std::string out;
  for (const auto& s : spec.bs_split) {
    if (!out.empty()) out += ",";
    out += core::format_block_size(s.bytes) + ":" + std::to_string(s.percent) + "%";
  }
  return out;
}

const char* kind_text(model::TargetKind kind, const model::CellResult& r) {
  if (r.simulated) return "simulated NVMe drive";
  return kind == model::TargetKind::BlockDevice ? "block device" : "file";
}

nlohmann::json simulated_json(const model::CellResult& r) {
  if (!r.simulated) return nullptr;
  const auto& s = *r.simulated;
  return {{"virtual_time", s.virtual_time},           {"sim_cpu_seconds", s.sim_cpu_seconds},
          {"sim_wall_seconds", s.sim_wall_seconds},   {"host_pages_written", s.host_pages_written},
          {"nand_pages_written", s.nand_pages_written}, {"gc_pages_copied", s.gc_pages_copied},
          {"erases", s.erases},                       {"write_amplification", s.write_amplification},
          {"free_superblocks", s.free_superblocks}};
}

nlohmann::json result_json(const model::CellResult& r, const engine::TargetInfo& t, const std::string& engine) {
  const auto& s = r.spec;
  nlohmann::json bs_split = nlohmann::json::array();
  for (const auto& b : s.bs_split) bs_split.push_back({{"bytes", b.bytes}, {"percent", b.percent}});
  return {{"iops", r.iops},
          {"read_iops", r.read_iops},
          {"write_iops", r.write_iops},
          {"mbps", r.mbps},
          {"read_mbps", r.read_mbps},
          {"write_mbps", r.write_mbps},
          {"lat_us", latency_json(r.latency)},
          {"read_lat_us", latency_json(r.read_latency)},
          {"write_lat_us", latency_json(r.write_latency)},
          {"cpu", {{"usr_pct", r.cpu_usr_pct}, {"sys_pct", r.cpu_sys_pct}}},
          {"seconds", r.seconds},
          {"read_ios", r.read_ios},
          {"write_ios", r.write_ios},
          {"read_bytes", r.read_bytes},
          {"write_bytes", r.write_bytes},
          {"ios_per_second", r.ios_per_second},
          {"littles_law", {{"oio", r.littles_law_oio}, {"tc_x_qd", s.threads * s.queue_depth}}},
          {"completion_poll_ns", r.completion_poll_ns},
          {"io_errors", r.io_errors},
          {"error", r.error},
          {"spec",
           {{"rw", model::rw_name(s)},
            {"read_pct", s.read_pct},
            {"bs", s.block_bytes},
            {"bs_split", bs_split},
            {"threads", s.threads},
            {"oio", s.queue_depth},
            {"seconds", s.seconds},
            {"active_range_pct", s.active_range_pct},
            {"zones", model::zones_text(s.zones)},
            {"rate_iops", s.rate_iops},
            {"seed", s.seed}}},
          {"target",
           {{"path", t.target.path},
            {"kind", kind_text(t.kind, r)},
            {"bytes", t.target.size_bytes},
            {"logical_block_bytes", t.target.logical_block_bytes}}},
          {"engine", engine},
          {"simulated", simulated_json(r)}};
}

void print_text(const model::CellResult& r, const engine::TargetInfo& t, const std::string& engine, bool created) {
  const auto& s = r.spec;
  std::printf("ptsuite spec %s: %s %s, %u thread(s) x QD %u, ActiveRange %g %%, seed %llu%s\n", t.target.path.c_str(),
              model::rw_name(s).c_str(), block_text(s).c_str(), s.threads, s.queue_depth, s.active_range_pct,
              static_cast<unsigned long long>(s.seed),
              s.rate_iops ? (", rate " + std::to_string(s.rate_iops) + " IOPS").c_str() : "");
  std::printf("  target   %s, %s, logical block %u B%s\n", kind_text(t.kind, r),
              core::format_bytes(t.target.size_bytes).c_str(), t.target.logical_block_bytes,
              created ? " (created now: blocks never written read as zeroes)" : "");
  if (!s.zones.empty())
    std::printf("  zones    %s (I/O %% / ActiveRange %% per zone, from the start of the ActiveRange)\n",
                model::zones_text(s.zones).c_str());
  std::printf("  engine   %s\n", engine.c_str());
  if (r.simulated)
    std::printf("  time     %.3f s VIRTUAL (the simulated drive's time; the simulator took %.3f s of CPU, %.3f s real)\n",
                r.seconds, r.simulated->sim_cpu_seconds, r.simulated->sim_wall_seconds);
  else
    std::printf("  time     %.3f s\n", r.seconds);
  std::printf("  IOPS     %.0f (read %.0f, write %.0f)\n", r.iops, r.read_iops, r.write_iops);
  std::printf("  MB/s     %.1f (read %.1f, write %.1f; MB = 10^6 B)\n", r.mbps, r.read_mbps, r.write_mbps);
  const auto& l = r.latency;
  std::printf("  latency  mean %.1f us, min %.1f us, max %.1f us\n", us(l.mean_ns), us(static_cast<double>(l.min_ns)),
              us(static_cast<double>(l.max_ns)));
  std::printf("           p50 %.1f  p99 %.1f  p99.9 %.1f  p99.99 %.1f  p99.999 %.1f us (percentiles within %.2f %%)\n",
              us(static_cast<double>(l.p50_ns)), us(static_cast<double>(l.p99_ns)), us(static_cast<double>(l.p99_9_ns)),
              us(static_cast<double>(l.p99_99_ns)), us(static_cast<double>(l.p99_999_ns)), l.percentile_rel_error * 100);
  if (r.read_ios && r.write_ios)
    std::printf("           read mean %.1f us, p99 %.1f us; write mean %.1f us, p99 %.1f us\n", us(r.read_latency.mean_ns),
                us(static_cast<double>(r.read_latency.p99_ns)), us(r.write_latency.mean_ns),
                us(static_cast<double>(r.write_latency.p99_ns)));
  const double ios = static_cast<double>(r.read_ios + r.write_ios);
  const double cpu_us_per_io = ios > 0 ? (r.cpu_usr_pct + r.cpu_sys_pct) / 100.0 * r.seconds / ios * 1e6 : 0;
  std::printf("  CPU      usr %.1f %%, sys %.1f %% of one core (%.2f us per I/O)\n", r.cpu_usr_pct, r.cpu_sys_pct,
              cpu_us_per_io);
  std::printf("  Little   IOPS x mean latency = %.2f outstanding I/Os vs TC x QD = %u\n", r.littles_law_oio,
              s.threads * s.queue_depth);
  if (r.completion_poll_ns)
    std::printf("  polling  low-depth mode: workers poll completions up to %.0f us before sleeping (CPU above is that)\n",
                static_cast<double>(r.completion_poll_ns) / 1e3);
  if (r.simulated && r.simulated->host_pages_written)
    std::printf("  flash    write amplification %.3f (%llu NAND pages for %llu host pages, %llu GC copies), %u free superblocks\n",
                r.simulated->write_amplification, static_cast<unsigned long long>(r.simulated->nand_pages_written),
                static_cast<unsigned long long>(r.simulated->host_pages_written),
                static_cast<unsigned long long>(r.simulated->gc_pages_copied), r.simulated->free_superblocks);
  if (r.io_errors) std::printf("  errors   %llu I/O error(s); first: %s\n", static_cast<unsigned long long>(r.io_errors), r.error.c_str());
}

int fail(const std::vector<std::string>& messages, int code) {
  for (const auto& m : messages) std::fprintf(stderr, "ptsuite spec: %s\n", m.c_str());
  return code;
}

/// `spec` on a simulated drive: the same checks and output, in virtual time.
int spec_on_sim(const std::string& text, const model::AccessSpec& spec, const AccessOptions& options, bool json,
                std::vector<std::string> errors) {
  if (options.size_bytes) errors.push_back("--size: not for a simulated drive (give capacity=SIZE in the sim: target)");
  auto parsed = sim::parse_sim_target(text);
  if (!parsed.ok()) errors.insert(errors.end(), parsed.error().messages.begin(), parsed.error().messages.end());
  else
    for (const auto& m : check_spec_for_target(spec, parsed->params.lba_bytes, parsed->params.capacity_bytes))
      errors.push_back(m);
  if (!errors.empty()) return fail(errors, 2);
  auto opened = open_sim_target(text, /*writable=*/true);
  if (!opened) return fail(opened.error().messages, core::exit_code(opened.error().kind));
  if (spec.read_pct < 100)
    if (auto g = opened->device->guard(); !g) return fail(g.error().messages, core::exit_code(g.error().kind));
  auto eng = open_engine(*opened, /*writable=*/true);
  if (!eng) return fail(eng.error().messages, core::exit_code(eng.error().kind));
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigaction(SIGINT, &sa, nullptr);
  auto result = eng.value()->run(spec, &g_interrupted);
  const bool saved = close_target(*opened, "spec");
  if (!result) return fail(result.error().messages, core::exit_code(result.error().kind));
  engine::TargetInfo target;
  target.target = {opened->path, parsed->params.capacity_bytes, parsed->params.lba_bytes};
  target.kind = model::TargetKind::NvmeNamespace;
  target.exists = true;
  const std::string engine_name = eng.value()->describe();
  if (json) std::printf("%s\n", result_json(result.value(), target, engine_name).dump(2).c_str());
  else print_text(result.value(), target, engine_name, false);
  std::fflush(stdout);
  if (!saved) return core::exit_code(core::ErrorKind::Internal);
  if (result->io_errors) {
    std::fprintf(stderr, "ptsuite spec: I/O error: %s\n", result->error.c_str());
    return core::exit_code(core::ErrorKind::Io);
  }
  if (g_interrupted.load()) return core::exit_code(core::ErrorKind::Interrupted);
  return 0;
}

}  // namespace

int cmd_spec(const Args& args) {
  ParsedAccessArgs parsed = parse_access_options(args);
  std::vector<std::string> errors = parsed.errors;
  const AccessOptions& options = parsed.options;
  bool json = false;
  std::vector<std::string> positional;
  for (const auto& a : parsed.rest) {
    if (a == "--help" || a == "-h") {
      std::printf("%s%s  --json              print the result as JSON\n", kUsage, access_options_help());
      return 0;
    }
    if (a == "--json") json = true;
    else if (a.rfind("--", 0) == 0) {
      errors.push_back(a + ": unknown option (see ptsuite spec --help)");
    } else positional.push_back(a);
  }
  if (positional.size() != 1)
    errors.push_back(positional.empty() ? "TARGET: missing (a block device or a file path)"
                                        : "TARGET: exactly one target expected, got " + std::to_string(positional.size()));

  model::AccessSpec spec;  // defaults: randread 4 KiB, 1 thread, QD 1, 60 s, ActiveRange 100 %
  options.apply_to(spec);
  if (positional.size() == 1 && is_simulated(positional[0])) return spec_on_sim(positional[0], spec, options, json, errors);
  engine::TargetInfo target;
  if (positional.size() == 1) {
    auto info = engine::inspect_target(positional[0], spec.read_pct < 100);
    if (!info) {
      for (const auto& m : info.error().messages) errors.push_back(m);
    } else {
      target = info.value();
      if (!target.exists) {
        if (!options.size_bytes) errors.push_back("--size: needed to create the missing file " + target.target.path);
        else target.target.size_bytes = *options.size_bytes;
      }
      if (target.target.size_bytes > 0)
        for (const auto& m : check_spec_for_target(spec, target.target.logical_block_bytes, target.target.size_bytes))
          errors.push_back(m);
      if (target.exists && options.size_bytes && target.kind == model::TargetKind::BlockDevice)
        errors.push_back("--size: only for creating a file target; " + target.target.path + " is a block device");
    }
  }
  if (!errors.empty()) return fail(errors, 2);

  // Writing is destructive: the guard refuses a mounted, partitioned, held or swap target.
  if (spec.read_pct < 100 && target.exists) {
    core::Status guarded = core::ok_status();
    if (target.kind == model::TargetKind::BlockDevice) {
      std::error_code ec;
      const auto real = std::filesystem::canonical(target.target.path, ec);
      guarded = device::guard_block_device(ec ? target.target.path : real.filename().string());
    } else {
      guarded = device::guard_file(target.target.path);
    }
    if (!guarded) return fail(guarded.error().messages, core::exit_code(guarded.error().kind));
  }

  const bool created = !target.exists;
  if (created) {
    auto made = engine::create_file_target(target.target.path, target.target.size_bytes);
    if (!made) return fail(made.error().messages, core::exit_code(made.error().kind));
  }
  auto eng = engine::open_uring_engine(target.target, spec.read_pct < 100);
  if (!eng) return fail(eng.error().messages, core::exit_code(eng.error().kind));

  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigaction(SIGINT, &sa, nullptr);
  auto result = eng.value()->run(spec, &g_interrupted);
  if (!result) return fail(result.error().messages, core::exit_code(result.error().kind));
  const std::string engine_name = eng.value()->describe();
  if (json) std::printf("%s\n", result_json(result.value(), target, engine_name).dump(2).c_str());
  else print_text(result.value(), target, engine_name, created);
  std::fflush(stdout);
  if (result->io_errors) {
    std::fprintf(stderr, "ptsuite spec: I/O error: %s\n", result->error.c_str());
    return core::exit_code(core::ErrorKind::Io);
  }
  if (g_interrupted.load()) return core::exit_code(core::ErrorKind::Interrupted);
  return 0;
}

}  // namespace pts::app
