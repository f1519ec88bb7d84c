// app/cmd_plan.cpp — `ptsuite plan TEST [TARGET] [run options] [--json]`: the resolved plan
// (edition, class, cells in order, Tracking Variables, WIPC bytes, TC/QD, window, max
// Rounds, deviations) and its worst-case duration. Reads the target's identity only
// (identify is read-only); never writes to a device. May use: config, device, results (JSON).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "app/json_out.h"
#include "app/sim_info.h"
#include "app/target_open.h"
#include "engine/io_engine.h"
#include "config/catalog.h"
#include "config/plan_resolver.h"
#include "config/procedure_table.h"
#include "core/units.h"
#include "device/target_device.h"
#include "core/option_text.h"
#include "results/codec.h"

namespace pts::app {
namespace {

std::string duration_text(double seconds) {
  const auto s = static_cast<uint64_t>(seconds + 0.5);
  char buf[64];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%llu h %02llu min", (unsigned long long)(s / 3600), (unsigned long long)(s % 3600 / 60));
  else if (s >= 60) std::snprintf(buf, sizeof buf, "%llu min %02llu s", (unsigned long long)(s / 60), (unsigned long long)(s % 60));
  else if (seconds >= 1) std::snprintf(buf, sizeof buf, "%.1f s", seconds);  // "2.1 s", not "2.14748 s"
  else std::snprintf(buf, sizeof buf, "%.2f s", seconds);                    // "0.54 s"
  return buf;
}

std::string pct(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g %%", v);
  return buf;
}

void print_plan(const config::ResolvedPlan& r, const model::DeviceIdentity& id, bool nominal, double wipc_mbps) {
  const model::TestPlan& p = r.plan;
  const config::ProcedureRow* row = config::find_procedure(p.procedure);
  const bool snia = !(row && row->not_snia_group);  // a review-lab workload has no PTS edition or Rounds
  if (snia)
    std::printf("Plan: %s (%s), %s %s\n", p.title.c_str(), p.test_id.c_str(),
                p.pts_edition == "pts-e-1.1" ? "PTS-E 1.1" : "PTS 2.0.2", p.device_class.c_str());
  else
    std::printf("Plan: %s (%s), not a SNIA PTS test: a review-lab workload\n", p.title.c_str(), p.test_id.c_str());
  std::printf("Definition: %s\n", p.definition_file.c_str());
  if (nominal)
    std::printf("Target: none given — NOMINAL identity: %s, %s, %u-byte LBAs (give TARGET for real figures)\n",
                id.model.c_str(), core::format_bytes(id.capacity_bytes).c_str(), id.lba_size);
  else {
    std::string who = id.manufacturer.empty() ? id.model : id.manufacturer + " " + id.model;
    if (!id.serial.empty()) who += ", serial " + id.serial;
    if (!id.firmware.empty()) who += ", firmware " + id.firmware;
    std::printf("Target: %s — %s, %s (%llu bytes), %u-byte LBAs\n", id.path.c_str(), who.c_str(),
                core::format_bytes(id.capacity_bytes).c_str(), (unsigned long long)id.capacity_bytes, id.lba_size);
  }
  std::printf("Write cache: %s   ActiveRange: %s   TC %u / QD %u (total OIO %u)   data pattern: %s\n",
              p.write_cache_enabled ? "enabled (WCE)" : "disabled (WCD)", pct(p.active_range_pct).c_str(), p.threads,
              p.queue_depth, p.threads * p.queue_depth, p.data_pattern.c_str());
  const bool matrix = row && row->matrix_rounds;  // the matrix in Rounds: no procedure of its own to name
  if (!matrix && p.time_scale != 1.0)
    std::printf("Procedure: %s; every phase length x %g (--time-scale)\n", p.procedure.c_str(), p.time_scale);
  else if (!matrix)
    std::printf("Procedure: %s\n", p.procedure.c_str());
  if (p.ar_segments.count > 0)
    std::printf("ActiveRange segments: %u x %s (AR Amount %s) at random, non-touching starts, layout seed %llu; "
                "first at %llu B, last at %llu B\n",
                p.ar_segments.count, core::format_bytes(p.ar_segments.segment_bytes).c_str(),
                core::format_bytes(p.ar_amount_bytes).c_str(), (unsigned long long)p.ar_segments.seed,
                (unsigned long long)(p.ar_segment_starts_bytes.empty() ? 0 : p.ar_segment_starts_bytes.front()),
                (unsigned long long)(p.ar_segment_starts_bytes.empty() ? 0 : p.ar_segment_starts_bytes.back()));
  if (snia) {
    std::printf("Rounds: cell %g s; Measurement Window %u Rounds; max %u Rounds%s\n", p.cell_seconds, p.window_rounds,
                p.max_rounds, p.continue_past_max ? " (then continue until steady)" : "");
    std::printf("Steady state: Data Excursion <= %s and Slope Excursion <= %s of the window average, every Tracking "
                "Variable in the same window\n",
                pct(p.data_excursion_limit * 100).c_str(), pct(p.slope_excursion_limit * 100).c_str());
  }
  const std::string purge = p.purge_auto ? "auto (the strongest method the target supports)"
                                         : model::purge_method_name(p.purge_method);
  std::printf("Purge: %s\n", purge.c_str());

  const auto dur = config::estimate_duration(p, wipc_mbps);
  for (size_t i = 0; i < p.subtests.size(); ++i) {
    const auto& s = p.subtests[i];
    const auto& d = dur.subtests[i];
    std::printf("\nSub-test %s — %s\n", s.id.c_str(), s.title.c_str());
    std::printf("  Purge: %s\n", s.purge ? "yes" : "no");
    if (s.wipc_enabled)
      std::printf("  WIPC: SEQ %s write over the %s ActiveRange, TC %u / QD %u, %g x user capacity = %llu bytes (%s); "
                  "about %s at %g MB/s (assumed)\n",
                  core::format_block_size(s.wipc.block_bytes).c_str(), pct(s.wipc.active_range_pct).c_str(),
                  s.wipc.threads, s.wipc.queue_depth, p.wipc_capacity_multiple, (unsigned long long)s.wipc.bytes_limit,
                  core::format_bytes(s.wipc.bytes_limit).c_str(), duration_text(d.wipc_seconds).c_str(), wipc_mbps);
    else
      std::printf("  WIPC: none\n");
    const auto text = row && row->describe ? row->describe(p, s) : config::SubtestText{};
    for (const auto& line : text.phases) std::printf("  %s\n", line.c_str());
    if (!text.phases.empty() && !text.then_cells) {
      std::printf("  Worst case: %s (%s)\n", duration_text(d.seconds).c_str(), d.how.c_str());
      continue;
    }
    std::printf("  Tracking Variables%s:\n", s.tracking.size() > 1 ? " (all must pass in the same window)" : "");
    for (const auto& t : s.tracking) std::printf("    %-28s cell %s\n", t.label.c_str(), t.cell_id.c_str());
    std::printf("  Cells in Round order (%zu%s):\n", s.cells.size(),
                matrix ? "; R/W mix outer, block size inner" : "");
    for (size_t c = 0; c < s.cells.size(); ++c) {
      const auto& cell = s.cells[c];
      if (cell.applicable)
        std::printf("    %3zu  %-18s %s\n", c + 1, cell.id.c_str(), cell.label.c_str());
      else
        std::printf("    %3zu  %-18s %-22s  NOT APPLICABLE: %s\n", c + 1, cell.id.c_str(), cell.label.c_str(),
                    cell.not_applicable_reason.c_str());
    }
    std::printf("  Round: %u cells = %s; worst case %u Rounds = %s\n", d.applicable_cells,
                duration_text(d.round_seconds).c_str(), p.max_rounds, duration_text(d.max_rounds_seconds).c_str());
  }

  std::printf("\nWorst-case duration: %s%s%s", duration_text(dur.rounds_seconds).c_str(), matrix ? " of Rounds" : "",
              dur.unbounded ? " up to the maximum, unbounded after it (--continue-past-max)" : "");
  uint64_t wipc_total = 0;
  for (const auto& d : dur.subtests) wipc_total += d.wipc_bytes;
  if (wipc_total)
    std::printf(" + WIPC: %llu bytes (%s), about %s at an assumed %g MB/s (--wipc-mbps; the drive decides)",
                (unsigned long long)wipc_total, core::format_bytes(wipc_total).c_str(),
                duration_text(dur.wipc_seconds).c_str(), wipc_mbps);
  std::printf("\n\nNotes:%s\n", r.notes.empty() ? " none" : "");
  for (const auto& n : r.notes) std::printf("  - %s\n", n.c_str());
  if (!p.interpretations.empty()) {
    std::printf("Readings of details the spec sources leave open (definition keys; printed on the report):\n");
    for (const auto& n : p.interpretations) std::printf("  - %s\n", n.c_str());
  }
  std::printf("Deviations from the spec:%s\n", r.deviations.empty() ? " none" : "");
  for (const auto& d : r.deviations) std::printf("  - [%s] %s\n", d.code.c_str(), d.text.c_str());
}

void print_json(const config::ResolvedPlan& r, const model::DeviceIdentity& id, bool nominal, double wipc_mbps,
                const std::string& sim_line) {
  const auto dur = config::estimate_duration(r.plan, wipc_mbps);
  nlohmann::json out;
  out["plan"] = r.plan;
  out["deviations"] = r.deviations;
  if (!sim_line.empty()) out["simulated_drive"] = sim_line;
  out["notes"] = r.notes;
  out["target"] = id;
  out["nominal_target"] = nominal;
  nlohmann::json subs = nlohmann::json::array();
  for (const auto& s : dur.subtests)
    subs.push_back({{"id", s.id}, {"applicable_cells", s.applicable_cells}, {"round_seconds", s.round_seconds},
                    {"max_rounds_seconds", s.max_rounds_seconds}, {"wipc_bytes", s.wipc_bytes},
                    {"wipc_seconds_estimated", s.wipc_seconds}, {"worst_case_seconds", s.seconds},
                    {"worst_case", s.how}});
  out["worst_case"] = {{"rounds_seconds", dur.rounds_seconds}, {"unbounded", dur.unbounded},
                       {"wipc_seconds_estimated", dur.wipc_seconds},
                       {"wipc_assumed_write_mbps", dur.assumed_write_mbps}, {"subtests", subs}};
  std::printf("%s\n", json_text(out).c_str());
}

}  // namespace

int cmd_plan(const PlanArgs& args) {
  std::vector<std::string> errors = args.errors;
  config::RunOptions options;
  for (auto& m : config::set_run_options(options, args.run_options)) errors.push_back(std::move(m));
  uint64_t capacity = 1ull << 40;
  uint32_t lba_size = 512;
  double wipc_mbps = config::kAssumedWipcWriteMbps;
  const bool json = args.json;
  if (args.wipc_mbps) {
    const std::string& value = *args.wipc_mbps;
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size() || !(v > 0) || v > 1e6)
      errors.push_back(core::bad_option_value("--wipc-mbps", value, "is not a write rate in MB/s above 0 (e.g. 2000)"));
    else
      wipc_mbps = v;
  }
  if (args.capacity) {
    auto v = core::parse_size_bytes(*args.capacity);
    if (!v || *v == 0)
      errors.push_back(core::bad_option_value("--capacity", *args.capacity, "is not a size (e.g. 1t, 960g, 3840000000000)"));
    else
      capacity = *v;
  }
  if (args.lba_size) {
    auto v = core::parse_size_bytes(*args.lba_size);
    if (!v || *v < 512 || *v > 65536 || (*v & (*v - 1)))
      errors.push_back(core::bad_option_value("--lba-size", *args.lba_size, "is not an LBA size (512, 4096, ...)"));
    else
      lba_size = static_cast<uint32_t>(*v);
  }
  if (args.test.empty()) errors.push_back("TEST: missing (see ptsuite list)");
  if (!args.target.empty() && (args.capacity || args.lba_size))
    errors.push_back("--capacity/--lba-size apply only without TARGET");
  const std::string& test = args.test;
  const std::string& target = args.target;

  std::optional<config::TestDefinition> def;
  if (!test.empty()) {
    auto d = config::find_definition(test);
    if (d) def = std::move(d.value());
    else errors.insert(errors.end(), d.error().messages.begin(), d.error().messages.end());
  }
  if (!errors.empty()) {
    for (const auto& e : errors) std::fprintf(stderr, "ptsuite plan: %s\n", e.c_str());
    return 2;
  }

  const bool nominal = target.empty();
  model::DeviceIdentity id = config::nominal_identity(capacity, lba_size);
  std::string sim_line;
  if (!nominal) {
    auto probed = open_read_only(target);
    core::Result<model::DeviceIdentity> ident =
        probed ? probed->device->identify() : core::Result<model::DeviceIdentity>(probed.error());
    if (probed && probed->sim) sim_line = sim_memory_line(*probed->sim);
    if (!ident) {
      for (const auto& m : ident.error().messages) std::fprintf(stderr, "ptsuite plan: %s\n", m.c_str());
      return core::exit_code(ident.error().kind);
    }
    id = std::move(ident.value());
  }
  auto resolved = config::resolve_plan(*def, options, id, nominal ? engine::uring_engine_limits() : engine_limits_for(target));
  if (!resolved) {
    for (const auto& m : resolved.error().messages) std::fprintf(stderr, "ptsuite plan: %s\n", m.c_str());
    return 2;
  }
  if (json) {
    print_json(*resolved, id, nominal, wipc_mbps, sim_line);
  } else {
    print_plan(*resolved, id, nominal, wipc_mbps);
    if (!sim_line.empty()) std::printf("%s\n", sim_line.c_str());
  }
  return 0;
}

}  // namespace pts::app
