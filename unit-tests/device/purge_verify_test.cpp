// Verification sampling, the pattern, and the erased check against an in-memory disk.
#include <gtest/gtest.h>

#include <set>

#include "device/purge_verify.h"
#include "fakes/fake_transport.h"

namespace pts::device {
namespace {

TEST(PurgeVerify, SampleCoversFirstLastAndStripes) {
  const uint64_t cap = 1ull << 30;
  auto s = plan_verify_sample(cap, 4096, 64, 42);
  ASSERT_EQ(s.offsets.size(), 64u);
  EXPECT_EQ(s.offsets.front(), 0u);
  EXPECT_EQ(s.offsets.back(), cap - 4096);
  std::set<uint64_t> unique(s.offsets.begin(), s.offsets.end());
  EXPECT_EQ(unique.size(), 64u);
  for (uint64_t o : s.offsets) EXPECT_EQ(o % 4096, 0u);
  EXPECT_TRUE(std::is_sorted(s.offsets.begin(), s.offsets.end()));
  EXPECT_NE(plan_verify_sample(cap, 4096, 64, 43).offsets, s.offsets);  // nonce moves the samples
}

TEST(PurgeVerify, SmallTargets) {
  EXPECT_EQ(plan_verify_sample(4096, 4096, 64, 1).offsets, (std::vector<uint64_t>{0}));
  EXPECT_EQ(plan_verify_sample(3 * 512, 512, 64, 1).offsets, (std::vector<uint64_t>{0, 512, 1024}));
  EXPECT_TRUE(plan_verify_sample(100, 512, 64, 1).offsets.empty());
}

TEST(PurgeVerify, PatternIsNeverErasedLooking) {
  auto p = pattern_block(0, 512, 0);
  EXPECT_FALSE(std::all_of(p.begin(), p.end(), [](uint8_t b) { return b == 0; }));
  EXPECT_FALSE(std::all_of(p.begin(), p.end(), [](uint8_t b) { return b == 0xFF; }));
  EXPECT_NE(pattern_block(512, 512, 0), p);
  EXPECT_NE(pattern_block(0, 512, 1), p);
}

struct Disk : ::testing::Test {
  std::shared_ptr<fakes::FakeDisk> disk = std::make_shared<fakes::FakeDisk>(1 << 20);
  fakes::FakeBlockAccess io{disk};
  VerifySample sample = plan_verify_sample(1 << 20, 512, 16, 7);
};

TEST_F(Disk, PatternThenErase) {
  ASSERT_TRUE(write_verify_pattern(io, sample).ok());
  auto before = check_erased(io, sample, ErasedValue::Zeroes);
  EXPECT_FALSE(before.passed);
  EXPECT_EQ(before.blocks_still_holding_pattern, 16u);
  disk->fill(0);
  auto after = check_erased(io, sample, ErasedValue::Zeroes);
  EXPECT_TRUE(after.passed);
  EXPECT_EQ(after.detail, "16 sampled blocks read as zeroes");
  EXPECT_FALSE(check_erased(io, sample, ErasedValue::Ones).passed);
  EXPECT_TRUE(check_erased(io, sample, ErasedValue::NotPattern).passed);
}

TEST_F(Disk, PartialErase) {
  ASSERT_TRUE(write_verify_pattern(io, sample).ok());
  std::fill(disk->bytes().begin(), disk->bytes().begin() + (1 << 19), 0);  // first half only
  auto v = check_erased(io, sample, ErasedValue::Zeroes);
  EXPECT_FALSE(v.passed);
  EXPECT_GT(v.blocks_still_holding_pattern, 0u);
  EXPECT_LT(v.blocks_still_holding_pattern, 16u);
}

TEST_F(Disk, WriteThatDoesNotStickIsCaughtBeforeThePurge) {
  disk->ignore_writes = true;
  auto st = write_verify_pattern(io, sample);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, core::ErrorKind::Device);
}

TEST_F(Disk, ReadErrorFailsVerification) {
  ASSERT_TRUE(write_verify_pattern(io, sample).ok());
  disk->fail_reads = true;
  auto v = check_erased(io, sample, ErasedValue::Zeroes);
  EXPECT_TRUE(v.performed);
  EXPECT_FALSE(v.passed);
  EXPECT_NE(v.detail.find("failed"), std::string::npos);
}

}  // namespace
}  // namespace pts::device
