// engine/block_io: synchronous O_DIRECT reads and writes through io_uring on a real file
// (owner: device, for purge verification). Buffers need no alignment; short reads fail.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <numeric>

#include "engine/block_io.h"

namespace pts::engine {
namespace {

namespace fs = std::filesystem;

struct BlockIoTest : ::testing::Test {
  fs::path path = fs::path("/var/tmp") / ("ptsuite-blockio-" + std::to_string(::getpid()));
  void SetUp() override { std::ofstream(path) << std::string(1 << 16, '\0'); }
  void TearDown() override { fs::remove(path); }
};

TEST_F(BlockIoTest, WriteFlushReadBack) {
  auto io = open_block_io(path.string(), true);
  if (!io.ok() && io.error().message().find("O_DIRECT not supported") != std::string::npos)
    GTEST_SKIP() << io.error().message();
  ASSERT_TRUE(io.ok()) << io.error().message();
  std::vector<uint8_t> out(8192 + 1);  // +1: the span starts at an odd address below
  std::iota(out.begin(), out.end(), 0);
  std::span<const uint8_t> odd(out.data() + 1, 8192);
  ASSERT_TRUE((*io)->write_at(4096, odd).ok());
  ASSERT_TRUE((*io)->flush().ok());
  std::vector<uint8_t> back(8193, 0);
  ASSERT_TRUE((*io)->read_at(4096, std::span<uint8_t>(back.data() + 1, 8192)).ok());
  EXPECT_TRUE(std::equal(odd.begin(), odd.end(), back.begin() + 1));
  std::vector<uint8_t> zero(4096, 1);
  ASSERT_TRUE((*io)->read_at(0, zero).ok());
  EXPECT_TRUE(std::all_of(zero.begin(), zero.end(), [](uint8_t b) { return b == 0; }));
}

TEST_F(BlockIoTest, ShortReadAndBadOffsetAreIoErrors) {
  auto io = open_block_io(path.string(), false);
  if (!io.ok()) GTEST_SKIP() << io.error().message();
  std::vector<uint8_t> buf(4096);
  auto past_end = (*io)->read_at(1 << 16, buf);
  ASSERT_FALSE(past_end.ok());
  EXPECT_EQ(past_end.error().kind, core::ErrorKind::Io);
  auto unaligned = (*io)->read_at(100, buf);  // O_DIRECT: EINVAL
  ASSERT_FALSE(unaligned.ok());
  EXPECT_EQ(unaligned.error().kind, core::ErrorKind::Io);
  EXPECT_NE(unaligned.error().message().find("at byte 100"), std::string::npos);
}

TEST(BlockIo, MissingPathIsBadInput) {
  auto io = open_block_io("/nonexistent/ptsuite-blockio", false);
  ASSERT_FALSE(io.ok());
  EXPECT_EQ(io.error().kind, core::ErrorKind::BadInput);
}

}  // namespace
}  // namespace pts::engine
