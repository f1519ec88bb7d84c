// results/journal_events.h — one journal.jsonl line per RecordSink call, and the replay of a
// line into a RecordBuilder. A line is `{"event": NAME, ...}` with NAME one of header,
// transition, purge, precondition, cell, round_end, subtest_end, deviation, finish; payloads
// use the codec's JSON of the model records (docs/run-record.md). May use: core, model,
// results/codec (nlohmann stays inside results).
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"
#include "model/run_record.h"
#include "results/record_builder.h"

namespace pts::results::journal {

std::string header_line(const model::RunRecord& header);
std::string transition_line(const model::Transition& t);
std::string purge_line(size_t subtest, const model::PurgeRecord& record);
std::string precondition_line(size_t subtest, const model::PreconditionRecord& record);
std::string cell_line(size_t subtest, uint32_t round, const model::CellResult& result);
std::string round_end_line(size_t subtest, const model::RoundRecord& round_without_cells);
std::string subtest_end_line(size_t subtest, const model::SubTestRecord& summary_without_rounds);
std::string deviation_line(const model::Deviation& d);
std::string finish_line(const model::RunRecord& record);

/// Applies one line (without its newline) to `builder`. BadInput naming `origin` (file:line)
/// when the line is not valid JSON or not a known event.
core::Status replay_line(RecordBuilder& builder, std::string_view line, const std::string& origin);

}  // namespace pts::results::journal
