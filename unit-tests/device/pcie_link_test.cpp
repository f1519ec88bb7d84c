// unit-tests/device/pcie_link_test.cpp — read_pcie_link on fake sysfs trees: an NVMe
// namespace under a PCIe Gen4 x4 function, a link trained below its maximum, a loop device
// (no PCI function: n/a), and the labels.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "device/pcie_link.h"

namespace pts::device {
namespace {

namespace fs = std::filesystem;

struct FakeSys {
  std::string root;
  FakeSys() {
    root = (fs::temp_directory_path() / ("pts-pcie-" + std::to_string(::getpid()))).string();
    fs::remove_all(root);
  }
  ~FakeSys() { fs::remove_all(root); }
  void put(const std::string& rel, const std::string& text) {
    fs::create_directories(fs::path(root + rel).parent_path());
    std::ofstream(root + rel) << text << "\n";
  }
  /// /sys/class/block/NAME -> ../../devices/REL (relative, as the kernel links it).
  void block(const std::string& name, const std::string& rel) {
    fs::create_directories(root + "/sys/devices/" + rel);
    fs::create_directories(root + "/sys/class/block");
    fs::create_symlink("../../devices/" + rel, root + "/sys/class/block/" + name);
  }
};

const std::string kFunction = "pci0000:00/0000:00:01.2/0000:01:00.0";

TEST(PcieLink, NvmeNamespaceUnderAGen4x4Function) {
  FakeSys sys;
  sys.put("/sys/devices/" + kFunction + "/current_link_speed", "16.0 GT/s PCIe");
  sys.put("/sys/devices/" + kFunction + "/current_link_width", "4");
  sys.put("/sys/devices/" + kFunction + "/max_link_speed", "16.0 GT/s PCIe");
  sys.put("/sys/devices/" + kFunction + "/max_link_width", "4");
  sys.block("nvme0n1", kFunction + "/nvme/nvme0/nvme0n1");
  const model::PcieLink link = read_pcie_link("nvme0n1", sys.root);
  EXPECT_EQ(link.source, "sysfs /sys/devices/" + kFunction);
  EXPECT_DOUBLE_EQ(link.current_gt_s, 16.0);
  EXPECT_EQ(link.current_width, 4u);
  EXPECT_EQ(model::pcie_link_label(link), "PCIe Gen4 x4");
}

TEST(PcieLink, ALinkBelowItsMaximumSaysBoth) {
  FakeSys sys;
  sys.put("/sys/devices/" + kFunction + "/current_link_speed", "8.0 GT/s PCIe");
  sys.put("/sys/devices/" + kFunction + "/current_link_width", "2");
  sys.put("/sys/devices/" + kFunction + "/max_link_speed", "32.0 GT/s PCIe");
  sys.put("/sys/devices/" + kFunction + "/max_link_width", "4");
  sys.block("nvme1n1", kFunction + "/nvme/nvme1/nvme1n1");
  EXPECT_EQ(model::pcie_link_label(read_pcie_link("nvme1n1", sys.root)), "PCIe Gen3 x2 (max Gen5 x4)");
}

TEST(PcieLink, LoopDeviceHasNone) {
  FakeSys sys;
  sys.block("loop3", "virtual/block/loop3");
  const model::PcieLink link = read_pcie_link("loop3", sys.root);
  EXPECT_TRUE(link.source.empty());
  EXPECT_EQ(model::pcie_link_label(link), "n/a (not a PCIe device)");
  EXPECT_TRUE(read_pcie_link("nosuch", sys.root).source.empty());
}

TEST(PcieLink, SpeedsAndGenerations) {
  EXPECT_DOUBLE_EQ(parse_link_speed_gt_s("2.5 GT/s PCIe"), 2.5);
  EXPECT_DOUBLE_EQ(parse_link_speed_gt_s("Unknown"), 0);
  EXPECT_EQ(model::pcie_generation(2.5), "Gen1");
  EXPECT_EQ(model::pcie_generation(64), "Gen6");
  EXPECT_EQ(model::pcie_generation(12), "12 GT/s");
  model::PcieLink sim{"simulated", 32, 4, 32, 4};
  EXPECT_EQ(model::pcie_link_label(sim), "PCIe Gen5 x4");
}

}  // namespace
}  // namespace pts::device
