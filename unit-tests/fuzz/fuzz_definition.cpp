// unit-tests/fuzz/fuzz_definition.cpp — libFuzzer target for the TOML test-definition loader
// (config::parse_definition): no crash, hang or UB on any text; a definition it accepts has
// the shape the planner relies on (at least one sub-test with block sizes, a positive finite
// cell length, a window that fits in max_rounds); a refusal carries at least one message.
#include <cmath>
#include <cstdint>
#include <string>

#include "config/definition.h"
#include "fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto def = pts::config::parse_definition(text, "fuzz.toml");
  if (!def.ok()) {
    FUZZ_CHECK(!def.error().message().empty());
    return 0;
  }
  FUZZ_CHECK(!def->subtests.empty());
  for (const auto& s : def->subtests) {
    FUZZ_CHECK(!s.block_sizes.empty());
    for (uint32_t b : s.block_sizes) FUZZ_CHECK(b > 0);
  }
  FUZZ_CHECK(std::isfinite(def->cell_seconds) && def->cell_seconds > 0);
  FUZZ_CHECK(def->window_rounds >= 1 && def->window_rounds <= def->max_rounds);
  FUZZ_CHECK(!def->rw_mix.empty());
  return 0;
}
