// app/run_target.h — the target a run writes, before the guard takes it: a file target that
// does not exist yet is created (at --size, filled before it is measured), and ptsuite's own
// demo file is made afresh so it needs no confirmation. A file at the demo path without
// ptsuite's marker is someone else's: refused (exit 3), never removed. Whatever this made is
// removed again when the run stops on bad input before writing. May use: every module.
#pragma once

#include <string>

#include "app/run_inputs.h"
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

}  // namespace pts::app
