// config/requirements.h — reads a requirement sheet (tests-pts/requirements/*.toml) into a
// model::RequirementSheet: named test points and the requirements on them. Every problem of the
// file at once as file:line (an unknown key, a point no requirement can reach, a test that
// tests-pts/ does not define, a limit that is not a number, a figure ptsuite does not record —
// the last asked of the caller's FigureCheck, since the figure vocabulary is the report's).
// May use: core, model, toml++ (inside the .cpp).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "core/result.h"
#include "model/requirement.h"

namespace pts::config {

/// Whether a requirement's figure is one ptsuite records: nullopt when it is, else what is
/// wrong ("is not one ptsuite records per Measurement Window (known: ...)").
using FigureCheck = std::function<std::optional<std::string>(const std::string& figure)>;

/// Parses `text` read from `file`. BadInput with "file:line: problem" lines, every one at once.
core::Result<model::RequirementSheet> parse_requirement_sheet(const std::string& text, const std::string& file,
                                                              const FigureCheck& figure_check);

/// Reads and parses `path`. BadInput when it cannot be read or is invalid.
core::Result<model::RequirementSheet> load_requirement_sheet(const std::string& path, const FigureCheck& figure_check);

}  // namespace pts::config
