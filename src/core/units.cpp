// core/units.cpp — see units.h.
#include "core/units.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace pts::core {

std::optional<uint64_t> parse_size_bytes(std::string_view text) {
  if (text.empty()) return std::nullopt;
  std::string s(text);
  size_t pos = 0;
  while (pos < s.size() && (std::isdigit(static_cast<unsigned char>(s[pos])) || s[pos] == '.')) ++pos;
  if (pos == 0) return std::nullopt;
  std::string num = s.substr(0, pos);
  std::string suffix = s.substr(pos);
  for (auto& c : suffix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  uint64_t mult = 1;
  if (suffix.empty() || suffix == "b") mult = 1;
  else if (suffix == "k" || suffix == "kb" || suffix == "kib") mult = KiB;
  else if (suffix == "m" || suffix == "mb" || suffix == "mib") mult = MiB;
  else if (suffix == "g" || suffix == "gb" || suffix == "gib") mult = GiB;
  else if (suffix == "t" || suffix == "tb" || suffix == "tib") mult = 1024 * GiB;
  else return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(num.c_str(), &end);
  if (end != num.c_str() + num.size() || !(v >= 0)) return std::nullopt;
  double bytes = v * static_cast<double>(mult);
  if (bytes > 1.8e19 || std::floor(bytes) != bytes) return std::nullopt;
  return static_cast<uint64_t>(bytes);
}

std::string format_block_size(uint64_t bytes) {
  char buf[48];
  if (bytes % 512 == 0 && bytes >= 512) {
    if (bytes % KiB == 0) std::snprintf(buf, sizeof buf, "%llu KiB", static_cast<unsigned long long>(bytes / KiB));
    else std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(bytes) / KiB);
  } else {
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
  }
  return buf;
}

std::string format_bytes(uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024.0 && u < 5) { v /= 1024.0; ++u; }
  char buf[48];
  if (u == 0) std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
  else std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

}  // namespace pts::core
