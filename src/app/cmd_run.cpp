// app/cmd_run.cpp — `ptsuite run TEST [TARGET] [--out RUNDIR] [--confirm SERIAL] [--size SIZE]
// [run options] [--format LIST] [--no-report] [--quiet]`: resolves the plan, asks for consent
// on anything ptsuite did not create itself, then runs the PTS state machine with a journal in
// RUNDIR and writes the report files at the end (also for a partial run). Order: every input
// problem that needs no device at once (exit 2) → the guard and consent (exit 3) → the plan
// against the device's capacity and the engine's limits (exit 2) → anything that writes.
// Without TARGET the built-in demo target is used: the `demo` simulated drive, full-length
// cells in virtual time (or, when PTSUITE_DEMO_TARGET names a file, the quick engine check: a
// 256 MiB file ptsuite owns with 0.1 s cells). May use: every module.
#include <sys/stat.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "app/commands.h"
#include "config/operator_fields.h"
#include "app/guarded_target.h"
#include "app/run_session.h"
#include "app/target_open.h"
#include "config/catalog.h"
#include "config/plan_resolver.h"
#include "config/run_options.h"
#include "core/atomic_file.h"
#include "core/clock.h"
#include "core/units.h"
#include "device/confirm.h"
#include "device/held_target.h"
#include "device/target_device.h"
#include "engine/io_engine.h"
#include "engine/io_target.h"
#include "pts/procedure.h"
#include "pts/runner.h"
#include "results/journal.h"
#include "results/run_dir.h"
#include "results/run_store.h"
#include "sim/target.h"

namespace pts::app {

namespace {

namespace fs = std::filesystem;

constexpr uint64_t kDemoTargetBytes = 256 * core::MiB;
constexpr double kDemoCellSeconds = 0.1;

/// The built-in demo target: PTSUITE_DEMO_TARGET when set (a sim: target, or a file path for
/// the file demo), else the `demo` simulated drive at its default state file.
std::string demo_target() {
  const char* env = std::getenv("PTSUITE_DEMO_TARGET");
  return env && *env ? env : "sim:demo";
}

void run_usage(FILE* out) {
  std::fprintf(out,
               "usage: ptsuite run TEST [TARGET] [--out RUNDIR] [--confirm SERIAL] [options]\n"
               "  TEST      a test of `ptsuite list` (iops, tp, lat, wsat, hir, xsr, dirth, ecw) or a .toml file\n"
               "  TARGET    NVMe namespace, block device, regular file (created at --size when missing), or a\n"
               "            simulated drive sim:PROFILE[,name=value...][@STATE_FILE] (see ptsuite info sim:demo);\n"
               "            default: %s (PTSUITE_DEMO_TARGET=FILE: a %s demo file with %g s cells)\n"
               "  --out RUNDIR        new or empty run directory (default reports/TEST-YYYYMMDD-HHMMSS)\n"
               "  --confirm WHAT      consent to destroy TARGET's data: what `ptsuite info TARGET` shows\n"
               "                      under \"Confirm with\" (asked interactively otherwise; a file this\n"
               "                      run creates needs none)\n"
               "  --force-signatures  overwrite a target holding a file system / LVM / RAID / partition\n"
               "                      table signature (recorded as a deviation)\n"
               "  --size SIZE         create a missing file TARGET of this size (e.g. 256m)\n"
               "  --format LIST       report files: xlsx,json,csv,pdf (default xlsx,json,csv; pdf needs LibreOffice)\n"
               "  --meta KEY=VALUE    an operator header field (repeatable): tested_by, test_sponsor, nand_type,\n"
               "                      form_factor, notes or any other key; stored in run.json, on every page\n"
               "  --lab FILE.toml     operator header fields from a file (key = \"value\" lines); --meta wins\n"
               "  --no-report         write run.json and the journal only\n"
               "  --quiet             no progress output\n"
               "run options:\n",
               demo_target().c_str(), core::format_bytes(kDemoTargetBytes).c_str(), kDemoCellSeconds);
  for (const auto& f : config::run_option_flags()) {
    std::string flag = std::string(f.flag) + (f.value[0] ? std::string(" ") + f.value : "");
    std::fprintf(out, "  %-24s %s\n", flag.c_str(), f.help);
  }
  std::fprintf(out, "Ctrl-C stops after the current cell (twice: aborts it); `ptsuite resume RUNDIR` continues.\n"
                    "Exit codes: 0 done (steady state reached or not), 2 bad input, 3 refused, 4 device/purge,\n"
                    "5 I/O error, 130 interrupted.\n");
}

int fail(const std::vector<std::string>& messages, int code) {
  for (const auto& m : messages) std::fprintf(stderr, "ptsuite run: %s\n", m.c_str());
  return code;
}

int fail(const core::Error& e) { return fail(e.messages, core::exit_code(e.kind)); }

/// "" when RUNDIR can be used (missing, or an empty directory), else why not.
std::string check_out_dir(const std::string& dir) {
  std::error_code ec;
  const auto st = fs::status(dir, ec);
  if (ec || !fs::exists(st)) return "";
  if (!fs::is_directory(st)) return "--out " + dir + ": exists and is not a directory";
  if (!fs::is_empty(dir, ec))
    return "--out " + dir + ": exists and is not empty (choose a new directory; to continue an interrupted run use "
           "`ptsuite resume " + dir + "`)";
  if (auto trusted = results::check_run_dir_trusted(dir); !trusted.ok())  // resume would refuse it later
    return "--out " + trusted.error().message();
  return "";
}

std::string default_out_dir(const std::string& test) {
  std::string stamp = core::iso8601_utc(core::wall_ns());  // 2026-11-30T09:37:05.123Z
  std::string compact;
  for (char c : stamp.substr(0, 19))
    if (c != '-' && c != ':') compact += c == 'T' ? '-' : c;
  std::string name;
  for (char c : test) name += (std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  return "reports/" + name + "-" + compact;
}

std::string join_command(const Args& args) {
  std::string out = "ptsuite run";
  for (const auto& a : args) out += " " + a;
  return out;
}

}  // namespace

int cmd_run(const Args& raw_args) {
  std::vector<std::string> args(raw_args.begin(), raw_args.end());
  std::vector<std::string> errors;
  SessionOptions session;
  take_session_options(args, session, errors);

  config::RunOptions options;
  std::optional<std::string> out_dir, confirm;
  bool force_signatures = false;
  std::optional<uint64_t> size_bytes;
  std::vector<std::string> positional;
  config::OperatorFieldArgs operator_args;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    if (a == "--help" || a == "-h") {
      run_usage(stdout);
      return 0;
    }
    if (a.rfind("--", 0) != 0) {
      positional.push_back(a);
      continue;
    }
    if (a == "--force-signatures") {
      force_signatures = true;
      continue;
    }
    std::string value;
    bool has_inline = false;
    if (auto eq = a.find('='); eq != std::string::npos) {
      value = a.substr(eq + 1);
      a = a.substr(0, eq);
      has_inline = true;
    }
    bool takes_value = true;
    const bool known = a == "--out" || a == "--confirm" || a == "--size" || config::OperatorFieldArgs::is_flag(a) ||
                       config::is_run_option(a, &takes_value);
    if (!known) {
      errors.push_back(a + ": unknown option (see ptsuite run --help)");
      continue;
    }
    if (takes_value && !has_inline) {
      if (i + 1 >= args.size()) {
        errors.push_back(a + ": needs a value");
        continue;
      }
      value = args[++i];
    }
    if (a == "--out") out_dir = value;
    else if (config::OperatorFieldArgs::is_flag(a)) {
      if (auto m = operator_args.take(a, value); !m.empty()) errors.push_back(m);
    } else if (a == "--confirm") confirm = value;
    else if (a == "--size") {
      auto b = core::parse_size_bytes(value);
      if (!b || *b == 0) errors.push_back("--size: '" + value + "' is not a size (e.g. 256m, 1g)");
      else size_bytes = b;
    } else if (auto m = config::set_run_option(options, a, value); !m.empty()) {
      errors.push_back(m);
    }
  }
  auto operator_fields = config::resolve_operator_fields(operator_args);
  if (!operator_fields.ok())
    errors.insert(errors.end(), operator_fields.error().messages.begin(), operator_fields.error().messages.end());
  if (positional.empty() || positional.size() > 2)
    errors.push_back(positional.empty() ? "TEST: missing (a test of ptsuite list, or a definition file)"
                                        : "expected TEST [TARGET], got " + std::to_string(positional.size()) +
                                              " positional arguments");
  const bool demo = positional.size() == 1;
  const std::string test = positional.empty() ? "" : positional[0];
  const std::string target_path = positional.size() == 2 ? positional[1] : demo_target();
  const bool simulated = is_simulated(target_path);
  if (demo && !simulated && !options.cell_seconds) options.cell_seconds = kDemoCellSeconds;
  if (demo && !simulated && !size_bytes) size_bytes = kDemoTargetBytes;
  if (!out_dir && !test.empty()) out_dir = default_out_dir(test);
  if (out_dir)
    if (auto why = check_out_dir(*out_dir); !why.empty()) errors.push_back(why);

  std::optional<config::TestDefinition> definition;
  if (!test.empty()) {
    auto def = config::find_definition(test);
    if (!def.ok()) errors.insert(errors.end(), def.error().messages.begin(), def.error().messages.end());
    else definition = std::move(def.value());
  }
  // The target is only inspected here (no I/O that changes it).
  engine::TargetInfo info;
  bool inspected = false;
  if (simulated) {
    if (size_bytes) errors.push_back("--size: not for a simulated drive (give capacity=SIZE in the sim: target)");
    if (auto t = sim::parse_sim_target(target_path); !t.ok())
      errors.insert(errors.end(), t.error().messages.begin(), t.error().messages.end());
    else
      inspected = true;
  } else if (!positional.empty() && positional.size() <= 2) {
    auto ti = engine::inspect_target(target_path, /*need_write=*/true);
    if (!ti.ok()) {
      errors.insert(errors.end(), ti.error().messages.begin(), ti.error().messages.end());
    } else {
      info = *ti;
      inspected = true;
      if (!info.exists && !size_bytes)
        errors.push_back("--size: needed to create the missing file " + target_path);
      if (info.exists && size_bytes && !demo)
        errors.push_back("--size: only for creating a file target; " + target_path + " exists");
    }
  }
  if (!errors.empty()) return fail(errors, 2);
  if (!inspected) return fail({"TARGET: could not be inspected"}, 2);

  // The demo target belongs to ptsuite: recreate it fresh, so it needs no confirmation. A
  // file at the demo path without ptsuite's marker is someone else's: never removed.
  bool created = false;
  if (demo && !simulated && info.exists) {
    if (info.kind != model::TargetKind::File || !device::carries_demo_marker(target_path))
      return fail({"refused: the demo target path " + target_path + " holds a " +
                   (info.kind == model::TargetKind::File ? "file" : "device") +
                   " without ptsuite's demo marker: it is not ptsuite's; move it away or set PTSUITE_DEMO_TARGET; "
                   "nothing was written"},
                  3);
    std::error_code ec;
    fs::remove(target_path, ec);
    if (ec) return fail({"demo target " + target_path + ": cannot remove the previous one (" + ec.message() + ")"}, 2);
    info.exists = false;
  }
  if (!simulated && !info.exists) {
    auto made = engine::create_file_target(target_path, *size_bytes);
    if (!made.ok()) return fail(made.error());
    created = true;
    if (demo)
      if (auto marked = device::mark_demo_target(target_path); !marked.ok())
        std::fprintf(stderr, "ptsuite run: warning: %s (the next demo run will refuse this file)\n",
                     marked.error().message().c_str());
    auto again = engine::inspect_target(target_path, true);
    if (!again.ok()) return fail(again.error());
    info = *again;
  }
  std::optional<WritableTarget> writable;
  auto remove_created = [&] {
    if (created) {
      std::error_code ec;
      fs::remove(target_path, ec);
    }
    if (writable) discard_created(*writable);  // a state file this run made and could not use
  };

  // The guard first (argument check -> guard -> anything that touches the device): an in-use
  // target is exit 3 with its reason, even when the plan would not fit it. The one guard entry
  // point: examination, the exclusive descriptor held for the whole run (a simulated drive: an
  // exclusive lock on its state file), signatures, consent. ptsuite's own demo drive needs no
  // consent (it is recorded as the demo target); nothing is written before the plan is
  // resolved, and a file or state file made here is removed again on bad input.
  {
    auto w = acquire_writable(target_path, writing_options(confirm, force_signatures, simulated ? demo : created));
    if (!w.ok()) {
      remove_created();
      return fail(w.error());
    }
    writable = std::move(w.value());
  }
  auto& held = writable->held;
  const model::DeviceIdentity* id = &held->identity();
  // The plan needs the capacity: its bad input (exit 2) is found here, before any device I/O
  // that writes (the held descriptor has only been read so far).
  auto resolved = config::resolve_plan(*definition, options, *id, engine_limits_for(target_path));
  if (!resolved.ok()) {
    remove_created();
    return fail(resolved.error());
  }
  if (!runner::find_procedure_for(resolved->plan)) {
    remove_created();
    return fail({"TEST " + test + ": no procedure runs '" + resolved->plan.test_id + "' yet (see ptsuite list)"}, 2);
  }
  if (!session.quiet) std::fprintf(stderr, "ptsuite run: %s\n", consent_line(*held).c_str());

  auto eng = open_engine(*writable, info, /*writable=*/true);
  if (!eng.ok()) {
    remove_created();
    return fail(eng.error());
  }

  std::error_code ec;
  const bool made_dir = !fs::exists(*out_dir, ec);
  if (auto made = core::create_directories_durable(*out_dir); !made.ok())  // fsync'd into its parent
    return fail({"--out " + *out_dir + ": cannot create it (" + made.error().message() + ")"},
                core::exit_code(made.error().kind));
  auto sink = results::JournalSink::create(*out_dir);
  if (!sink.ok()) return fail(sink.error());

  model::RunRecord header;
  header.tool_version = std::string(PTS_VERSION) + ", engine " + (*eng)->describe();
  header.git_revision = PTS_GIT_REV;
  header.run_id = fs::path(*out_dir).filename().string();
  header.command_line = join_command(raw_args);
  header.host = collect_host_info();
  header.started_wall_ns = writable->clock->wall_ns();
  header.device = held->identity();
  header.consent = held->consent();
  header.plan = resolved->plan;
  header.deviations = resolved->deviations;
  header.operator_fields = *operator_fields;
  for (const auto& [code, text] : held->deviations()) header.deviations.push_back({code, text});
  mark_simulated(*writable, header);
  if (demo && simulated)
    header.deviations.push_back({"demo-target", "Built-in demo target " + writable->path +
                                                    " (a simulated drive; set PTSUITE_DEMO_TARGET to use another), "
                                                    "not an SSD"});
  else if (demo)
    header.deviations.push_back({"demo-target", "Built-in demo target: a " + core::format_bytes(*size_bytes) +
                                                    " file (" + target_path + ") re-created for this run, not an SSD"});
  if (!session.quiet) {
    std::fprintf(stderr, "ptsuite run: %s on %s (%s), %zu sub-test(s), cells %g s, max %u rounds -> %s\n",
                 header.plan.title.c_str(), target_path.c_str(), core::format_bytes(id->capacity_bytes).c_str(),
                 header.plan.subtests.size(), header.plan.cell_seconds, header.plan.max_rounds, out_dir->c_str());
    for (const auto& n : resolved->notes) std::fprintf(stderr, "  note: %s\n", n.c_str());
  }
  int code = run_session("run", *out_dir, **eng, held->device(), *writable->clock, **sink, header.plan, session,
                               [&](runner::RunEnv& env) {
                                 auto res = runner::start_run(env, header);
                                 return res;
                               });
  if (!close_target(*writable, "run") && code == 0) code = core::exit_code(core::ErrorKind::Internal);
  // A run refused before anything was journaled leaves no trace in RUNDIR.
  const auto journal = fs::path(*out_dir) / results::kJournal;
  if (fs::exists(journal, ec) && fs::file_size(journal, ec) == 0) {
    fs::remove(journal, ec);
    if (made_dir) fs::remove(*out_dir, ec);
  }
  return code;
}

}  // namespace pts::app
