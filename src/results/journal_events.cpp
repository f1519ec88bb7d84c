// results/journal_events.cpp — see journal_events.h.
#include "results/journal_events.h"

#include <nlohmann/json.hpp>

#include "results/codec.h"

namespace pts::results::journal {

namespace {

using nlohmann::json;

std::string dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string header_line(const model::RunRecord& header) {
  return dump(json{{"event", "header"}, {"record", header}});
}

std::string transition_line(const model::Transition& t) {
  return dump(json{{"event", "transition"}, {"transition", t}});
}

std::string purge_line(size_t subtest, const model::PurgeRecord& record) {
  return dump(json{{"event", "purge"}, {"subtest", subtest}, {"purge", record}});
}

std::string precondition_line(size_t subtest, const model::PreconditionRecord& record) {
  return dump(json{{"event", "precondition"}, {"subtest", subtest}, {"precondition", record}});
}

std::string cell_line(size_t subtest, uint32_t round, const model::CellResult& result) {
  return dump(json{{"event", "cell"}, {"subtest", subtest}, {"round", round}, {"cell", result}});
}

std::string round_end_line(size_t subtest, const model::RoundRecord& r) {
  json j = r;
  j.erase("cells");
  return dump(json{{"event", "round_end"}, {"subtest", subtest}, {"round", j}});
}

std::string subtest_end_line(size_t subtest, const model::SubTestRecord& s) {
  json j = s;
  j.erase("rounds");
  j.erase("purge");
  j.erase("failed_purges");
  j.erase("failed_cells");
  j.erase("wipc");
  return dump(json{{"event", "subtest_end"}, {"subtest", subtest}, {"summary", j}});
}

std::string deviation_line(const model::Deviation& d) {
  return dump(json{{"event", "deviation"}, {"deviation", d}});
}

std::string finish_line(const model::RunRecord& record) {
  return dump(json{{"event", "finish"},
                   {"state", record.state},
                   {"ended_wall_ns", record.ended_wall_ns},
                   {"failure", record.failure}});
}

core::Status replay_line(RecordBuilder& b, std::string_view line, const std::string& origin) {
  json j;
  try {
    j = json::parse(line);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for 1e999
    return core::bad_input(origin + ": not valid JSON (" + e.what() + ")");
  }
  if (!j.is_object() || !j.contains("event") || !j["event"].is_string())
    return core::bad_input(origin + ": not a journal event (no \"event\" name)");
  const std::string ev = j["event"].get<std::string>();
  try {
    core::Status st = core::ok_status();
    if (ev == "header") {
      const auto& rec = j.at("record");
      const int version = rec.value("schema_version", 0);
      if (version < 1 || version > model::kRunRecordSchemaVersion)
        return core::bad_input(origin + ": journal schema_version " + std::to_string(version) +
                               (version < 1 ? " is not a ptsuite journal's"
                                            : " is newer than this ptsuite understands (" +
                                                  std::to_string(model::kRunRecordSchemaVersion) +
                                                  "); use a newer ptsuite"));
      st = b.begin(rec.get<model::RunRecord>());
    } else if (ev == "transition") {
      st = b.transition(j.at("transition").get<model::Transition>());
    } else if (ev == "purge") {
      st = b.purge(j.at("subtest").get<size_t>(), j.at("purge").get<model::PurgeRecord>());
    } else if (ev == "precondition") {
      st = b.precondition(j.at("subtest").get<size_t>(), j.at("precondition").get<model::PreconditionRecord>());
    } else if (ev == "cell") {
      st = b.cell(j.at("subtest").get<size_t>(), j.at("round").get<uint32_t>(),
                  j.at("cell").get<model::CellResult>());
    } else if (ev == "round_end") {
      st = b.round_end(j.at("subtest").get<size_t>(), j.at("round").get<model::RoundRecord>());
    } else if (ev == "subtest_end") {
      st = b.subtest_end(j.at("subtest").get<size_t>(), j.at("summary").get<model::SubTestRecord>());
    } else if (ev == "deviation") {
      st = b.deviation(j.at("deviation").get<model::Deviation>());
    } else if (ev == "finish") {
      model::RunRecord fin;
      fin.state = j.at("state").get<model::RunState>();
      fin.ended_wall_ns = j.value("ended_wall_ns", uint64_t{0});
      fin.failure = j.value("failure", std::string());
      st = b.finish(fin);
    } else {
      return core::bad_input(origin + ": unknown journal event \"" + ev + "\"");
    }
    if (!st.ok()) return core::bad_input(origin + ": " + st.error().message());
  } catch (const json::exception& e) {
    return core::bad_input(origin + ": malformed \"" + ev + "\" event (" + e.what() + ")");
  }
  return core::ok_status();
}

}  // namespace pts::results::journal
