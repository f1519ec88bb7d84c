// app/run_inputs.cpp — see run_inputs.h.
#include "app/run_inputs.h"

#include <cctype>
#include <cstdlib>
#include <filesystem>

#include "app/target_open.h"
#include "config/catalog.h"
#include "config/operator_fields.h"
#include "core/clock.h"
#include "core/option_text.h"
#include "core/units.h"
#include "results/run_dir.h"
#include "sim/target.h"

namespace pts::app {

namespace {

namespace fs = std::filesystem;

void add(std::vector<std::string>& errors, const core::Error& e) {
  errors.insert(errors.end(), e.messages.begin(), e.messages.end());
}

}  // namespace

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

std::string demo_target() {
  const char* env = std::getenv("PTSUITE_DEMO_TARGET");
  return env && *env ? env : kDemoTarget;
}

core::Result<RunInputs> check_run_inputs(const RunArgs& args) {
  std::vector<std::string> errors = args.errors;
  RunInputs in;
  in.session = session_options(args.session, errors);
  for (auto& m : config::set_run_options(in.options, args.run_options)) errors.push_back(std::move(m));
  if (args.size) {
    auto b = core::parse_size_bytes(*args.size);
    if (!b || *b == 0) errors.push_back(core::bad_option_value("--size", *args.size, "is not a size (e.g. 256m, 1g)"));
    else in.size_bytes = b;
  }
  auto operator_fields = config::resolve_operator_fields(args.operator_fields);
  if (!operator_fields.ok()) add(errors, operator_fields.error());
  else in.operator_fields = *operator_fields;
  if (args.test.empty()) errors.push_back("TEST: missing (a test of ptsuite list, or a definition file)");
  in.confirm = args.confirm;
  in.force_signatures = args.force_signatures;
  in.demo = args.target.empty();
  in.test = args.test;
  in.target_path = in.demo ? demo_target() : args.target;
  in.simulated = is_simulated(in.target_path);
  if (in.demo && !in.simulated && !in.options.cell_seconds) in.options.cell_seconds = kDemoCellSeconds;
  const bool size_given = in.size_bytes.has_value();
  if (in.demo && !in.simulated && !in.size_bytes) in.size_bytes = kDemoTargetBytes;
  if (args.out) in.out_dir = *args.out;
  else if (!in.test.empty()) in.out_dir = default_out_dir(in.test);
  if (!in.out_dir.empty())
    if (auto why = check_out_dir(in.out_dir); !why.empty()) errors.push_back(why);

  if (!in.test.empty()) {
    auto def = config::find_definition(in.test);
    if (!def.ok()) add(errors, def.error());
    else in.definition = std::move(def.value());
  }
  // The target is only inspected here (no I/O that changes it).
  bool inspected = false;
  if (in.simulated) {
    if (size_given) errors.push_back("--size: not for a simulated drive (give capacity=SIZE in the sim: target)");
    if (auto t = sim::parse_sim_target(in.target_path); !t.ok()) add(errors, t.error());
    else inspected = true;
  } else if (!in.test.empty()) {
    auto ti = engine::inspect_target(in.target_path, /*need_write=*/true);
    if (!ti.ok()) {
      add(errors, ti.error());
    } else {
      in.info = *ti;
      inspected = true;
      if (!in.info.exists && !in.size_bytes)
        errors.push_back("--size: needed to create the missing file " + in.target_path);
      if (in.info.exists && size_given && !in.demo)
        errors.push_back("--size: only for creating a file target; " + in.target_path + " exists");
    }
  }
  if (errors.empty() && !inspected) errors.push_back("TARGET: could not be inspected");
  if (!errors.empty()) return core::Error(core::ErrorKind::BadInput, std::move(errors));
  return in;
}

}  // namespace pts::app
