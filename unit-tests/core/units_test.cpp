// Tests for size parsing/formatting and the atomic file writer.
#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

#include "core/atomic_file.h"
#include "core/clock.h"
#include "core/units.h"

using namespace pts::core;

TEST(Units, ParsesBinarySizes) {
  EXPECT_EQ(parse_size_bytes("4096"), 4096u);
  EXPECT_EQ(parse_size_bytes("4k"), 4096u);
  EXPECT_EQ(parse_size_bytes("4KiB"), 4096u);
  EXPECT_EQ(parse_size_bytes("0.5k"), 512u);
  EXPECT_EQ(parse_size_bytes("1m"), 1048576u);
  EXPECT_EQ(parse_size_bytes("2G"), 2ull << 30);
  EXPECT_FALSE(parse_size_bytes(""));
  EXPECT_FALSE(parse_size_bytes("k"));
  EXPECT_FALSE(parse_size_bytes("4x"));
  EXPECT_FALSE(parse_size_bytes("0.3"));
  EXPECT_FALSE(parse_size_bytes("-4k"));
}

TEST(Units, FormatsBlockSizesTheSniaWay) {
  EXPECT_EQ(format_block_size(512), "0.5 KiB");
  EXPECT_EQ(format_block_size(4096), "4 KiB");
  EXPECT_EQ(format_block_size(1048576), "1024 KiB");
  EXPECT_EQ(format_block_size(100), "100 B");
  EXPECT_EQ(format_bytes(256ull << 20), "256.0 MiB");
}

TEST(Clock, Iso8601) { EXPECT_EQ(iso8601_utc(1700000000123000000ull), "2023-11-14T22:13:20.123Z"); }

TEST(AtomicFile, WritesWholeOrNothing) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("pts-atomic-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto path = (dir / "a.txt").string();
  ASSERT_TRUE(atomic_write_file(path, "hello").ok());
  EXPECT_EQ(*read_file(path), "hello");
  ASSERT_TRUE(atomic_write_file(path, "bye").ok());
  EXPECT_EQ(*read_file(path), "bye");
  auto bad = atomic_write_file((dir / "missing" / "a.txt").string(), "x");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, ErrorKind::BadInput);
  fs::remove_all(dir);
}

TEST(Clock, IdleSleepsAndStopsOnAbort) {
  SystemClock clock;
  const uint64_t t0 = monotonic_ns();
  EXPECT_TRUE(clock.idle_ns(30'000'000));
  EXPECT_GE(monotonic_ns() - t0, 30'000'000u);
  std::atomic<bool> abort{true};
  const uint64_t t1 = monotonic_ns();
  EXPECT_FALSE(clock.idle_ns(5'000'000'000ull, &abort));
  EXPECT_LT(monotonic_ns() - t1, 1'000'000'000u);
  EXPECT_FALSE(clock.is_virtual());
}
