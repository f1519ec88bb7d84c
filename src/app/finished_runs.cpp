// app/finished_runs.cpp — see finished_runs.h.
#include "app/finished_runs.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "core/atomic_file.h"
#include "report/record_view.h"
#include "results/codec.h"
#include "results/run_store.h"

namespace pts::app {

namespace {

/// 1-based line of the top-level key `key` in pretty-printed run.json text: of the lines that
/// open with it, the least indented (1 when none does).
int line_of_key(const std::string& text, const std::string& key) {
  const std::string needle = "\"" + key + "\":";
  int line = 1, best_line = 1;
  size_t best_indent = std::string::npos;
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    const size_t first = text.find_first_not_of(' ', at);
    if (first < end && text.compare(first, needle.size(), needle) == 0 && first - at < best_indent) {
      best_indent = first - at;
      best_line = line;
    }
    at = end + 1;
    ++line;
  }
  return best_line;
}

}  // namespace

core::Result<std::vector<FinishedRun>> load_finished_runs(const std::vector<std::string>& dirs) {
  std::vector<std::string> problems;
  std::vector<FinishedRun> runs;
  for (const auto& dir : dirs) {
    const std::string json = dir + "/" + results::kRunJson;
    if (!std::filesystem::is_directory(dir)) {
      problems.push_back(dir + ": not a directory");
      continue;
    }
    if (!std::filesystem::exists(json)) {
      problems.push_back(dir + ": holds no " + std::string(results::kRunJson) +
                         " (not a ptsuite run directory, or a run that never saved one: `ptsuite report " + dir +
                         "` rebuilds it from the journal)");
      continue;
    }
    auto text = core::read_file(json);
    if (!text) {
      problems.push_back(json + ": " + text.error().message());
      continue;
    }
    // The format version first, from the raw JSON: an older record may load into this code, but
    // lacks what a comparison rests on (percentiles, the simulated-drive marks, the procedure).
    int version = -1;
    try {
      const auto j = nlohmann::json::parse(*text);
      if (j.is_object() && j.contains("schema_version") && j["schema_version"].is_number_integer())
        version = j["schema_version"].get<int>();
    } catch (const nlohmann::json::exception&) {
    }
    if (version >= 0 && version != model::kRunRecordSchemaVersion) {
      problems.push_back(json + ":" + std::to_string(line_of_key(*text, "schema_version")) + ": schema_version " +
                         std::to_string(version) + " is another format version than this ptsuite's (" +
                         std::to_string(model::kRunRecordSchemaVersion) + "); compare and check read only " +
                         std::to_string(model::kRunRecordSchemaVersion) +
                         (version < model::kRunRecordSchemaVersion ? " (run the test again with this ptsuite)"
                                                                    : " (use the ptsuite that wrote it)"));
      continue;
    }
    auto record = results::parse_run_json(*text, json);
    if (!record) {
      for (const auto& m : record.error().messages) problems.push_back(m);
      continue;
    }
    if (record->state != model::RunState::Complete) {
      problems.push_back(json + ":" + std::to_string(line_of_key(*text, "state")) + ": the run is " +
                         report::run_state_label(record->state) + ", not complete" +
                         (record->state == model::RunState::Failed
                              ? (record->failure.empty() ? "" : " (" + record->failure + ")")
                              : std::string(" (`ptsuite resume ") + dir + "` finishes it)"));
      continue;
    }
    bool windows = true;
    for (const auto& st : record->subtests)
      if (!st.complete || st.window_results.empty()) {
        problems.push_back(json + ":" + std::to_string(line_of_key(*text, "subtests")) + ": sub-test '" + st.id +
                           "' has no stored Measurement Window results (incomplete)");
        windows = false;
      }
    if (record->subtests.empty()) {
      problems.push_back(json + ":" + std::to_string(line_of_key(*text, "subtests")) + ": the run holds no sub-test");
      windows = false;
    }
    if (!windows) continue;
    runs.push_back({dir, std::filesystem::path(dir).lexically_normal().filename().string(), std::move(*record)});
    if (runs.back().name.empty()) runs.back().name = std::filesystem::path(dir).lexically_normal().parent_path().filename().string();
  }
  std::map<std::string, int> seen;
  for (const auto& r : runs) ++seen[r.name];
  for (auto& r : runs)
    if (seen[r.name] > 1 || r.name.empty()) r.name = r.dir;
  if (!problems.empty()) return core::Error(core::ErrorKind::BadInput, problems);
  return runs;
}

}  // namespace pts::app
