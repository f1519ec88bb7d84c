// config/resolver_text.h — internal to config/: what plan resolution shares between the run-wide
// settings (plan_resolver.cpp) and the procedures' rows (steady_rounds.cpp, wsat.cpp, ...): the few words it
// writes into labels, deviations and errors ("RND", "65/35", "PTS-E 1.1", "%g"), why a block
// size cannot run on a target, and whether every zone of a zoned spec holds a block there.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/units.h"
#include "model/access_spec.h"
#include "model/device.h"

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

/// Adds an error ("<where> zone 2 (30/15) covers … B …, less than one 64 KiB block<what>") for
/// every zone that holds no block of `max_bs` bytes on `id`'s ActiveRange.
inline void check_zones_fit(const std::vector<model::AccessZone>& zones, uint32_t max_bs,
                            const model::DeviceIdentity& id, double active_range_pct, const std::string& where,
                            const std::string& what, std::vector<std::string>& errors) {
  if (zones.empty() || id.capacity_bytes == 0 || max_bs == 0) return;
  const uint32_t lbs = id.lba_size ? id.lba_size : 512;
  const auto range = static_cast<uint64_t>(static_cast<long double>(id.capacity_bytes) * active_range_pct / 100.0L) /
                     lbs * lbs;
  const auto bounds = model::zone_bounds(zones, range, max_bs);
  for (size_t z = 0; z < zones.size(); ++z)
    if (bounds[z + 1] - bounds[z] < max_bs)
      errors.push_back(where + " zone " + std::to_string(z + 1) + " (" + model::zones_text({zones[z]}) + ") covers " +
                       std::to_string(bounds[z + 1] - bounds[z]) + " B of the ActiveRange on " +
                       (id.path.empty() ? "this target" : id.path) + ", less than one " +
                       core::format_block_size(max_bs) + " block" + what);
}

}  // namespace pts::config::detail
