// unit-tests/engine/io_target_test.cpp — target inspection names the problem and changes
// nothing: missing directory, read-only file, empty file, a new file's defaults.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

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
