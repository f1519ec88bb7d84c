// unit-tests/config/zones_test.cpp — [matrix] zones in a definition: parsed into every cell's
// AccessSpec, refused with file:line when the shares do not sum to 100, when the matrix is
// sequential, or when a zone of the target's ActiveRange cannot hold the largest block.
#include <gtest/gtest.h>

#include <string>

#include "config/definition.h"
#include "config/plan_resolver.h"

namespace {

using namespace pts;

const std::string kZoned = R"([test]
id = "zoned"
title = "Zoned"
[steady_state]
cell_seconds = 60
[preconditioning]
wipc_block_size = "128k"
[matrix]
pattern = "random"
rw_mix = [40]
block_sizes = ["64k", "4k"]
zones = "50/5:30/15:20/80"
[editions."pts-2.0.2".enterprise]
write_cache = false
active_range_pct = 100
threads = 1
queue_depth = 1
tc_qd = "required"
tracking = [ { rw = 40, bs = "4k", metric = "iops" } ]
)";

std::string with(std::string s, const std::string& from, const std::string& to) {
  auto pos = s.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  return pos == std::string::npos ? s : s.replace(pos, from.size(), to);
}

std::string problems_of(const std::string& text) {
  auto d = config::parse_definition(text, "z.toml");
  if (d.ok()) return "";
  std::string all;
  for (const auto& m : d.error().messages) all += m + "\n";
  return all;
}

}  // namespace

TEST(DefinitionZones, ReachEveryCellSpec) {
  auto d = config::parse_definition(kZoned, "z.toml");
  ASSERT_TRUE(d.ok()) << d.error().message();
  ASSERT_EQ(d->zones.size(), 3u);
  auto r = config::resolve_plan(*d, config::RunOptions{}, config::nominal_identity(), model::EngineLimits{});
  ASSERT_TRUE(r.ok()) << r.error().message();
  for (const auto& c : r->plan.subtests[0].cells) EXPECT_EQ(model::zones_text(c.spec.zones), "50/5:30/15:20/80");
  EXPECT_TRUE(r->plan.subtests[0].wipc.zones.empty());  // WIPC is sequential over the whole ActiveRange
}

TEST(DefinitionZones, BadSharesNameTheLine) {
  auto p = problems_of(with(kZoned, "50/5:30/15:20/80", "50/5:30/15:10/80"));
  EXPECT_NE(p.find("z.toml:12: [matrix] zones '50/5:30/15:10/80': zone shares of the I/Os sum to 90 %"),
            std::string::npos)
      << p;
  p = problems_of(with(kZoned, "50/5:30/15:20/80", "50/5:30/15:20/70"));
  EXPECT_NE(p.find("z.toml:12:"), std::string::npos) << p;
  EXPECT_NE(p.find("ActiveRange sum to 90 %"), std::string::npos) << p;
  p = problems_of(with(kZoned, "50/5:30/15:20/80", "50-5"));
  EXPECT_NE(p.find("is not IO_PCT/RANGE_PCT"), std::string::npos) << p;
  p = problems_of(with(kZoned, "pattern = \"random\"", "pattern = \"sequential\""));
  EXPECT_NE(p.find("random access only"), std::string::npos) << p;
}

TEST(DefinitionZones, AZoneTooSmallForTheLargestBlockIsRefused) {
  auto d = config::parse_definition(with(kZoned, "50/5:30/15:20/80", "50/0.001:50/99.999"), "z.toml");
  ASSERT_TRUE(d.ok()) << d.error().message();
  // 0.001 % of 1 GiB is ~10 KB: no 64 KiB block fits in zone 1.
  auto r = config::resolve_plan(*d, config::RunOptions{}, config::nominal_identity(1ull << 30, 512), model::EngineLimits{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("z.toml:12: [matrix] zone 1 (50/0.001)"), std::string::npos)
      << r.error().message();
  EXPECT_NE(r.error().message().find("less than one 64 KiB block"), std::string::npos) << r.error().message();
  // On a 1 TiB target the same zone holds ~10 MiB: fine.
  EXPECT_TRUE(config::resolve_plan(*d, config::RunOptions{}, config::nominal_identity(), model::EngineLimits{}).ok());
}
