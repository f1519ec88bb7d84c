// app/multi_session.h — what `run` and `resume` of a multi-drive run share once every drive is
// held, planned and has its journal: one thread per drive running its own PTS state machine
// (start_run or resume_run) on its lockstep engine (app/lockstep.h), Ctrl-C for all of them,
// then per drive its report files and summary (as a one-drive run writes them), and in the run
// root the aggregate (aggregate.json, aggregate.xlsx) from the lockstep log. The run root's
// manifest (lockstep.json) names the drives, so `resume ROOT` finds them.
// May use: every module.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/run_session.h"
#include "app/target_open.h"
#include "core/result.h"
#include "engine/io_engine.h"
#include "pts/runner.h"
#include "results/journal.h"

namespace pts::app {

/// The manifest of a multi-drive run, under its root.
inline constexpr const char* kLockstepManifest = "lockstep.json";

struct ManifestDrive {
  std::string label, target;
};

struct Manifest {
  std::string test_id;
  std::vector<ManifestDrive> drives;
};

core::Status write_manifest(const std::string& root, const Manifest& m);
core::Result<Manifest> read_manifest(const std::string& root);

/// One drive, ready to go.
struct LockstepDriveRun {
  std::string label;
  std::string dir;                           ///< its run directory (ROOT/label)
  WritableTarget target;                     ///< held through the guard
  std::unique_ptr<engine::IoEngine> own;     ///< a simulated drive's own engine; null for a real one
  std::unique_ptr<results::JournalSink> sink;
  uint64_t size_bytes = 0;
  std::function<runner::RunResult(runner::RunEnv&)> go;  ///< start_run or resume_run
  bool skip = false;                         ///< resume: its run is complete already
};

/// Runs every drive (see the top of this file); `combined` (real drives) runs the lockstep cells
/// with job target i = drives[i]. Returns the exit code: 0 when every drive's run is complete,
/// else 130 when interrupted, else the first failed drive's code (each drive's own record says
/// how it ended).
int run_lockstep(const char* command, const std::string& root, const std::string& test_id,
                 std::vector<LockstepDriveRun>& drives, engine::IoEngine* combined, const SessionOptions& options);

/// Writes ROOT/aggregate.json and ROOT/aggregate.xlsx from ROOT/lockstep.jsonl; prints the
/// per-cell headline unless `quiet`.
core::Status write_aggregate(const std::string& root, const std::string& test_id, const std::vector<std::string>& labels,
                             bool quiet);

}  // namespace pts::app
