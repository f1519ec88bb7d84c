// results/run_store.h — run.json on disk: atomic save and checked load (schema_version).
// May use: core, model, results/codec.
#pragma once

#include <string>

#include "core/result.h"
#include "model/run_record.h"

namespace pts::results {

/// File names inside a run directory (design.md: run dir layout).
inline constexpr const char* kRunJson = "run.json";
inline constexpr const char* kJournal = "journal.jsonl";

/// Writes RUNDIR/run.json atomically (temp + fsync + rename).
core::Status save_run_json(const model::RunRecord& record, const std::string& run_dir);

/// Loads RUNDIR/run.json. BadInput when the directory or run.json is missing, the JSON is
/// malformed, or its schema_version is newer than this build understands.
core::Result<model::RunRecord> load_run_json(const std::string& run_dir);

/// Parses run.json text (same checks as load_run_json; `origin` names the source in messages).
core::Result<model::RunRecord> parse_run_json(const std::string& text, const std::string& origin);

}  // namespace pts::results
