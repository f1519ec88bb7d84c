// app/finished_runs.h — the run directories `compare` and `check` read: each must hold a
// complete run whose run.json is of this ptsuite's format version. Every problem of every
// directory at once, naming the file and line (exit 2 at the caller); never writes.
// May use: core, model, results, report (labels).
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "model/run_record.h"

namespace pts::app {

struct FinishedRun {
  std::string dir;   ///< as given
  std::string name;  ///< the directory's own name ("drive-a-iops"); the whole path when two share one
  model::RunRecord record;
};

/// Loads every directory of `dirs`. BadInput listing every problem: not a directory, no
/// run.json, a malformed or foreign record, another format version (schema_version), a run that
/// did not complete (state, or a sub-test without its Measurement Window).
core::Result<std::vector<FinishedRun>> load_finished_runs(const std::vector<std::string>& dirs);

}  // namespace pts::app
