// model/access_spec.cpp — see access_spec.h.
#include "model/access_spec.h"

#include <algorithm>

namespace pts::model {

std::string rw_name(const AccessSpec& spec) {
  const bool rnd = spec.pattern == AccessPattern::Random;
  if (spec.read_pct == 100) return rnd ? "randread" : "read";
  if (spec.read_pct == 0) return rnd ? "randwrite" : "write";
  return rnd ? "randrw" : "rw";
}

uint32_t max_block_bytes(const AccessSpec& spec) {
  uint32_t m = spec.block_bytes;
  if (!spec.bs_split.empty()) {
    m = 0;
    for (const auto& s : spec.bs_split) m = std::max(m, s.bytes);
  }
  return m;
}

}  // namespace pts::model
