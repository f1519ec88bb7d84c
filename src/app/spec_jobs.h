// app/spec_jobs.h — `ptsuite spec T1 T2 ...`: one job per target with the same access spec,
// all in one multi-job cell (model/job.h), and the single-target spec's JSON for each of them.
// May use: every module.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "app/command_args.h"
#include "engine/io_target.h"
#include "model/cell.h"

namespace pts::app {

/// `spec` with more than one target (cmd_spec hands it over).
int spec_jobs(const SpecArgs& args);

/// The single-target spec's JSON of one result (cmd_spec.cpp).
nlohmann::json spec_result_json(const model::CellResult& r, const engine::TargetInfo& t, const std::string& engine);

}  // namespace pts::app
