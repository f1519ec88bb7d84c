// app/cmd_spec.cpp — `ptsuite spec TARGET [access-spec options] [--json]`: runs one access
// spec on a block device or a regular file (created at --size when missing), like fio, and
// prints the result as text or as the design's JSON. Every input problem is reported at once
// with exit 2 before anything is created or written; a spec that writes goes through the one
// guard entry point (device::acquire_target) and runs on its held descriptor. May use: core,
// model, engine, device, app/access_options.h, app/guarded_target.h, nlohmann json.
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/command_fail.h"
#include "app/access_options.h"
#include "app/spec_jobs.h"
#include "app/commands.h"
#include "app/json_out.h"
#include "app/target_open.h"
#include "config/engine_check.h"
#include "core/units.h"
#include "app/guarded_target.h"
#include "engine/fidelity_check.h"
#include "engine/io_engine.h"
#include "engine/io_target.h"
#include "engine/workload.h"
#include "sim/target.h"

namespace pts::app {

namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void on_sigint(int) { g_interrupted.store(true); }

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
          {"free_superblocks", s.free_superblocks},
          {"controller", s.controller ? nlohmann::json{{"read_commands", s.controller->read_commands},
                                                       {"write_commands", s.controller->write_commands},
                                                       {"read_bytes", s.controller->read_bytes},
                                                       {"write_bytes", s.controller->write_bytes}}
                                      : nlohmann::json(nullptr)}};
}

/// The kernel's block counters for the cell, or null ("n/a": a file has none).
nlohmann::json kernel_json(const std::optional<model::KernelCounters>& k) {
  if (!k) return nullptr;
  return {{"device", k->device},
          {"read_ios", k->read_ios},
          {"write_ios", k->write_ios},
          {"read_merges", k->read_merges},
          {"write_merges", k->write_merges},
          {"host_ios", k->host_ios},
          {"read_bytes", k->read_bytes},
          {"write_bytes", k->write_bytes},
          {"avg_in_flight", k->avg_in_flight},
          {"mean_device_time_us", us(k->mean_device_time_ns)},
          {"utilization", k->utilization},
          {"in_flight_limit", k->in_flight_limit},
          {"saturated", k->saturated},
          {"wall_seconds", static_cast<double>(k->wall_ns) / 1e9}};
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
          {"completion",
           {{"wait_min", r.completion.wait_min},
            {"reaps", r.completion.reaps},
            {"completions_per_reap", r.completion.completions_per_reap},
            {"submissions", r.completion.submissions},
            {"ios_per_submission", r.completion.ios_per_submission},
            {"poll_busy_seconds", static_cast<double>(r.completion.poll_busy_ns) / 1e9},
            {"poll_expired", r.completion.poll_expired},
            {"probe_sleep_ns", r.completion.probe_sleep_ns},
            {"probe_poll_ns", r.completion.probe_poll_ns}}},
          {"latency_from", r.latency_from},
          {"submission_lat_us", latency_json(r.submission_latency)},
          {"kernel", kernel_json(r.kernel)},
          {"fidelity_flags", r.fidelity_flags},
          {"fidelity_not_judged", r.fidelity_not_judged},
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
            {"logical_block_bytes", t.target.logical_block_bytes},
            {"alignment_source", t.alignment_source}}},
          {"engine", engine},
          {"simulated", simulated_json(r)}};
}

void print_text(const model::CellResult& r, const engine::TargetInfo& t, const std::string& engine, bool created) {
  const auto& s = r.spec;
  std::printf("ptsuite spec %s: %s %s, %u thread(s) x QD %u, ActiveRange %g %%, seed %llu%s\n", t.target.path.c_str(),
              model::rw_name(s).c_str(), block_text(s).c_str(), s.threads, s.queue_depth, s.active_range_pct,
              static_cast<unsigned long long>(s.seed),
              s.rate_iops ? (", rate " + std::to_string(s.rate_iops) + " IOPS").c_str() : "");
  std::printf("  target   %s, %s, logical block %u B%s%s\n", kind_text(t.kind, r),
              core::format_bytes(t.target.size_bytes).c_str(), t.target.logical_block_bytes,
              t.alignment_source.empty() ? "" : (" (O_DIRECT alignment: " + t.alignment_source + ")").c_str(),
              created ? "; created now and filled with incompressible data before the measurement" : "");
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
  // A simulated cell's seconds are virtual: its CPU per I/O is the simulator's CPU over its I/Os.
  const double cpu_seconds = r.simulated ? r.simulated->sim_cpu_seconds
                                         : (r.cpu_usr_pct + r.cpu_sys_pct) / 100.0 * r.seconds;
  const double cpu_us_per_io = ios > 0 ? cpu_seconds / ios * 1e6 : 0;
  std::printf("  CPU      usr %.1f %%, sys %.1f %% of one core (%.2f us per I/O)\n", r.cpu_usr_pct, r.cpu_sys_pct,
              cpu_us_per_io);
  std::printf("  Little   IOPS x mean latency = %.2f outstanding I/Os vs TC x QD = %u\n", r.littles_law_oio,
              s.threads * s.queue_depth);
  if (r.latency_from == "schedule")
    std::printf("  paced    latency above runs from each I/O's scheduled release; from submission: mean %.1f us, "
                "p99 %.1f us\n",
                us(r.submission_latency.mean_ns), us(static_cast<double>(r.submission_latency.p99_ns)));
  std::printf("  reaping  wait for %u completion(s), then reap all ready: %.2f completions per reap\n",
              r.completion.wait_min, r.completion.completions_per_reap);
  if (r.completion.submissions)
    std::printf("  submit   %.2f I/Os per submission call (%llu calls)\n", r.completion.ios_per_submission,
                static_cast<unsigned long long>(r.completion.submissions));
  const bool low_depth = uint64_t{r.spec.threads} * r.spec.queue_depth <= engine::kLowDepthMaxOio;
  if (r.completion.probe_sleep_ns)
    std::printf("  probe    auto poll budget: reads at QD %s took a mean %.1f us sleeping, %.1f us polling, "
                "so the workers %s\n",
                low_depth ? "1" : std::to_string(r.spec.queue_depth).c_str(),
                static_cast<double>(r.completion.probe_sleep_ns) / 1e3,
                static_cast<double>(r.completion.probe_poll_ns) / 1e3, r.completion_poll_ns ? "poll" : "sleep");
  if (r.completion_poll_ns)
    std::printf("  polling  workers poll until a completion arrives, up to %.0f us per wait "
                "(%.3f s of CPU polling, %llu polls ran out of budget)\n",
                static_cast<double>(r.completion_poll_ns) / 1e3, static_cast<double>(r.completion.poll_busy_ns) / 1e9,
                static_cast<unsigned long long>(r.completion.poll_expired));
  if (r.simulated && r.simulated->host_pages_written)
    std::printf("  flash    write amplification %.3f (%llu NAND pages for %llu host pages, %llu GC copies), %u free superblocks\n",
                r.simulated->write_amplification, static_cast<unsigned long long>(r.simulated->nand_pages_written),
                static_cast<unsigned long long>(r.simulated->host_pages_written),
                static_cast<unsigned long long>(r.simulated->gc_pages_copied), r.simulated->free_superblocks);
  if (r.kernel) {
    const auto& k = *r.kernel;
    std::printf("  kernel   %s: %llu I/Os (%llu merged), avg in flight %.2f%s, mean device time %.1f us, busy %.0f %%\n",
                k.device.c_str(), static_cast<unsigned long long>(k.read_ios + k.write_ios),
                static_cast<unsigned long long>(k.read_merges + k.write_merges), k.avg_in_flight,
                k.saturated ? (" (saturated: the device holds at most " + std::to_string(k.in_flight_limit) + ")").c_str() : "",
                us(k.mean_device_time_ns), k.utilization * 100);
  } else {
    std::printf("  kernel   n/a (%s has no block-device counters)\n", r.simulated ? "a simulated drive" : "a file");
  }
  if (!r.fidelity_flags.empty()) {
    std::string flags;
    for (const auto& f : r.fidelity_flags) flags += (flags.empty() ? "" : ", ") + f;
    std::printf("  WARNING  measurement-fidelity check failed: %s (see docs/run-record.md)\n", flags.c_str());
  }
  if (!r.fidelity_not_judged.empty()) {
    std::string codes;
    for (const auto& f : r.fidelity_not_judged) codes += (codes.empty() ? "" : ", ") + f;
    std::printf("  fidelity not judged on %s: the cell ran %.3f s, under the %.1f s its ramp-up and drain need\n",
                codes.c_str(), r.seconds, engine::kMinJudgedCellSeconds);
  }
  if (r.io_errors) std::printf("  errors   %llu I/O error(s); first: %s\n", static_cast<unsigned long long>(r.io_errors), r.error.c_str());
}

int fail(const std::vector<std::string>& messages, int code) { return fail_command("spec", messages, code); }

/// `spec` on a simulated drive (checked above): writing specs through the one guard entry
/// point (the state file's lock; consent its serial), read-only ones on a read-only view.
int spec_on_sim(const std::string& text, const model::AccessSpec& spec, engine::TargetInfo target, bool json,
                const std::optional<std::string>& confirm, bool force_signatures) {
  WritableTarget w;
  std::shared_ptr<sim::DriveSession> session;
  if (spec.read_pct < 100) {
    auto held = acquire_writable(text, writing_options(confirm, force_signatures));
    if (!held) return fail(held.error().messages, core::exit_code(held.error().kind));
    w = std::move(held.value());
    if (!json) std::fprintf(stderr, "ptsuite spec: %s\n", consent_line(*w.held).c_str());
  } else {
    auto probe = open_read_only(text);
    if (!probe) return fail(probe.error().messages, core::exit_code(probe.error().kind));
    // Reads hold the drive shared: a writing ptsuite is refused while they run.
    if (auto st = probe->sim->hold_shared(); !st.ok()) return fail(st.error().messages, core::exit_code(st.error().kind));
    w.sim = probe->sim;
    w.clock = probe->clock;
  }
  auto eng = open_engine(w, target, spec.read_pct < 100);
  if (!eng) return fail(eng.error().messages, core::exit_code(eng.error().kind));
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigaction(SIGINT, &sa, nullptr);
  auto result = eng.value()->run(spec, &g_interrupted);
  const bool saved = close_target(w, "spec");
  if (!result) return fail(result.error().messages, core::exit_code(result.error().kind));
  const std::string engine_name = eng.value()->describe();
  if (json) std::printf("%s\n", json_text(result_json(result.value(), target, engine_name)).c_str());
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

nlohmann::json spec_result_json(const model::CellResult& r, const engine::TargetInfo& t, const std::string& engine) {
  return result_json(r, t, engine);
}

int cmd_spec(const SpecArgs& args) {
  if (!args.more_targets.empty()) return spec_jobs(args);
  ParsedAccessArgs parsed = parse_access_options(args.access);
  std::vector<std::string> errors = args.errors;
  errors.insert(errors.end(), parsed.errors.begin(), parsed.errors.end());
  const AccessOptions& options = parsed.options;
  const bool json = args.json, force_signatures = args.force_signatures;
  const std::optional<std::string>& confirm = args.confirm;
  const std::string& path = args.target;
  if (path.empty()) errors.push_back("TARGET: missing (see ptsuite spec --help)");

  model::AccessSpec spec;  // defaults: randread 4 KiB, 1 thread, QD 1, 60 s, ActiveRange 100 %
  options.apply_to(spec);
  engine::TargetInfo target;
  const bool simulated = !path.empty() && is_simulated(path);
  if (simulated) {
    if (options.size_bytes) errors.push_back("--size: not for a simulated drive (give capacity=SIZE in the sim: target)");
    auto t = sim::parse_sim_target(path);
    if (!t.ok()) {
      errors.insert(errors.end(), t.error().messages.begin(), t.error().messages.end());
    } else {
      target.target = {t->text(), t->params.capacity_bytes, t->params.lba_bytes};
      target.kind = model::TargetKind::NvmeNamespace;
      target.exists = true;
      for (const auto& m : check_spec_for_target(spec, t->params.lba_bytes, t->params.capacity_bytes))
        errors.push_back(m);
      for (const auto& m : config::check_engine_limits(spec, engine_limits_for(path), {"--seconds"}))
        errors.push_back(m);
    }
  } else if (!path.empty()) {
    auto info = engine::inspect_target(path, spec.read_pct < 100);
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
      for (const auto& m : config::check_engine_limits(spec, engine::uring_engine_limits(), {"--seconds"}))
        errors.push_back(m);
      // A read of a hole or an unwritten extent is answered by the file system (zeroes, no
      // device I/O): such a spec would measure the page-cache-free path of the kernel, not the
      // storage. Refused (exit 2) rather than flagged: no figure it printed would mean anything.
      if (target.exists && target.kind == model::TargetKind::File && spec.read_pct > 0 && target.unwritten_bytes)
        errors.push_back("TARGET " + target.target.path + ": " + core::format_bytes(target.unwritten_bytes) + " of " +
                         core::format_bytes(target.target.size_bytes) +
                         " are holes or unwritten extents (FIEMAP/SEEK_HOLE; the first at offset " +
                         std::to_string(target.first_unwritten_offset) +
                         "): reads there never reach the device. Write the whole file first (e.g. dd "
                         "if=/dev/urandom of=" + target.target.path + " bs=1M count=" +
                         std::to_string((target.target.size_bytes + (1u << 20) - 1) >> 20) +
                         " conv=notrunc,fsync), or give a new path with --size: a file ptsuite creates is filled "
                         "before it is measured");
      if (target.exists && options.size_bytes && target.kind == model::TargetKind::BlockDevice)
        errors.push_back("--size: only for creating a file target; " + target.target.path + " is a block device");
    }
  }
  if (!errors.empty()) return fail(errors, 2);
  if (simulated) return spec_on_sim(path, spec, target, json, confirm, force_signatures);

  const bool created = !target.exists;
  if (created) {
    auto made = engine::create_file_target(target.target.path, target.target.size_bytes);
    if (!made) return fail(made.error().messages, core::exit_code(made.error().kind));
  }
  // Writing is destructive: the one guard entry point examines the target, holds it
  // exclusively for the whole command and needs the operator's confirmation.
  std::unique_ptr<device::HeldTarget> held;
  if (spec.read_pct < 100) {
    auto h = device::acquire_target(target.target.path, writing_options(confirm, force_signatures, created));
    if (!h) {
      std::error_code ec;
      if (created) std::filesystem::remove(target.target.path, ec);
      return fail(h.error().messages, core::exit_code(h.error().kind));
    }
    held = std::move(h.value());
    if (!json) std::fprintf(stderr, "ptsuite spec: %s\n", consent_line(*held).c_str());
    for (const auto& [code, text] : held->deviations())
      std::fprintf(stderr, "ptsuite spec: deviation [%s] %s\n", code.c_str(), text.c_str());
    target.target.fd = held->fd();
  } else if (!created) {
    // A read-only spec writes nothing (--confirm and --force-signatures have nothing to do),
    // but it holds the target shared, so a writing ptsuite started meanwhile is refused.
    auto h = device::hold_for_reading(target.target.path, device::AcquireOptions{});
    if (!h) return fail(h.error().messages, core::exit_code(h.error().kind));
    held = std::move(h.value());
    target.target.fd = held->fd();
  }
  auto eng = engine::open_uring_engine(target.target, spec.read_pct < 100);
  if (!eng) return fail(eng.error().messages, core::exit_code(eng.error().kind));

  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigaction(SIGINT, &sa, nullptr);
  auto result = eng.value()->run(spec, &g_interrupted);
  if (!result) return fail(result.error().messages, core::exit_code(result.error().kind));
  const std::string engine_name = eng.value()->describe();
  if (json) std::printf("%s\n", json_text(result_json(result.value(), target, engine_name)).c_str());
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
