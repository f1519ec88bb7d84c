// Target classification on this host's real nodes (files, directories, /dev/null) and on fake
// sysfs trees for NVMe controller and generic nodes: a controller resolves to its one
// namespace, a generic node to the block device its controller reaches with its NSID — under
// multipath, where subsystem, controller and namespace instance numbers all differ from each
// other and from the NSIDs, so renaming ngXnY to nvmeXnY finds the wrong device or none.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "device/nvme_topology.h"
#include "device/target_device.h"
#include "device/target_resolve.h"
#include "fakes/fake_sysfs.h"

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

/// Subsystem nvme-subsys2 with controllers nvme0 and nvme1 (multipath). NSID 1 is head nvme2n1;
/// NSID 2 was deleted and re-created, so it is head nvme2n4 (instance 4); the heads' generic
/// nodes ng2n1 / ng2n4 hang off the subsystem. No nvme0n4, nvme2n2 or nvme0n2 exists.
struct Multipath : ::testing::Test {
  fakes::FakeSysfs sys{"resolve"};
  Multipath() {
    sys.controller("nvme0", "nvme-subsys2");
    sys.controller("nvme1", "nvme-subsys2");
    sys.head("nvme-subsys2", "nvme2n1", 1, {"nvme0", "nvme1"}, "eui.0000000000000001");
    sys.head("nvme-subsys2", "nvme2n4", 2, {"nvme0", "nvme1"}, "eui.0000000000000002");
    sys.generic("ng2n1", "nvme-subsys2", "240:0");
    sys.generic("ng2n4", "nvme-subsys2", "240:1");
  }
  /// The NSID each generic node answers NVME_IOCTL_ID with.
  static core::Result<uint32_t> nsid_of(const std::string& node) {
    if (node == "/dev/ng2n1") return 1u;
    if (node == "/dev/ng2n4") return 2u;
    return core::bad_input("no such node " + node);
  }
};

TEST_F(Multipath, SubsystemFromSysfs) {
  auto sub = subsystem_of_namespace("nvme2n4", sys.root());
  ASSERT_TRUE(sub.ok()) << sub.error().message();
  EXPECT_EQ(sub->name, "nvme-subsys2");
  EXPECT_EQ(sub->controllers, (std::vector<std::string>{"nvme0", "nvme1"}));
  ASSERT_EQ(sub->namespaces.size(), 2u);  // heads only: the hidden per-controller paths fold in
  EXPECT_EQ(sub->namespaces[1].block, "nvme2n4");
  EXPECT_EQ(sub->namespaces[1].nsid, 2u);
  EXPECT_EQ(sub->namespaces[1].controllers, (std::vector<std::string>{"nvme0", "nvme1"}));
  EXPECT_EQ(namespace_block(*sub, "nvme1", 2), std::optional<std::string>("nvme2n4"));
  EXPECT_FALSE(namespace_block(*sub, "nvme1", 3));
}

TEST_F(Multipath, GenericNodeResolvesThroughSysfsAndItsNsid) {
  auto t = resolve_char_node("/dev/ng2n4", "ng2n4", sys.root(), nsid_of);
  ASSERT_TRUE(t.ok()) << t.error().message();
  EXPECT_EQ(t->kind, model::TargetKind::NvmeNamespace);
  EXPECT_EQ(t->block_name, "nvme2n4");
  EXPECT_EQ(t->io_path, "/dev/nvme2n4");
  EXPECT_EQ(t->admin_path, "/dev/ng2n4");
  EXPECT_EQ(t->nsid, 2u);
  auto one = resolve_char_node("/dev/ng2n1", "ng2n1", sys.root(), nsid_of);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->block_name, "nvme2n1");
  // The NSID the node answers decides, not its name: a node named like instance 4 that
  // answers NSID 1 is namespace 1's (the WWID cross-check in NvmeTarget then compares them).
  auto by_nsid = resolve_char_node("/dev/ng2n4", "ng2n4", sys.root(),
                                   [](const std::string&) -> core::Result<uint32_t> { return 1u; });
  ASSERT_TRUE(by_nsid.ok());
  EXPECT_EQ(by_nsid->block_name, "nvme2n1");
}

TEST_F(Multipath, PerControllerGenericNodeResolvesToTheHead) {
  // Linux also makes a generic node per controller path of a multipath head: ng1n4 (controller
  // nvme1, head instance 4) is NSID 2's. Renaming it gives nvme1n4, which does not exist (the
  // block device is the head, nvme2n4, named after the subsystem); sysfs says which it is.
  sys.generic("ng1n4", "nvme1", "240:2");
  auto t = resolve_char_node("/dev/ng1n4", "ng1n4", sys.root(),
                             [](const std::string&) -> core::Result<uint32_t> { return 2u; });
  ASSERT_TRUE(t.ok()) << t.error().message();
  EXPECT_EQ(t->block_name, "nvme2n4");
  EXPECT_EQ(t->io_path, "/dev/nvme2n4");
  EXPECT_EQ(t->admin_path, "/dev/ng1n4");
  EXPECT_EQ(t->nsid, 2u);
}

TEST_F(Multipath, GenericNodeOfANamespaceWithoutBlockDeviceIsBadInput) {
  auto t = resolve_char_node("/dev/ng2n4", "ng2n4", sys.root(),
                             [](const std::string&) -> core::Result<uint32_t> { return 7u; });
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().kind, core::ErrorKind::BadInput);
  EXPECT_NE(t.error().message().find("NSID 7 of nvme-subsys2, which has no block device for it"), std::string::npos)
      << t.error().message();
}

TEST(NvmeTopology, GenericNodeOfAControllerWithoutMultipath) {
  fakes::FakeSysfs sys("resolve-ng");
  sys.controller("nvme5", "nvme-subsys1");
  sys.private_namespace("nvme5", "nvme5n3", 1);  // instance 3, NSID 1
  sys.private_namespace("nvme5", "nvme5n1", 2);  // instance 1, NSID 2: building nvme5n<NSID> would pick it
  sys.generic("ng5n3", "nvme5", "240:7");
  auto t = resolve_char_node("/dev/ng5n3", "ng5n3", sys.root(),
                             [](const std::string&) -> core::Result<uint32_t> { return 1u; });
  ASSERT_TRUE(t.ok()) << t.error().message();
  EXPECT_EQ(t->block_name, "nvme5n3");
  EXPECT_EQ(t->nsid, 1u);
}

TEST_F(Multipath, ControllerWithTwoNamespacesNamesThem) {
  auto t = resolve_char_node("/dev/nvme1", "nvme1", sys.root(), nsid_of);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message().find("NVMe controller with 2 namespaces (/dev/nvme2n1, /dev/nvme2n4)"),
            std::string::npos) << t.error().message();
}

TEST(NvmeTopology, ControllerWithOneNamespaceWithoutMultipath) {
  fakes::FakeSysfs sys("resolve-private");
  sys.controller("nvme3", "nvme-subsys0");
  sys.private_namespace("nvme3", "nvme3n7", 1);  // instance 7, NSID 1
  auto t = resolve_char_node("/dev/nvme3", "nvme3", sys.root(), nullptr);
  ASSERT_TRUE(t.ok()) << t.error().message();
  EXPECT_EQ(t->block_name, "nvme3n7");
  EXPECT_EQ(t->nsid, 1u);
  EXPECT_EQ(t->admin_path, "/dev/nvme3");
  auto sub = subsystem_of_namespace("nvme3n7", sys.root());
  ASSERT_TRUE(sub.ok()) << sub.error().message();
  EXPECT_EQ(sub->name, "nvme-subsys0");
  ASSERT_EQ(sub->namespaces.size(), 1u);
  EXPECT_EQ(sub->namespaces[0].controllers, (std::vector<std::string>{"nvme3"}));
}

TEST(NvmeTopology, ExpectedWwidFollowsTheKernelsOrder) {
  NamespaceIds ids;
  EXPECT_EQ(expected_wwid(ids, 0x1b36, "PTSVM1", "QEMU NVMe Ctrl", 1),
            "nvme.1b36-505453564d31-51454d55204e564d65204374726c-00000001");
  ids.eui64 = {0, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77};
  EXPECT_EQ(expected_wwid(ids, 1, "s", "m", 1), "eui.0011223344556677");
  ids.nguid = std::vector<uint8_t>(16, 0xab);
  EXPECT_EQ(expected_wwid(ids, 1, "s", "m", 1), "eui.abababababababababababababababab");
  ids.uuid = {0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};
  EXPECT_EQ(expected_wwid(ids, 1, "s", "m", 1), "uuid.12345678-9abc-def0-0123-456789abcdef");
}

}  // namespace
}  // namespace pts::device
