// device/target_resolve.cpp — see target_resolve.h. May use: core, model, sysfs,
// nvme_topology, POSIX stat, the NVME_IOCTL_ID ioctl.
#include "device/target_resolve.h"

#include <fcntl.h>
#include <linux/nvme_ioctl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <regex>
#include <vector>

#include "device/nvme_topology.h"
#include "device/sysfs.h"

namespace pts::device {

namespace {

std::string base_name(const std::string& p) { return p.substr(p.find_last_of('/') + 1); }

std::string devnum_text(dev_t d) { return std::to_string(major(d)) + ":" + std::to_string(minor(d)); }

core::Error bad(const std::string& path, const std::string& why) {
  return core::bad_input("TARGET " + path + ": " + why);
}

/// Fills the namespace fields from the namespace block name (nvme0n1).
void set_namespace(ResolvedTarget& t, const std::string& block_name, const std::string& root) {
  t.kind = model::TargetKind::NvmeNamespace;
  t.block_name = block_name;
  t.io_path = "/dev/" + block_name;
  if (auto id = sysfs::read_line(root + "/sys/class/block/" + block_name + "/nsid")) {
    try {
      t.nsid = static_cast<uint32_t>(std::stoul(*id));
    } catch (...) {
      t.nsid = 0;
    }
  }
}

std::string list_of(const NvmeSubsystem& sub, const std::string& ctrl) {
  std::string list;
  for (const auto& n : sub.namespaces)
    if (std::find(n.controllers.begin(), n.controllers.end(), ctrl) != n.controllers.end())
      list += (list.empty() ? "" : ", ") + std::string("/dev/") + n.block;
  return list;
}

}  // namespace

core::Result<uint32_t> nsid_of_node(const std::string& node) {
  const int fd = ::open(node.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return core::bad_input("TARGET " + node + ": " + std::strerror(errno));
  const int id = ::ioctl(fd, NVME_IOCTL_ID);
  const int err = errno;
  ::close(fd);
  if (id <= 0) return core::bad_input("TARGET " + node + ": not an NVMe namespace node (" + std::strerror(err) + ")");
  return static_cast<uint32_t>(id);
}

core::Result<ResolvedTarget> resolve_char_node(const std::string& path, const std::string& name,
                                               const std::string& root, const NsidOfNode& nsid_of) {
  ResolvedTarget t;
  t.path = path;
  static const std::regex generic(R"(ng\d+n\d+)"), ctrl(R"(nvme\d+)");
  if (std::regex_match(name, generic) && sysfs::exists(root + "/sys/class/nvme-generic/" + name)) {
    auto nsid = nsid_of(path);
    if (!nsid.ok()) return nsid.error();
    auto block = block_of_generic(name, *nsid, root);
    if (!block.ok()) return bad(path, block.error().message());
    set_namespace(t, *block, root);
    t.admin_path = path;
    return t;
  }
  if (std::regex_match(name, ctrl) && sysfs::exists(root + "/sys/class/nvme/" + name)) {
    auto sub = subsystem_of_controller(name, root);
    if (!sub.ok()) return bad(path, sub.error().message());
    std::vector<std::string> reached;
    for (const auto& n : sub->namespaces)
      if (std::find(n.controllers.begin(), n.controllers.end(), name) != n.controllers.end()) reached.push_back(n.block);
    if (reached.size() != 1) {
      const std::string list = list_of(*sub, name);
      return bad(path, "NVMe controller with " + std::to_string(reached.size()) + " namespaces" +
                           (list.empty() ? "" : " (" + list + ")") + "; name the namespace to use");
    }
    set_namespace(t, reached.front(), root);
    t.admin_path = path;
    return t;
  }
  return bad(path, "a character device that is neither an NVMe controller nor an NVMe generic "
                   "node (/dev/ngXnY)");
}

std::optional<std::string> controller_of_node(const std::string& path, const std::string& root) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISCHR(st.st_mode)) return std::nullopt;
  const std::string name = base_name(sysfs::read_link(root + "/sys/dev/char/" + devnum_text(st.st_rdev)).value_or(""));
  static const std::regex ctrl(R"(nvme\d+)");
  if (!std::regex_match(name, ctrl) || !sysfs::exists(root + "/sys/class/nvme/" + name)) return std::nullopt;
  return name;
}

core::Result<ResolvedTarget> resolve_target(const std::string& path, const std::string& root) {
  ResolvedTarget t;
  t.path = path;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    return bad(path, errno == ENOENT ? "no such file or device" : std::strerror(errno));
  if (S_ISREG(st.st_mode)) {
    t.kind = model::TargetKind::File;
    t.io_path = path;
    return t;
  }
  if (S_ISCHR(st.st_mode)) {
    const std::string link = sysfs::read_link(root + "/sys/dev/char/" + devnum_text(st.st_rdev)).value_or("");
    return resolve_char_node(path, base_name(link), root, nsid_of_node);
  }
  if (!S_ISBLK(st.st_mode))
    return bad(path, S_ISDIR(st.st_mode) ? "is a directory; give a block device, NVMe node or file"
                                         : "not a block device, NVMe node or regular file");
  auto link = sysfs::read_link(root + "/sys/dev/block/" + devnum_text(st.st_rdev));
  if (!link) return bad(path, "block device " + devnum_text(st.st_rdev) + " is unknown to sysfs");
  const std::string name = base_name(*link);
  static const std::regex ns(R"(nvme\d+n\d+)");
  if (std::regex_match(name, ns)) {
    set_namespace(t, name, root);
    t.admin_path = path;
    t.io_path = path;
    return t;
  }
  t.kind = model::TargetKind::BlockDevice;
  t.block_name = name;
  t.io_path = path;
  t.is_loop = sysfs::exists(root + "/sys/class/block/" + name + "/loop");  // not its partitions
  return t;
}

}  // namespace pts::device
