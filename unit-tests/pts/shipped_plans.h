// unit-tests/pts/shipped_plans.h — the WSAT, HIR, XSR, DIRTH and ECW shipped definitions resolved for the
// fake device, so procedure tests run exactly the plans `ptsuite run` would (scaled by options).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "config/catalog.h"
#include "config/plan_resolver.h"
#include "support.h"

namespace pts::testing {

/// tests-pts/<name>.toml resolved with `options` for `id`.
inline model::TestPlan shipped_plan(const std::string& name, const config::RunOptions& options,
                                    const model::DeviceIdentity& id) {
  auto def = config::load_definition(std::string(PTS_SOURCE_DIR) + "/tests-pts/" + name + ".toml");
  EXPECT_TRUE(def.ok()) << (def.ok() ? "" : def.error().message());
  if (!def.ok()) return {};
  auto r = config::resolve_plan(*def, options, id, model::EngineLimits{});
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
  return r.ok() ? r->plan : model::TestPlan{};
}

/// Every cell the record holds for sub-test `s`, in order.
inline std::vector<model::CellResult> cells_of(const model::RunRecord& r, size_t s) {
  std::vector<model::CellResult> out;
  for (const auto& round : r.subtests[s].rounds)
    for (const auto& c : round.cells) out.push_back(c);
  return out;
}

inline const model::Finding* find_finding(const model::SubTestRecord& s, const std::string& key) {
  for (const auto& f : s.findings)
    if (f.key == key) return &f;
  return nullptr;
}

/// The finding's value; fails the test (and returns NaN) when missing or undefined.
inline double finding_value(const model::SubTestRecord& s, const std::string& key) {
  const auto* f = find_finding(s, key);
  EXPECT_NE(f, nullptr) << key;
  if (!f) return std::nan("");
  EXPECT_TRUE(f->value.has_value()) << key << ": " << f->detail;
  return f->value.value_or(std::nan(""));
}

}  // namespace pts::testing
