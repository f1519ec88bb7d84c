// unit-tests/config/definition_problems.h — what the definition tests share: the messages a
// definition text is refused with, and a search in them.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/definition.h"

namespace pts::test {

/// The messages `text` (as file x.toml) is refused with; empty when it parses.
inline std::vector<std::string> problems(const std::string& text) {
  auto d = config::parse_definition(text, "x.toml");
  if (d.ok()) return {};
  EXPECT_EQ(d.error().kind, core::ErrorKind::BadInput);
  return d.error().messages;
}

/// Whether any message contains `needle`.
inline bool has(const std::vector<std::string>& msgs, const std::string& needle) {
  for (const auto& m : msgs)
    if (m.find(needle) != std::string::npos) return true;
  return false;
}

}  // namespace pts::test
