// results/codec_define.h — for codec.cpp and codec_record.cpp only: defines a record's
// to_json/from_json (declared in codec.h) from its member list. Same as nlohmann's
// NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT but not inline, so each is compiled once; a
// key missing from the JSON takes the member's default (value-initialised record).
#pragma once

#include <nlohmann/json.hpp>

#define PTS_JSON_DEFINE(Type, ...)                                                           \
  void to_json(nlohmann::json& nlohmann_json_j, const Type& nlohmann_json_t) {               \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(NLOHMANN_JSON_TO, __VA_ARGS__))                 \
  }                                                                                          \
  void from_json(const nlohmann::json& nlohmann_json_j, Type& nlohmann_json_t) {             \
    const Type nlohmann_json_default_obj{};                                                  \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(NLOHMANN_JSON_FROM_WITH_DEFAULT, __VA_ARGS__))  \
  }

/// The same under other names (inside an unnamed namespace), for a record whose JSON adds keys of its own around
/// its members (TestPlan's procedure parameters).
#define PTS_JSON_DEFINE_AS(Type, to_name, from_name, ...)                                    \
  void to_name(nlohmann::json& nlohmann_json_j, const Type& nlohmann_json_t) {               \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(NLOHMANN_JSON_TO, __VA_ARGS__))                 \
  }                                                                                          \
  void from_name(const nlohmann::json& nlohmann_json_j, Type& nlohmann_json_t) {             \
    const Type nlohmann_json_default_obj{};                                                  \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(NLOHMANN_JSON_FROM_WITH_DEFAULT, __VA_ARGS__))  \
  }
