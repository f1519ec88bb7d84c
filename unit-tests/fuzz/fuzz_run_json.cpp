// unit-tests/fuzz/fuzz_run_json.cpp — libFuzzer target for the run.json loader
// (results::parse_run_json): no crash, hang or UB on any text; a record it accepts survives
// a round trip (encode → parse → encode gives the same text), so `report` and `resume` see
// exactly what was loaded.
#include <cstdint>
#include <string>

#include "fuzz/fuzz_check.h"
#include "results/codec.h"
#include "results/run_store.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto record = pts::results::parse_run_json(text, "fuzz/run.json");
  if (!record.ok()) {
    FUZZ_CHECK(!record.error().message().empty());
    return 0;
  }
  const std::string once = pts::results::run_record_to_json_text(*record);
  auto again = pts::results::parse_run_json(once, "fuzz/run.json (re-encoded)");
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(pts::results::run_record_to_json_text(*again) == once);
  return 0;
}
