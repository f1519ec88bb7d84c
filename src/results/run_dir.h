// results/run_dir.h — trusting and repairing a run directory before it steers anything: a
// directory (or its journal, run.json) that another user owns or that group/others may write
// is refused, so a forged journal cannot point root's `resume` at another device; and run.json
// is rebuilt from the journal when the journal is ahead of it (a crash between the last
// journal line and the save). May use: core, model, results.
#pragma once

#include <string>

#include "core/result.h"
#include "model/run_record.h"

namespace pts::results {

/// Refused (naming the file, its owner and mode) unless RUNDIR, and its journal and run.json
/// where they exist, are owned by this process's effective user and not writable by group or
/// others, and neither file is a symbolic link.
core::Status check_run_dir_trusted(const std::string& run_dir);

/// Writes run.json from `replayed` (the record the journal rebuilds) when run.json is missing,
/// unreadable or says something else. True when it was rewritten.
core::Result<bool> rebuild_run_json_if_behind(const std::string& run_dir, const model::RunRecord& replayed);

}  // namespace pts::results
