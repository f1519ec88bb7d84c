// config/text_parse.h — internal to config/: strict number parsing for CLI values and CSV
// cells (the whole text must be a finite decimal number; no hex, inf or nan).
// May use: std only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pts::config::detail {

/// Text without leading/trailing blanks and one pair of surrounding double quotes.
std::string trimmed(std::string_view text);
/// A finite decimal number ("12", "-3.5", "1e6"), else nullopt.
std::optional<double> parse_decimal(std::string_view text);
/// A non-negative integer that fits in uint64, else nullopt.
std::optional<uint64_t> parse_unsigned(std::string_view text);

}  // namespace pts::config::detail
