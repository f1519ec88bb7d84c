// config/resolver_text.h — internal to config/: the few words plan resolution writes into
// labels, deviations and errors ("RND", "65/35", "PTS-E 1.1", "%g"), and why a block size
// cannot run on a target. Shared by plan_resolver.cpp and advanced_resolver.cpp.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "core/units.h"
#include "model/access_spec.h"

namespace pts::config::detail {

inline std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

inline std::string mix(uint32_t read_pct) { return std::to_string(read_pct) + "/" + std::to_string(100 - read_pct); }

inline const char* pattern_tag(model::AccessPattern p) { return p == model::AccessPattern::Random ? "RND" : "SEQ"; }

inline std::string edition_title(const std::string& e) {
  return e == "pts-e-1.1" ? "PTS-E 1.1" : e == "pts-2.0.2" ? "PTS 2.0.2" : e;
}

/// Why a block size cannot run on the target, or "" when it can.
inline std::string not_applicable(uint32_t block_bytes, uint32_t lba_size) {
  if (lba_size == 0 || (block_bytes >= lba_size && block_bytes % lba_size == 0)) return {};
  return "block size " + core::format_block_size(block_bytes) + " is " +
         (block_bytes < lba_size ? "smaller than" : "not a multiple of") + " the target's " +
         std::to_string(lba_size) + "-byte LBA size";
}

}  // namespace pts::config::detail
