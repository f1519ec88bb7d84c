// unit-tests/config/definition_fixtures.h — what every config test shares: the shipped
// tests-pts definitions as text and loaded, edits of a definition's text, the line a key sits
// on, the messages a definition text is refused with, and resolution into a plan.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "config/definition.h"
#include "config/plan_resolver.h"
#include "config/run_options.h"

namespace pts::test {

/// The shipped definitions.
inline const std::string kDir = std::string(PTS_SOURCE_DIR) + "/tests-pts/";

/// The text of a shipped definition ("wsat.toml").
inline std::string text_of(const std::string& name) {
  std::ifstream in(kDir + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// `s` with the first `from` replaced by `to` (a failure when `from` is not in it).
inline std::string replace(std::string s, const std::string& from, const std::string& to) {
  auto pos = s.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  return pos == std::string::npos ? s : s.replace(pos, from.size(), to);
}

/// The line (1-based) of the first occurrence of `needle` in `text`.
inline int line_of(const std::string& text, const std::string& needle) {
  const auto pos = text.find(needle);
  EXPECT_NE(pos, std::string::npos) << needle;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(pos), '\n'));
}

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

/// A shipped definition, loaded (a failure when it does not load).
inline config::TestDefinition def(const std::string& name) {
  auto d = config::load_definition(kDir + name);
  EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().message());
  return d.ok() ? d.value() : config::TestDefinition{};
}

/// A shipped definition resolved with `o` for `id` (a failure when it is refused).
inline config::ResolvedPlan resolve(const std::string& name, const config::RunOptions& o = {},
                                    const model::DeviceIdentity& id = config::nominal_identity()) {
  auto r = config::resolve_plan(def(name), o, id, model::EngineLimits{});
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
  return r.ok() ? r.value() : config::ResolvedPlan{};
}

/// The messages resolving a shipped definition is refused with (a failure when it resolves).
inline std::vector<std::string> resolve_errors(const std::string& name, const config::RunOptions& o,
                                               const model::DeviceIdentity& id = config::nominal_identity()) {
  auto r = config::resolve_plan(def(name), o, id, model::EngineLimits{});
  EXPECT_FALSE(r.ok());
  return r.ok() ? std::vector<std::string>{} : r.error().messages;
}

inline bool has_deviation(const config::ResolvedPlan& r, const std::string& code) {
  return std::any_of(r.deviations.begin(), r.deviations.end(), [&](const auto& d) { return d.code == code; });
}

}  // namespace pts::test
