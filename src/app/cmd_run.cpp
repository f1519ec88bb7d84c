// app/cmd_run.cpp — `ptsuite run TEST [TARGET] [--out RUNDIR] [--confirm SERIAL] [--size SIZE]
// [run options] [--format LIST] [--no-report] [--quiet]`: resolves the plan, asks for consent
// on anything ptsuite did not create itself, then runs the PTS state machine with a journal in
// RUNDIR and writes the report files at the end (also for a partial run). Every input problem
// is reported at once with exit 2 before any device I/O. Without TARGET a built-in demo target
// (a 256 MiB file ptsuite owns) with 0.1 s cells is used. May use: every module.
#include <sys/stat.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "app/block_access_adapter.h"
#include "app/commands.h"
#include "app/confirm_prompt.h"
#include "app/run_session.h"
#include "config/catalog.h"
#include "config/plan_resolver.h"
#include "config/run_options.h"
#include "core/clock.h"
#include "core/units.h"
#include "device/confirm.h"
#include "device/target_device.h"
#include "engine/io_engine.h"
#include "engine/io_target.h"
#include "pts/procedure.h"
#include "pts/runner.h"
#include "results/journal.h"
#include "results/run_store.h"

namespace pts::app {

namespace {

namespace fs = std::filesystem;

constexpr uint64_t kDemoTargetBytes = 256 * core::MiB;
constexpr double kDemoCellSeconds = 0.1;

std::string demo_target_path() {
  const char* env = std::getenv("PTSUITE_DEMO_TARGET");
  return env && *env ? env : "/var/tmp/ptsuite-demo-target.img";
}

void run_usage(FILE* out) {
  std::fprintf(out,
               "usage: ptsuite run TEST [TARGET] [--out RUNDIR] [--confirm SERIAL] [options]\n"
               "  TEST      a test of `ptsuite list` (iops, tp, lat, wsat, hir, xsr, dirth, ecw) or a .toml file\n"
               "  TARGET    NVMe namespace, block device or regular file (created at --size when missing);\n"
               "            default: a %s demo file %s with %g s cells\n"
               "  --out RUNDIR        new or empty run directory (default reports/TEST-YYYYMMDD-HHMMSS)\n"
               "  --confirm SERIAL    consent to destroy TARGET's data (asked interactively otherwise;\n"
               "                      a file this run creates needs none)\n"
               "  --size SIZE         create a missing file TARGET of this size (e.g. 256m)\n"
               "  --format LIST       report files: xlsx,json,csv (default all)\n"
               "  --no-report         write run.json and the journal only\n"
               "  --quiet             no progress output\n"
               "run options:\n",
               core::format_bytes(kDemoTargetBytes).c_str(), demo_target_path().c_str(), kDemoCellSeconds);
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
  std::optional<uint64_t> size_bytes;
  std::vector<std::string> positional;
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
    std::string value;
    bool has_inline = false;
    if (auto eq = a.find('='); eq != std::string::npos) {
      value = a.substr(eq + 1);
      a = a.substr(0, eq);
      has_inline = true;
    }
    bool takes_value = true;
    const bool known = a == "--out" || a == "--confirm" || a == "--size" || config::is_run_option(a, &takes_value);
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
    else if (a == "--confirm") confirm = value;
    else if (a == "--size") {
      auto b = core::parse_size_bytes(value);
      if (!b || *b == 0) errors.push_back("--size: '" + value + "' is not a size (e.g. 256m, 1g)");
      else size_bytes = b;
    } else if (auto m = config::set_run_option(options, a, value); !m.empty()) {
      errors.push_back(m);
    }
  }
  if (positional.empty() || positional.size() > 2)
    errors.push_back(positional.empty() ? "TEST: missing (a test of ptsuite list, or a definition file)"
                                        : "expected TEST [TARGET], got " + std::to_string(positional.size()) +
                                              " positional arguments");
  const bool demo = positional.size() == 1;
  const std::string test = positional.empty() ? "" : positional[0];
  const std::string target_path = positional.size() == 2 ? positional[1] : demo_target_path();
  if (demo && !options.cell_seconds) options.cell_seconds = kDemoCellSeconds;
  if (demo && !size_bytes) size_bytes = kDemoTargetBytes;
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
  if (!positional.empty() && positional.size() <= 2) {
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

  // The demo target belongs to ptsuite: recreate it fresh, so it needs no confirmation.
  bool created = false;
  if (demo && info.exists) {
    std::error_code ec;
    fs::remove(target_path, ec);
    if (ec) return fail({"demo target " + target_path + ": cannot remove the previous one (" + ec.message() + ")"}, 2);
    info.exists = false;
  }
  if (!info.exists) {
    auto made = engine::create_file_target(target_path, *size_bytes);
    if (!made.ok()) return fail(made.error());
    created = true;
    auto again = engine::inspect_target(target_path, true);
    if (!again.ok()) return fail(again.error());
    info = *again;
  }
  auto remove_created = [&] {
    if (created) {
      std::error_code ec;
      fs::remove(target_path, ec);
    }
  };

  auto dev = device::open_target(target_path, make_block_access_factory());
  if (!dev.ok()) {
    remove_created();
    return fail(dev.error());
  }
  auto id = (*dev)->identify();
  if (!id.ok()) {
    remove_created();
    return fail(id.error());
  }
  auto resolved = config::resolve_plan(*definition, options, *id);
  if (!resolved.ok()) {
    remove_created();
    return fail(resolved.error());
  }
  if (!runner::find_procedure_for(resolved->plan)) {
    remove_created();
    return fail({"TEST " + test + ": no procedure runs '" + resolved->plan.test_id + "' yet (see ptsuite list)"}, 2);
  }
  if (device::confirmation_required(*id, created)) {
    auto consent = device::check_confirmation(*id, confirm, interactive_serial_prompt());
    if (!consent.ok()) return fail(consent.error());
  }

  auto eng = engine::open_uring_engine(info.target, /*writable=*/true);
  if (!eng.ok()) {
    remove_created();
    return fail(eng.error());
  }

  std::error_code ec;
  const bool made_dir = !fs::exists(*out_dir, ec);
  fs::create_directories(*out_dir, ec);
  if (ec) return fail({"--out " + *out_dir + ": cannot create it (" + ec.message() + ")"}, 2);
  auto sink = results::JournalSink::create(*out_dir);
  if (!sink.ok()) return fail(sink.error());

  model::RunRecord header;
  header.tool_version = std::string(PTS_VERSION) + ", engine " + (*eng)->describe();
  header.git_revision = PTS_GIT_REV;
  header.run_id = fs::path(*out_dir).filename().string();
  header.command_line = join_command(raw_args);
  header.host = collect_host_info();
  header.started_wall_ns = core::wall_ns();
  header.device = *id;
  header.plan = resolved->plan;
  header.deviations = resolved->deviations;
  if (demo)
    header.deviations.push_back({"demo-target", "Built-in demo target: a " + core::format_bytes(*size_bytes) +
                                                    " file (" + target_path + ") re-created for this run, not an SSD"});
  if (!session.quiet) {
    std::fprintf(stderr, "ptsuite run: %s on %s (%s), %zu sub-test(s), cells %g s, max %u rounds -> %s\n",
                 header.plan.title.c_str(), target_path.c_str(), core::format_bytes(id->capacity_bytes).c_str(),
                 header.plan.subtests.size(), header.plan.cell_seconds, header.plan.max_rounds, out_dir->c_str());
    for (const auto& n : resolved->notes) std::fprintf(stderr, "  note: %s\n", n.c_str());
  }
  const int code = run_session("run", *out_dir, **eng, **dev, **sink, header.plan, session,
                               [&](runner::RunEnv& env) {
                                 auto res = runner::start_run(env, header);
                                 return res;
                               });
  // A run refused before anything was journaled leaves no trace in RUNDIR.
  const auto journal = fs::path(*out_dir) / results::kJournal;
  if (fs::exists(journal, ec) && fs::file_size(journal, ec) == 0) {
    fs::remove(journal, ec);
    if (made_dir) fs::remove(*out_dir, ec);
  }
  return code;
}

}  // namespace pts::app
