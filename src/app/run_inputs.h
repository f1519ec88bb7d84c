// app/run_inputs.h — what `ptsuite run` is given, checked: every input problem that needs no
// device, found at once (exit 2) before the guard — the run options, operator fields and
// report options, TEST and its definition, the run directory, and TARGET inspected without
// changing it (or, without TARGET, the built-in demo target: the `demo` simulated drive, or
// with PTSUITE_DEMO_TARGET=FILE a 256 MiB file ptsuite owns with 0.1 s cells).
// May use: every module.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/command_args.h"
#include "app/run_session.h"
#include "config/definition.h"
#include "config/run_options.h"
#include "core/result.h"
#include "engine/io_target.h"
#include "model/run_record.h"

namespace pts::app {

/// The built-in demo target's file: its size and cell length.
inline constexpr uint64_t kDemoTargetBytes = 256ull << 20;
inline constexpr double kDemoCellSeconds = 0.1;

/// The built-in demo target: PTSUITE_DEMO_TARGET when set (a sim: target, or a file path for
/// the file demo), else the `demo` simulated drive at its default state file.
std::string demo_target();

/// "" when RUNDIR can be a new run's directory (missing, or an empty directory nobody else may
/// write), else why not, naming --out.
std::string check_out_dir(const std::string& dir);

/// reports/TEST-YYYYMMDD-HHMMSS: a run's directory when --out is not given.
std::string default_out_dir(const std::string& test);

/// A run's inputs, all of them valid.
struct RunInputs {
  std::string test;              ///< TEST as given
  std::string target_path;       ///< TARGET, or the demo target
  bool demo = false;             ///< no TARGET given: ptsuite's own demo target
  bool simulated = false;        ///< a sim: target
  config::RunOptions options;
  SessionOptions session;
  std::vector<model::OperatorField> operator_fields;
  config::TestDefinition definition;
  std::string out_dir;           ///< --out, or reports/TEST-YYYYMMDD-HHMMSS
  std::optional<uint64_t> size_bytes;  ///< a file target to create (--size, or the demo file's)
  engine::TargetInfo info;       ///< a real target as inspected (exists = false: to be created)
  std::optional<std::string> confirm;
  bool force_signatures = false;
};

/// Checks everything `run` was given that needs no device; BadInput with every problem at
/// once. The target is only inspected.
core::Result<RunInputs> check_run_inputs(const RunArgs& args);

}  // namespace pts::app
