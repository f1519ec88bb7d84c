// unit-tests/engine/io_target_test.cpp — target inspection names the problem and changes
// nothing: missing directory, read-only file, empty file, a new file's defaults; holes and
// unwritten extents are counted; a file ptsuite creates is written (no holes), not just
// allocated.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fcntl.h>

#include <fstream>
#include <algorithm>
#include <vector>

#include "engine/io_target.h"

using namespace pts;

TEST(IoTarget, MissingDirectoryIsBadInput) {
  auto r = engine::inspect_target("/nonexistent-ptsuite-dir/file", true);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::BadInput);
  EXPECT_NE(r.error().message().find("does not exist"), std::string::npos);
}

TEST(IoTarget, MissingFileInAWritableDirectoryMayBeCreated) {
  const std::string path = "/dev/shm/ptsuite-io-target-new-" + std::to_string(getpid());
  auto r = engine::inspect_target(path, true);
  if (!r.ok() && r.error().message().find("direct I/O") != std::string::npos) GTEST_SKIP();
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_FALSE(r->exists);
  EXPECT_NE(access(path.c_str(), F_OK), 0);  // inspection created nothing
  ASSERT_TRUE(engine::create_file_target(path, 1 << 20).ok());
  auto again = engine::inspect_target(path, true);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->target.size_bytes, 1u << 20);
  EXPECT_FALSE(engine::create_file_target(path, 1 << 20).ok());  // never overwrites
  unlink(path.c_str());
}

TEST(IoTarget, ReadOnlyFileRefusedForWritesOnly) {
  const std::string path = "/dev/shm/ptsuite-io-target-ro-" + std::to_string(getpid());
  { std::ofstream(path) << std::string(8192, 'x'); }
  chmod(path.c_str(), 0444);
  auto w = engine::inspect_target(path, true);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.error().message().find("read-only"), std::string::npos);
  auto r = engine::inspect_target(path, false);
  if (!r.ok() && r.error().message().find("direct I/O") != std::string::npos) GTEST_SKIP();
  EXPECT_TRUE(r.ok());
  unlink(path.c_str());
}

TEST(IoTarget, EmptyFileAndDirectoryAreRefused) {
  const std::string path = "/dev/shm/ptsuite-io-target-empty-" + std::to_string(getpid());
  { std::ofstream f(path); }
  EXPECT_FALSE(engine::inspect_target(path, false).ok());
  unlink(path.c_str());
  EXPECT_FALSE(engine::inspect_target("/dev/shm", false).ok());
}

namespace {
/// A scratch path on the file system the suite runs from (/var/tmp: tmpfs has no unwritten
/// extents to speak of).
std::string scratch(const char* tag) { return "/var/tmp/ptsuite-io-target-" + std::string(tag) + "-" + std::to_string(getpid()); }
}  // namespace

TEST(IoTarget, HolesOfASparseFileAreCounted) {
  const std::string path = scratch("sparse");
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, 1 << 20), 0);
  const std::vector<char> data(64 << 10, 'd');
  ASSERT_EQ(pwrite(fd, data.data(), data.size(), 256 << 10), static_cast<ssize_t>(data.size()));
  ASSERT_EQ(fsync(fd), 0);
  engine::TargetInfo info;
  ASSERT_TRUE(engine::find_unwritten(fd, 1 << 20, info).ok());
  close(fd);
  unlink(path.c_str());
  if (info.unwritten_bytes == 0) GTEST_SKIP() << "this file system reports no holes (no SEEK_DATA)";
  EXPECT_EQ(info.unwritten_bytes, (1u << 20) - (64u << 10));
  EXPECT_EQ(info.first_unwritten_offset, 0u);
}

TEST(IoTarget, FallocatedBlocksAreUnwrittenAndRefusedForReads) {
  const std::string path = scratch("falloc");
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  if (posix_fallocate(fd, 0, 1 << 20) != 0) {
    close(fd);
    unlink(path.c_str());
    GTEST_SKIP() << "no fallocate here";
  }
  const std::vector<char> data(4096, 'd');
  ASSERT_EQ(pwrite(fd, data.data(), data.size(), 0), 4096);
  ASSERT_EQ(fsync(fd), 0);
  close(fd);
  auto r = engine::inspect_target(path, false);
  unlink(path.c_str());
  if (!r.ok() && r.error().message().find("direct I/O") != std::string::npos) GTEST_SKIP();
  ASSERT_TRUE(r.ok()) << r.error().message();
  if (r->unwritten_bytes == 0) GTEST_SKIP() << "this file system reports unwritten extents as data";
  EXPECT_EQ(r->unwritten_bytes, (1u << 20) - 4096u);
  EXPECT_EQ(r->first_unwritten_offset, 4096u);
}

TEST(IoTarget, ACreatedFileIsWrittenNotJustAllocated) {
  const std::string path = scratch("created");
  unlink(path.c_str());
  const uint64_t size = (3u << 20) + 4096;  // a tail shorter than the fill's 1 MiB chunks
  ASSERT_TRUE(engine::create_file_target(path, size).ok());
  auto r = engine::inspect_target(path, false);
  if (!r.ok() && r.error().message().find("direct I/O") != std::string::npos) {
    unlink(path.c_str());
    GTEST_SKIP();
  }
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(r->target.size_bytes, size);
  EXPECT_EQ(r->unwritten_bytes, 0u);
  EXPECT_FALSE(r->alignment_source.empty());
  std::ifstream in(path, std::ios::binary);
  std::vector<char> all(size);
  in.read(all.data(), static_cast<std::streamsize>(size));
  ASSERT_EQ(in.gcount(), static_cast<std::streamsize>(size));
  unlink(path.c_str());
  size_t zero_blocks = 0;
  for (uint64_t off = 0; off < size; off += 4096)
    zero_blocks += std::all_of(all.begin() + off, all.begin() + off + 4096, [](char c) { return c == 0; });
  EXPECT_EQ(zero_blocks, 0u);  // every block was written with data
  EXPECT_NE(std::vector<char>(all.begin(), all.begin() + 4096), std::vector<char>(all.begin() + 4096, all.begin() + 8192));
}
