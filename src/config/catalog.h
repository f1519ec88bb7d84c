// config/catalog.h — finds the tests-pts directory and the definition for a CLI test id
// ("iops", "throughput"/"tp", "latency"/"lat", or a path to a .toml file).
// May use: core, model (reads files; touches no device).
#pragma once

#include <string>
#include <vector>

#include "config/definition.h"
#include "core/result.h"

namespace pts::config {

/// The tests-pts directory: $PTSUITE_TESTS_DIR, else ../tests-pts or ../../tests-pts next
/// to the running executable (/proc/self/exe), else the source tree it was built from.
/// BadInput when none exists (the message lists every place tried).
core::Result<std::string> find_tests_dir();

/// Every definition file in `dir` (*.toml, not starting with '_'), sorted by file name.
std::vector<std::string> definition_files(const std::string& dir);

/// Loads every definition in `dir`. Errors of all files are collected into one BadInput.
core::Result<std::vector<TestDefinition>> load_all_definitions(const std::string& dir);

/// Finds and loads the definition for `test`: a path ending in ".toml", or an id / alias of
/// a definition in find_tests_dir(). BadInput names the known ids when nothing matches.
core::Result<TestDefinition> find_definition(const std::string& test);

}  // namespace pts::config
