// config/text_parse.cpp — see text_parse.h.
#include "config/text_parse.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace pts::config::detail {

std::string trimmed(std::string_view t) {
  const char* blanks = " \t\r\n";
  const auto b = t.find_first_not_of(blanks);
  if (b == std::string_view::npos) return {};
  t = t.substr(b, t.find_last_not_of(blanks) - b + 1);
  if (t.size() >= 2 && t.front() == '"' && t.back() == '"') t = t.substr(1, t.size() - 2);
  return std::string(t);
}

std::optional<double> parse_decimal(std::string_view text) {
  const std::string s = trimmed(text);
  if (s.empty()) return std::nullopt;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<uint64_t> parse_unsigned(std::string_view text) {
  const std::string s = trimmed(text);
  if (s.empty() || s.size() > 20) return std::nullopt;
  for (char c : s)
    if (c < '0' || c > '9') return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (errno == ERANGE || end != s.c_str() + s.size()) return std::nullopt;
  return static_cast<uint64_t>(v);
}

}  // namespace pts::config::detail
