// Parameters, profiles and the sim: target syntax: values, overrides and every bad input.
#include <gtest/gtest.h>

#include "sim/geometry.h"
#include "sim/params.h"
#include "sim/target.h"
#include "sim_support.h"

namespace pts::sim {
namespace {

TEST(SimParams, ProfilesValidateAndDocumentEveryParameter) {
  for (const auto& [name, description] : profile_list()) {
    auto p = profile_params(name);
    ASSERT_TRUE(p.ok()) << name;
    EXPECT_TRUE(validate(*p).ok()) << name << ": " << validate(*p).error().message();
    EXPECT_FALSE(description.empty());
    EXPECT_EQ(canonical(*p), name);
    // Every parameter has a documented source in every profile.
    const auto sources = profile_sources(name);
    for (const auto& doc : param_docs()) {
      bool found = false;
      for (const auto& [k, v] : sources) found = found || (k == doc.name && !v.empty());
      EXPECT_TRUE(found) << name << " has no source for " << doc.name;
    }
  }
}

TEST(SimParams, OverridesRoundTripThroughTheCanonicalForm) {
  auto p = profile_params("demo").value();
  EXPECT_EQ(apply_override(p, "op", "28%"), "");
  EXPECT_EQ(apply_override(p, "capacity", "64GiB"), "");
  EXPECT_EQ(apply_override(p, "gc", "fifo"), "");
  EXPECT_EQ(apply_override(p, "read_us", "55.5"), "");
  EXPECT_DOUBLE_EQ(p.op, 0.28);
  EXPECT_EQ(p.capacity_bytes, 64ull << 30);
  EXPECT_EQ(p.read_ns, 55500u);
  const std::string c = canonical(p);
  EXPECT_EQ(c, "demo,capacity=64GiB,op=28%,gc=fifo,read_us=55.5");
  auto t = parse_sim_target("sim:" + c + "@/tmp/x.simdrive");
  ASSERT_TRUE(t.ok()) << t.error().message();
  EXPECT_EQ(all_values(t->params), all_values(p));
  EXPECT_EQ(t->state_path, "/tmp/x.simdrive");
  EXPECT_EQ(t->text(), "sim:" + c + "@/tmp/x.simdrive");
}

TEST(SimParams, BadInputNamesTheParameter) {
  auto p = profile_params("demo").value();
  EXPECT_NE(apply_override(p, "nope", "1").find("unknown parameter 'nope'"), std::string::npos);
  EXPECT_NE(apply_override(p, "op", "0%").find("must be above 0"), std::string::npos);
  EXPECT_NE(apply_override(p, "op", "-5%").find("op="), std::string::npos);
  EXPECT_NE(apply_override(p, "op", "7").find("percentage"), std::string::npos);
  EXPECT_NE(apply_override(p, "capacity", "12XB").find("capacity="), std::string::npos);
  EXPECT_NE(apply_override(p, "gc", "lru").find("greedy or fifo"), std::string::npos);
  p.capacity_bytes = 1000000001;
  auto v = validate(p);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().message().find("not a multiple of the 4096-byte page"), std::string::npos);
}

TEST(SimTarget, ParsesProfilesOverridesAndPaths) {
  setenv("PTSUITE_SIM_DIR", "/tmp", 1);
  auto a = parse_sim_target("sim:demo");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->state_path, "/tmp/ptsuite-sim-demo.simdrive");
  EXPECT_TRUE(a->default_path);
  auto b = parse_sim_target("sim:demo,op=28%");
  ASSERT_TRUE(b.ok());
  EXPECT_NE(b->state_path, a->state_path);  // another drive, another default file
  EXPECT_EQ(b->state_path.rfind("/tmp/ptsuite-sim-demo-", 0), 0u);
  auto c = parse_sim_target("sim:dc-tlc-2t@/tmp/../tmp/d.simdrive");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->state_path, "/tmp/d.simdrive");
  unsetenv("PTSUITE_SIM_DIR");
}

TEST(SimTarget, EveryProblemAtOnce) {
  auto t = parse_sim_target("sim:demo,op=0%,bogus=3,capacity=4097");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().kind, core::ErrorKind::BadInput);
  const std::string m = t.error().message();
  EXPECT_NE(m.find("op=0%"), std::string::npos) << m;
  EXPECT_NE(m.find("unknown parameter 'bogus'"), std::string::npos) << m;
  EXPECT_FALSE(parse_sim_target("sim:nosuch").ok());
  EXPECT_NE(parse_sim_target("sim:nosuch").error().message().find("known: demo"), std::string::npos);
  EXPECT_FALSE(parse_sim_target("sim:").ok());
  EXPECT_FALSE(parse_sim_target("sim:demo@").ok());
  EXPECT_FALSE(parse_sim_target("sim:demo@/no/such/dir/x").ok());
  EXPECT_FALSE(parse_sim_target("sim:demo,capacity").ok());
}

TEST(SimGeometry, ACapacityOverrideKeepsTheSpare) {
  // demo's 48 MiB superblocks at 4 GiB were 92: the 3 kept free and the open frontiers held
  // most of the 7 % spare. The blocks now shrink with the capacity (the profile's superblock
  // count kept), and with the profile's blocks given explicitly the target is refused.
  auto demo = parse_sim_target("sim:demo@/tmp/x.simdrive");
  auto small = parse_sim_target("sim:demo,capacity=4GiB,op=7%@/tmp/x.simdrive");
  ASSERT_TRUE(demo.ok() && small.ok());
  const Geometry full(demo->params), g(small->params);
  EXPECT_EQ(small->params.pages_per_block, 1647u);  // 12288 x 4 GiB / 32 GB = 549.5 wordlines -> 549
  EXPECT_NEAR(double(g.superblocks), double(full.superblocks), 2.0);
  EXPECT_EQ(g.reserve_superblocks, 4u);
  // Spare after the reserve, by hand: (682 - 4) x 1647 pages over 2^20 user pages, less 1.
  EXPECT_EQ(g.superblocks, 682u);
  EXPECT_NEAR(g.spare_after_reserve(), (682.0 - 4) * 1647 / 1048576 - 1, 1e-12);
  ASSERT_EQ(small->derived.size(), 1u);
  EXPECT_EQ(small->derived[0].first, "pages_per_block");
  EXPECT_NE(small->text().find("pages_per_block=1647"), std::string::npos);  // resume reopens the same drive
  auto again = parse_sim_target(small->text());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(all_values(again->params), all_values(small->params));
  auto refused = parse_sim_target("sim:demo,capacity=4GiB,op=7%,pages_per_block=12288@/tmp/x.simdrive");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message().find("92 superblocks of 48 MiB"), std::string::npos) << refused.error().message();
  EXPECT_NE(refused.error().message().find("at least half must remain"), std::string::npos);
  EXPECT_FALSE(parse_sim_target("sim:dc-tlc-2t,capacity=1GiB@/tmp/x.simdrive").ok());  // 12 MiB blocks at least
  // A larger capacity keeps the profile's blocks.
  auto big = parse_sim_target("sim:demo,capacity=64GiB@/tmp/x.simdrive");
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(big->params.pages_per_block, 12288u);
  EXPECT_TRUE(big->derived.empty());
}

TEST(SimGeometry, DerivesLayoutAndMemory) {
  auto p = profile_params("dc-tlc-2t").value();
  Geometry g(p);
  EXPECT_EQ(g.unit_pages, 4u * 3 * 4);       // 4 planes x 3 bits x 4 pages per 16 KiB page
  EXPECT_EQ(g.group_pages, 16u);
  EXPECT_EQ(g.sb_pages, 64ull * 256 * 48);   // dies x wordlines x unit
  EXPECT_GE(g.effective_op(), p.op);
  EXPECT_LT(g.effective_op(), p.op + 0.002);
  EXPECT_EQ(g.user_pages, 2000398934016ull / 4096);
  EXPECT_GT(g.state_bytes(), 4000000000ull);  // the 2 TB drive's state needs > 4 GB
  // Consecutive program units go to consecutive dies.
  EXPECT_EQ(g.die_of(0), 0u);
  EXPECT_EQ(g.die_of(g.unit_pages), 1u);
  EXPECT_EQ(g.die_of(g.unit_pages * 64), 0u);
}

}  // namespace
}  // namespace pts::sim
