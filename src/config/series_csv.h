// config/series_csv.h — reads a steady-state series for `ptsuite analyze`: one value per
// line, or a CSV with a header row holding a column named `value`. Rounds are numbered
// from 1. May use: core (reads one file).
#pragma once

#include <string>
#include <vector>

#include "core/result.h"

namespace pts::config {

/// Parses `text` (named `file` in messages). Blank lines and lines starting with '#' are
/// skipped. Any cell that is not a finite number is a BadInput "file:line: ..."; every bad
/// line is reported at once.
core::Result<std::vector<double>> parse_series_csv(const std::string& text, const std::string& file);

/// Reads and parses a file (BadInput when it cannot be read).
core::Result<std::vector<double>> load_series_csv(const std::string& path);

}  // namespace pts::config
