// The one guard entry point, acquire_target(), on regular files (no root needed): the held
// descriptor (O_DIRECT, the file's inode), consent by the file's own path and never by its
// made-up FILE-… serial, a file ptsuite created, another open descriptor refused through the
// write lease, libblkid signatures (refused; --force-signatures recorded as a deviation), the
// demo path without ptsuite's marker, and that purge refuses to run without a held descriptor.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "device/held_target.h"
#include "device/signatures.h"
#include "fakes/fake_transport.h"

namespace pts::device {
namespace {

namespace fs = std::filesystem;

struct HeldFile : ::testing::Test {
  fs::path dir = fs::path("/var/tmp") / ("ptsuite-held-" + std::to_string(::getpid()));
  fs::path file = dir / "target.img";
  void SetUp() override {
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(file) << std::string(1 << 20, 'x');
  }
  void TearDown() override { fs::remove_all(dir); }
  AcquireOptions with(std::optional<std::string> confirm) {
    AcquireOptions o;
    o.confirm = std::move(confirm);
    return o;
  }
};

TEST_F(HeldFile, ConfirmedByItsPathHeldWithItsInode) {
  auto held = acquire_target(file.string(), with(file.string()));
  ASSERT_TRUE(held.ok()) << held.error().message();
  EXPECT_EQ((*held)->consent().method, "file");
  EXPECT_NE((*held)->consent().exclusivity.find("write lease"), std::string::npos);
  const int fd = (*held)->fd();
  ASSERT_GE(fd, 0);
  EXPECT_TRUE(::fcntl(fd, F_GETFL) & O_DIRECT);
  struct stat a {}, b {};
  ASSERT_EQ(::fstat(fd, &a), 0);
  ASSERT_EQ(::stat(file.c_str(), &b), 0);
  EXPECT_EQ(a.st_ino, b.st_ino);
  EXPECT_TRUE((*held)->identity().serial_made_up);
  held->reset();
  EXPECT_EQ(::fcntl(fd, F_GETFD), -1);  // the HeldTarget closed its descriptor
}

TEST_F(HeldFile, MadeUpSerialOrNothingIsNoConfirmation) {
  auto probe = acquire_target(file.string(), with(std::nullopt));
  ASSERT_FALSE(probe.ok());
  EXPECT_EQ(probe.error().kind, core::ErrorKind::Refused);
  EXPECT_NE(probe.error().message().find("pass --confirm with its path"), std::string::npos);
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  const std::string serial = "FILE-" + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
  auto r = acquire_target(file.string(), with(serial));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("is a name ptsuite made up"), std::string::npos) << r.error().message();
}

TEST_F(HeldFile, AFileThisCommandCreatedNeedsNone) {
  auto o = with(std::nullopt);
  o.created_by_ptsuite = true;
  auto held = acquire_target(file.string(), o);
  ASSERT_TRUE(held.ok()) << held.error().message();
  EXPECT_EQ((*held)->consent().method, "created-by-ptsuite");
}

TEST_F(HeldFile, AnotherOpenDescriptorIsRefused) {
  const int other = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(other, 0);
  auto r = acquire_target(file.string(), with(file.string()));
  ::close(other);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::Refused);
  EXPECT_NE(r.error().message().find("is open in another process"), std::string::npos) << r.error().message();
  EXPECT_TRUE(acquire_target(file.string(), with(file.string())).ok());  // closed: fine again
}

TEST_F(HeldFile, SignaturesRefuseUnlessForced) {
  // a real swap signature, written by the real tool
  if (std::system(("mkswap -q " + file.string() + " > /dev/null 2>&1").c_str()) != 0) GTEST_SKIP() << "no mkswap";
  auto r = acquire_target(file.string(), with(file.string()));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::Refused);
  EXPECT_NE(r.error().message().find("libblkid finds swap"), std::string::npos) << r.error().message();
  auto o = with(file.string());
  o.force_signatures = true;
  auto forced = acquire_target(file.string(), o);
  ASSERT_TRUE(forced.ok()) << forced.error().message();
  ASSERT_EQ((*forced)->deviations().size(), 1u);
  EXPECT_EQ((*forced)->deviations()[0].first, "force-signatures");
  EXPECT_TRUE(::fcntl((*forced)->fd(), F_GETFL) & O_DIRECT);  // O_DIRECT back after the probe
}

TEST_F(HeldFile, DemoPathNeedsPtsuitesMarker) {
  auto o = with(file.string());
  o.demo_path = file.string();
  auto r = acquire_target(file.string(), o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("does not carry ptsuite's marker"), std::string::npos);
  if (!mark_demo_target(file.string()).ok()) GTEST_SKIP() << "no user xattrs on /var/tmp here";
  EXPECT_TRUE(carries_demo_marker(file.string()));
  EXPECT_TRUE(acquire_target(file.string(), o).ok());
}

TEST_F(HeldFile, PurgeNeedsTheHeldDescriptor) {
  auto disk = std::make_shared<fakes::FakeDisk>(1 << 20);
  auto dev = open_target(file.string(), std::make_shared<fakes::FakeBlockAccessFactory>(disk));
  ASSERT_TRUE(dev.ok());
  auto r = (*dev)->purge(PurgeRequest{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("without the guard's held descriptor"), std::string::npos);
  EXPECT_EQ(disk->writes, 0);
}

}  // namespace
}  // namespace pts::device
