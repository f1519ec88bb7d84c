// unit-tests/fuzz/fuzz_series_csv.cpp — libFuzzer target for `ptsuite analyze`'s input: the
// series CSV reader (config::parse_series_csv) and the steady-state analysis it feeds
// (steady::analyze_series, every window). No crash, hang or UB; an accepted series is
// non-empty and every value is finite.
#include <cmath>
#include <cstdint>
#include <string>

#include "config/series_csv.h"
#include "fuzz/fuzz_check.h"
#include "steady/steady_state.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  // The first byte picks the window length (2..9), as `analyze --window N` would.
  const uint32_t window = 2 + data[0] % 8;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  auto values = pts::config::parse_series_csv(text, "fuzz.csv");
  if (!values.ok()) {
    FUZZ_CHECK(!values.error().message().empty());
    return 0;
  }
  FUZZ_CHECK(!values->empty());
  for (double v : *values) FUZZ_CHECK(std::isfinite(v));
  const auto analysis = pts::steady::analyze_series(*values, window);
  FUZZ_CHECK(analysis.windows.size() == (values->size() >= window ? values->size() - window + 1 : 0));
  return 0;
}
