// app/sim_info.h — what `info` and `plan` show about a simulated drive beyond its NVMe
// identity: profile and every parameter (with where its value comes from), geometry, the
// state memory it needs, write amplification and free space so far, virtual power-on time,
// and the state file's checkpoint/replay figures. May use: sim, nlohmann json.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/session.h"

namespace pts::app {

/// Text lines for `info`.
std::vector<std::string> sim_info_lines(sim::DriveSession& s, bool with_sources);
/// The same as JSON (the "simulated_drive" object of `info --json`).
nlohmann::json sim_info_json(sim::DriveSession& s);
/// One line for `plan`: the memory and state file size the drive needs.
std::string sim_memory_line(const sim::DriveSession& s);

}  // namespace pts::app
