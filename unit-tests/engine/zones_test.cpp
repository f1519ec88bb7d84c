// unit-tests/engine/zones_test.cpp — the zoned random distribution: the generator sends each
// zone its share of the I/Os (binomial bounds) and keeps offsets aligned, inside the zone and
// uniform within it; plan_workers refuses bad zone lists; and a real io_uring run on a
// /dev/shm file puts each zone's share of its writes where the zones are (counted from the
// blocks the run wrote, corrected for blocks written twice).
#include <gtest/gtest.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "engine/io_engine.h"
#include "engine/io_target.h"
#include "engine/workload.h"

using namespace pts;
using engine::IoTarget;

namespace {

const std::vector<model::AccessZone> kEcwZones = {{50, 5}, {30, 15}, {20, 80}};

model::AccessSpec zoned_spec(uint32_t bs) {
  model::AccessSpec s;
  s.block_bytes = bs;
  s.zones = kEcwZones;
  s.seed = 777;
  return s;
}

}  // namespace

TEST(ZonedOffsets, EachZoneGetsItsShareAlignedInsideAndUniform) {
  auto spec = zoned_spec(4096);
  // The ECW block-size mix: sizes that do not divide each other, and a non-round target.
  spec.bs_split = {{512, 4},   {1024, 1},  {1536, 1},   {2048, 1},   {2560, 1},  {3072, 1}, {3584, 1},
                   {4096, 67}, {8192, 10}, {16384, 7}, {32768, 3}, {65536, 3}};
  const IoTarget target{"t", (8ull << 30) + 512 * 13, 512};
  auto plans = engine::plan_workers(spec, target);
  ASSERT_TRUE(plans.ok()) << plans.error().message();
  const auto& plan = plans.value()[0];
  const uint64_t range = engine::active_range_bytes(spec, target);
  const auto bounds = model::zone_bounds(spec.zones, range, 65536);
  ASSERT_EQ(bounds.size(), 4u);
  EXPECT_EQ(bounds[1] % 65536, 0u);
  EXPECT_NEAR(static_cast<double>(bounds[1]) / range, 0.05, 1e-4);
  EXPECT_NEAR(static_cast<double>(bounds[2]) / range, 0.20, 1e-4);
  engine::Rng rng(spec.seed, 1);
  engine::RandomOffsets gen(plan);
  constexpr int kDraws = 1000000;
  std::vector<uint64_t> per_zone(3, 0);
  std::vector<uint64_t> bins_in_c(50, 0);  // uniformity inside the large zone
  for (int i = 0; i < kDraws; ++i) {
    const auto& block = engine::draw_block(plan, rng);
    const uint64_t off = gen.next(rng, block);
    size_t z = 0;
    while (z < 2 && off >= bounds[z + 1]) ++z;
    ASSERT_EQ(off % 512, 0u);
    ASSERT_EQ((off - bounds[z]) % block.bytes, 0u);  // whole blocks from the zone start
    if ((block.bytes & (block.bytes - 1)) == 0) {
      ASSERT_EQ(off % block.bytes, 0u);  // and aligned to its own size
    }
    ASSERT_LE(off + block.bytes, bounds[z + 1]) << "I/O crosses the end of zone " << z;
    ++per_zone[z];
    if (z == 2)
      ++bins_in_c[static_cast<size_t>(static_cast<long double>(off - bounds[2]) / (bounds[3] - bounds[2]) * 50)];
  }
  for (size_t z = 0; z < 3; ++z) {
    const double p = kEcwZones[z].io_pct / 100.0;
    const double sigma = std::sqrt(kDraws * p * (1 - p));
    EXPECT_NEAR(static_cast<double>(per_zone[z]), kDraws * p, 5 * sigma) << "zone " << z + 1;
  }
  const double expected = static_cast<double>(per_zone[2]) / 50;
  double x2 = 0;
  for (uint64_t c : bins_in_c) x2 += (c - expected) * (c - expected) / expected;
  EXPECT_LT(x2, 85.35);  // chi-square, 49 degrees of freedom, p = 0.001
}

TEST(ZonedOffsets, UniformSpecsDrawExactlyAsBefore) {
  // Without zones the generator is the uniform one: the same seed gives the same offsets.
  model::AccessSpec spec;
  spec.seed = 42;
  const IoTarget target{"t", 1ull << 30, 512};
  auto plans = engine::plan_workers(spec, target);
  ASSERT_TRUE(plans.ok());
  engine::Rng a(42, 1), b(42, 1);
  engine::RandomOffsets gen(plans.value()[0]);
  const auto& block = plans.value()[0].block_table[0];
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(gen.next(a, block), b.below(block.blocks_in_region) * block.bytes);
}

TEST(ZonedOffsets, PlanRefusesBadZoneLists) {
  const IoTarget target{"t", 1ull << 30, 512};
  auto spec = zoned_spec(4096);
  spec.zones = {{50, 5}, {30, 15}, {10, 80}};
  auto r = engine::plan_workers(spec, target);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("sum to 90 %"), std::string::npos) << r.error().message();

  spec.zones = {{50, 5}, {50, 90}};
  r = engine::plan_workers(spec, target);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("ActiveRange sum to 95"), std::string::npos) << r.error().message();

  spec = zoned_spec(1 << 20);
  spec.zones = {{50, 0.01}, {50, 99.99}};  // 0.01 % of 1 GiB is ~107 KB: no 1 MiB block fits
  r = engine::plan_workers(spec, target);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("less than one 1024 KiB block"), std::string::npos) << r.error().message();

  spec = zoned_spec(4096);
  spec.pattern = model::AccessPattern::Sequential;
  r = engine::plan_workers(spec, target);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("random access only"), std::string::npos);
}

TEST(ZoneText, ParsesAndPrintsFioZonedSyntax) {
  std::vector<model::AccessZone> z;
  std::string why;
  ASSERT_TRUE(model::parse_zones("50/5:30/15:20/80", z, why)) << why;
  ASSERT_EQ(z.size(), 3u);
  EXPECT_EQ(z[1].io_pct, 30u);
  EXPECT_DOUBLE_EQ(z[2].range_pct, 80.0);
  EXPECT_EQ(model::zones_text(z), "50/5:30/15:20/80");
  EXPECT_TRUE(model::zone_problems(z).empty());
  EXPECT_FALSE(model::parse_zones("50/5:30", z, why));
  EXPECT_NE(why.find("'30'"), std::string::npos);
  EXPECT_FALSE(model::parse_zones("50/x", z, why));
  EXPECT_FALSE(model::parse_zones("-5/10:105/90", z, why));
  ASSERT_TRUE(model::parse_zones("60/2.5:40/97.5", z, why));
  EXPECT_TRUE(model::zone_problems(z).empty());
}

// A real engine run: 4 KiB random writes with the ECW zones over a fresh 256 MiB file. Each
// write lands on a block; the blocks holding data after the run tell, per zone, how many
// writes went there (n = -B ln(1 - d/B) for d distinct blocks hit out of B).
TEST(ZonedRun, RealEngineWritesEachZoneItsShare) {
  const std::string path = "/dev/shm/ptsuite-zones-test-" + std::to_string(getpid());
  unlink(path.c_str());
  constexpr uint64_t kBytes = 256ull << 20;
  // A sparse file (never written: reads as zeroes), so the blocks the run writes show.
  const int made = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (made < 0 || ftruncate(made, static_cast<off_t>(kBytes)) != 0) GTEST_SKIP() << "cannot create " << path;
  close(made);
  struct Cleanup {
    std::string p;
    ~Cleanup() { unlink(p.c_str()); }
  } cleanup{path};
  auto info = engine::inspect_target(path, true);
  if (!info) GTEST_SKIP() << info.error().message();
  constexpr uint64_t kWrites = 4000;
  model::AccessSpec spec = zoned_spec(4096);
  spec.read_pct = 0;
  spec.queue_depth = 8;
  spec.bytes_limit = kWrites * 4096;
  {
    auto eng = engine::open_uring_engine(info->target, true);
    if (!eng) GTEST_SKIP() << eng.error().message();
    auto r = eng.value()->run(spec);
    ASSERT_TRUE(r.ok()) << r.error().message();
    ASSERT_EQ(r->io_errors, 0u) << r->error;
    ASSERT_EQ(r->write_ios, kWrites);
    EXPECT_EQ(r->spec.zones.size(), 3u);
  }
  const uint64_t range = engine::active_range_bytes(spec, info->target);
  const auto bounds = model::zone_bounds(spec.zones, range, 4096);
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  std::vector<uint64_t> touched(3, 0);
  std::vector<char> block(4096), zero(4096, 0);
  for (uint64_t off = 0; off < range; off += 4096) {
    ASSERT_EQ(pread(fd, block.data(), 4096, static_cast<off_t>(off)), 4096);
    if (std::memcmp(block.data(), zero.data(), 4096) == 0) continue;
    size_t z = 0;
    while (z < 2 && off >= bounds[z + 1]) ++z;
    ++touched[z];
  }
  close(fd);
  for (size_t z = 0; z < 3; ++z) {
    const double blocks = static_cast<double>(bounds[z + 1] - bounds[z]) / 4096;
    const double writes = -blocks * std::log(1.0 - static_cast<double>(touched[z]) / blocks);
    const double share = writes / kWrites;
    const double p = kEcwZones[z].io_pct / 100.0;
    // Binomial sigma of a share from 4000 draws is at most 0.8 %; the estimate adds a little.
    EXPECT_NEAR(share, p, 0.05) << "zone " << z + 1 << ": " << touched[z] << " of " << blocks << " blocks written";
    std::printf("zone %zu (%s): %llu blocks written of %.0f -> %.1f %% of the writes (want %u %%)\n", z + 1,
                model::zones_text({kEcwZones[z]}).c_str(), static_cast<unsigned long long>(touched[z]), blocks,
                share * 100, kEcwZones[z].io_pct);
  }
}
