// app/json_out.h — JSON the commands print: never throws on bytes that are not UTF-8 (a
// serial, a model, a path), they come out as U+FFFD. May use: nlohmann_json.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace pts::app {

inline std::string json_text(const nlohmann::json& j, int indent = 2) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace pts::app
