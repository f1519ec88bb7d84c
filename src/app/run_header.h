// app/run_header.h — the header of a new run's record: what ran (tool, engine, git revision,
// the command line), where (host, the drive's identity and how it was held and confirmed),
// the plan, and every deviation known before the first cell (the plan's, the guard's, a
// simulated drive's, the demo target's). May use: every module.
#pragma once

#include <string>
#include <vector>

#include "app/run_inputs.h"
#include "app/target_open.h"
#include "config/plan_resolver.h"
#include "engine/io_engine.h"
#include "model/run_record.h"

namespace pts::app {

/// The record's header for a run of `in` on `target` with `resolved`'s plan and `engine`.
model::RunRecord run_header(const RunInputs& in, const WritableTarget& target, const config::ResolvedPlan& resolved,
                            const engine::IoEngine& engine, const std::vector<std::string>& words);

}  // namespace pts::app
