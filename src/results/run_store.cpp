// results/run_store.cpp — see run_store.h.
#include "results/run_store.h"

#include <sys/stat.h>

#include "core/atomic_file.h"
#include "results/codec.h"

namespace pts::results {

core::Status save_run_json(const model::RunRecord& record, const std::string& run_dir) {
  return core::atomic_write_file(run_dir + "/" + kRunJson, run_record_to_json_text(record));
}

core::Result<model::RunRecord> parse_run_json(const std::string& text, const std::string& origin) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for 1e999
    return core::bad_input(origin + ": not valid JSON (" + e.what() + ")");
  }
  if (!j.is_object() || !j.contains("schema_version") || !j["schema_version"].is_number_integer())
    return core::bad_input(origin + ": not a ptsuite run record (no integer schema_version)");
  const int version = j["schema_version"].get<int>();
  if (version > model::kRunRecordSchemaVersion)
    return core::bad_input(origin + ": schema_version " + std::to_string(version) +
                           " is newer than this ptsuite understands (" +
                           std::to_string(model::kRunRecordSchemaVersion) + "); use a newer ptsuite");
  try {
    return j.get<model::RunRecord>();
  } catch (const nlohmann::json::exception& e) {
    return core::bad_input(origin + ": malformed run record (" + e.what() + ")");
  }
}

core::Result<model::RunRecord> load_run_json(const std::string& run_dir) {
  struct stat st {};
  if (::stat(run_dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return core::bad_input(run_dir + ": no such run directory");
  const std::string path = run_dir + "/" + kRunJson;
  auto text = core::read_file(path);
  if (!text.ok()) return core::bad_input(run_dir + ": no run.json (not a run directory, or the run never started)");
  return parse_run_json(*text, path);
}

}  // namespace pts::results
