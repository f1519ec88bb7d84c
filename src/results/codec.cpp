// results/codec.cpp — see codec.h.
#include "results/codec.h"

namespace pts::results {

std::string run_record_to_json_text(const model::RunRecord& record) {
  nlohmann::json j = record;
  return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace pts::results
