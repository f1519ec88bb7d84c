// fakes/fake_sysfs.h — a fake /sys tree of NVM subsystems, laid out as Linux does (class
// directories of symlinks into /sys/devices): controllers, multipath namespace heads with their
// hidden per-controller paths, private (non-multipath) namespaces, generic nodes and
// /sys/dev/char links. Instance numbers are chosen by the test, so they can differ from NSIDs
// (a namespace deleted and re-created) and the subsystem's number from the controller's —
// exactly what building nvmeXnY names from NSIDs gets wrong. Header-only. May use: std.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace pts::fakes {

class FakeSysfs {
 public:
  explicit FakeSysfs(const std::string& tag)
      : root_(std::filesystem::temp_directory_path() / ("ptsuite-sysfs-" + tag + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_ / "sys");
  }
  ~FakeSysfs() { std::filesystem::remove_all(root_); }
  FakeSysfs(const FakeSysfs&) = delete;
  FakeSysfs& operator=(const FakeSysfs&) = delete;

  std::string root() const { return root_.string(); }

  /// Controller `ctrl` (nvme9) in subsystem `subsys` (nvme-subsys3).
  void controller(const std::string& ctrl, const std::string& subsys) {
    dir("devices/pci0/nvme/" + ctrl);
    link("class/nvme/" + ctrl, "../../devices/pci0/nvme/" + ctrl);
    dir("devices/virtual/nvme-subsystem/" + subsys);
    link("class/nvme-subsystem/" + subsys, "../../devices/virtual/nvme-subsystem/" + subsys);
    link("devices/virtual/nvme-subsystem/" + subsys + "/" + ctrl, "../../../pci0/nvme/" + ctrl);
  }

  /// A multipath namespace head `block` (nvme3n5) of `subsys` with `nsid`, reached through
  /// each controller in `ctrls` by a hidden path device nvme<S>c<C>n<Y>.
  void head(const std::string& subsys, const std::string& block, uint32_t nsid, const std::vector<std::string>& ctrls,
            const std::string& wwid = "") {
    const std::string d = "devices/virtual/nvme-subsystem/" + subsys + "/" + block;
    block_dev(d, block, nsid, wwid, false);
    const auto n = block.find('n', 4);  // nvme3n5 → "nvme3", "n5"
    for (const auto& c : ctrls) {
      const std::string path = block.substr(0, n) + "c" + c.substr(4) + block.substr(n);
      block_dev("devices/pci0/nvme/" + c + "/" + path, path, nsid, "", true);
    }
  }

  /// A namespace `block` (nvme9n4) of controller `ctrl` without multipath.
  void private_namespace(const std::string& ctrl, const std::string& block, uint32_t nsid, const std::string& wwid = "") {
    block_dev("devices/pci0/nvme/" + ctrl + "/" + block, block, nsid, wwid, false);
  }

  /// Generic node `ng` with character device number `devnum`, child of `parent`: a subsystem
  /// (nvme-subsys2: the node of a multipath head, ng2n4) or a controller (nvme9: without
  /// multipath, ng9n3).
  void generic(const std::string& ng, const std::string& parent, const std::string& devnum) {
    const std::string d = parent.rfind("nvme-subsys", 0) == 0 ? "devices/virtual/nvme-subsystem/" + parent + "/" + ng
                                                             : "devices/pci0/nvme/" + parent + "/" + ng;
    dir(d);
    link("class/nvme-generic/" + ng, "../../" + d);
    link("dev/char/" + devnum, "../../" + d);
  }

  void write(const std::string& rel, const std::string& text) {
    std::filesystem::create_directories((root_ / "sys" / rel).parent_path());
    std::ofstream(root_ / "sys" / rel) << text;
  }

 private:
  void dir(const std::string& rel) { std::filesystem::create_directories(root_ / "sys" / rel); }
  void link(const std::string& rel, const std::string& target) {
    std::error_code ec;
    if (std::filesystem::is_symlink(root_ / "sys" / rel, ec)) return;
    std::filesystem::create_directories((root_ / "sys" / rel).parent_path());
    std::filesystem::create_symlink(target, root_ / "sys" / rel);
  }
  void block_dev(const std::string& d, const std::string& block, uint32_t nsid, const std::string& wwid, bool hidden) {
    dir(d + "/holders");
    write(d + "/nsid", std::to_string(nsid) + "\n");
    write(d + "/dev", "259:" + std::to_string(next_minor_++) + "\n");
    write(d + "/hidden", hidden ? "1\n" : "0\n");
    if (!wwid.empty()) write(d + "/wwid", wwid + "\n");
    link("class/block/" + block, "../../" + d);
  }

  std::filesystem::path root_;
  int next_minor_ = 0;
};

}  // namespace pts::fakes
