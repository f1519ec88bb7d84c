// unit-tests/config/engine_check_test.cpp — engine limits are checked when the plan is
// resolved: a cell or WIPC beyond what the engine publishes is bad input naming the flag,
// all problems at once, before anything touches a device.
#include <gtest/gtest.h>

#include <string>

#include "config/definition.h"
#include "config/engine_check.h"
#include "config/plan_resolver.h"
#include "config/run_options.h"

namespace {

using namespace pts;

model::EngineLimits small_engine() {
  model::EngineLimits l;
  l.engine = "the test engine";
  l.max_queue_depth = 256;
  l.max_threads = 8;
  l.max_buffer_bytes_per_worker = 16ull << 20;
  l.max_buffer_bytes_total = 64ull << 20;
  l.buffer_total_reason = "test";
  l.min_cell_seconds = 0.01;
  return l;
}

bool mentions(const std::vector<std::string>& ms, const std::string& what) {
  for (const auto& m : ms)
    if (m.find(what) != std::string::npos) return true;
  return false;
}

TEST(EngineLimits, ASpecWithinTheLimitsPasses) {
  model::AccessSpec s;
  s.threads = 8;
  s.queue_depth = 256;
  s.block_bytes = 4096;  // 1 MiB per region, 16 MiB in all
  s.seconds = 0.01;
  EXPECT_TRUE(config::check_engine_limits(s, small_engine()).empty());
  EXPECT_TRUE(config::check_engine_limits(s, model::EngineLimits{}).empty());  // no limits known
}

TEST(EngineLimits, EveryLimitNamesItsFlag) {
  model::AccessSpec s;
  s.threads = 9;
  s.queue_depth = 257;
  s.block_bytes = 1 << 20;
  s.seconds = 0.005;
  auto m = config::check_engine_limits(s, small_engine());
  EXPECT_EQ(m.size(), 5u);
  EXPECT_TRUE(mentions(m, "--oio 257: the test engine keeps at most 256 I/Os in flight")) << m[0];
  EXPECT_TRUE(mentions(m, "--threads 9"));
  EXPECT_TRUE(mentions(m, "registers at most 16.0 MiB per region"));
  EXPECT_TRUE(mentions(m, "may pin at most 64.0 MiB (test)"));
  EXPECT_TRUE(mentions(m, "--cell-seconds 0.005"));
  EXPECT_TRUE(mentions(config::check_engine_limits(s, small_engine(), {"--seconds"}), "--seconds 0.005"));
  s.seconds = 0;
  s.bytes_limit = 1 << 30;  // a byte-limited WIPC has no duration to check
  EXPECT_FALSE(mentions(config::check_engine_limits(s, small_engine()), "seconds"));
}

TEST(EngineLimits, ThePlanResolverRefusesAPlanBeyondThem) {
  auto d = config::load_definition(std::string(PTS_SOURCE_DIR) + "/tests-pts/iops.toml");
  ASSERT_TRUE(d.ok());
  config::RunOptions o;
  ASSERT_EQ(config::set_run_option(o, "--oio", "40000"), "");
  ASSERT_EQ(config::set_run_option(o, "--cell-seconds", "0.001"), "");
  auto r = config::resolve_plan(*d, o, config::nominal_identity(), small_engine());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::BadInput);
  const auto& m = r.error().messages;
  EXPECT_TRUE(mentions(m, "--oio 40000"));
  EXPECT_TRUE(mentions(m, "--cell-seconds 0.001"));
  for (size_t i = 0; i < m.size(); ++i)  // one message per problem, not one per cell
    for (size_t j = i + 1; j < m.size(); ++j) EXPECT_NE(m[i], m[j]);
  // The same plan resolves without limits.
  EXPECT_TRUE(config::resolve_plan(*d, o, config::nominal_identity(), model::EngineLimits{}).ok());
}

}  // namespace
