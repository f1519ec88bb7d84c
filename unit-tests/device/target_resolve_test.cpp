// Target classification on this host's real nodes (files, directories, /dev/null) and on a
// fake sysfs tree for NVMe controller / generic nodes.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "device/target_device.h"
#include "device/target_resolve.h"

namespace pts::device {
namespace {

namespace fs = std::filesystem;

TEST(TargetResolve, RegularFile) {
  fs::path f = fs::temp_directory_path() / ("ptsuite-resolve-" + std::to_string(::getpid()));
  std::ofstream(f) << "x";
  auto t = resolve_target(f.string());
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->kind, model::TargetKind::File);
  EXPECT_EQ(t->io_path, f.string());
  fs::remove(f);
}

TEST(TargetResolve, BadTargetsAreBadInput) {
  for (const char* p : {"/nonexistent/ptsuite-target", "/", "/dev/null"}) {
    auto t = resolve_target(p);
    ASSERT_FALSE(t.ok()) << p;
    EXPECT_EQ(t.error().kind, core::ErrorKind::BadInput) << p;
    EXPECT_EQ(t.error().message().rfind(std::string("TARGET ") + p + ":", 0), 0u) << t.error().message();
  }
  EXPECT_NE(resolve_target("/dev/null").error().message().find("neither an NVMe controller nor an NVMe generic node"),
            std::string::npos);
}

TEST(TargetResolve, OpenTargetOnAFile) {
  fs::path f = fs::temp_directory_path() / ("ptsuite-open-" + std::to_string(::getpid()));
  std::ofstream(f) << std::string(8192, 'a');
  auto dev = open_target(f.string());
  ASSERT_TRUE(dev.ok());
  auto id = (*dev)->identify();
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(id->kind, model::TargetKind::File);
  EXPECT_EQ(id->serial.rfind("FILE-", 0), 0u);
  EXPECT_EQ(*(*dev)->write_cache(), model::WriteCacheState::Unknown);
  EXPECT_TRUE((*dev)->guard().ok());
  fs::remove(f);
}

TEST(TargetResolve, PurgeWithoutBlockAccessIsUnverifiable) {
  fs::path f = fs::temp_directory_path() / ("ptsuite-noio-" + std::to_string(::getpid()));
  std::ofstream(f) << std::string(8192, 'a');
  auto dev = open_target(f.string());
  ASSERT_TRUE(dev.ok());
  auto r = (*dev)->purge(PurgeRequest{});
  ASSERT_FALSE(r.ok());
  std::ifstream in(f);
  std::string content((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(content, std::string(8192, 'a'));  // nothing was done
  fs::remove(f);
}

}  // namespace
}  // namespace pts::device
