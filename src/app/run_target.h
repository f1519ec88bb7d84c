// app/run_target.h — the target a run writes, before the guard takes it: a file target that
// does not exist yet is created (at --size, filled before it is measured), and ptsuite's own
// demo file is made afresh so it needs no confirmation. A file at the demo path without
// ptsuite's marker is someone else's: refused (exit 3), never removed. Whatever this made is
// removed again when the run stops on bad input before writing. May use: every module.
#pragma once

#include <memory>
#include <string>

#include "app/run_inputs.h"
#include "app/target_open.h"
#include "config/plan_resolver.h"
#include "engine/io_engine.h"
#include "core/result.h"

namespace pts::app {

/// A file this run created (removed by discard() unless kept()).
class CreatedFile {
 public:
  CreatedFile() = default;
  explicit CreatedFile(std::string path) : path_(std::move(path)) {}
  bool created() const { return !path_.empty(); }
  /// Removes the file this run created (input found bad before anything was written).
  void discard();

 private:
  std::string path_;
};

/// Makes the run's real target ready for the guard: the demo file afresh, a missing file
/// created; `in.info` is then the created target's. A simulated drive or an existing target
/// is left as it is.
core::Result<CreatedFile> prepare_run_target(RunInputs& in);

/// The guard, then the plan and the engine: what must hold before anything is written.
struct Held {
  WritableTarget target;
  config::ResolvedPlan resolved;
  std::unique_ptr<engine::IoEngine> engine;
};

/// The one guard entry point (examination, the exclusive descriptor held for the whole run —
/// a simulated drive: an exclusive lock on its state file —, signatures, consent; ptsuite's
/// own demo drive needs none), then the plan, which needs the capacity (its bad input, exit 2,
/// is found with the held descriptor only read so far), then the engine. The guard comes
/// first: an in-use target is exit 3 with its reason, even when the plan would not fit it.
/// `created`: prepare_run_target made the target.
core::Result<Held> hold_and_plan(const RunInputs& in, bool created);

}  // namespace pts::app
