// device/target_resolve.cpp — see target_resolve.h. May use: core, model, sysfs, POSIX stat.
#include "device/target_resolve.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <regex>
#include <vector>

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

core::Result<ResolvedTarget> resolve_char(ResolvedTarget t, dev_t rdev, const std::string& root) {
  const std::string link = sysfs::read_link(root + "/sys/dev/char/" + devnum_text(rdev)).value_or("");
  const std::string name = base_name(link);
  static const std::regex generic(R"(ng(\d+)n(\d+))"), ctrl(R"(nvme(\d+))");
  std::smatch m;
  if (std::regex_match(name, m, generic) && sysfs::exists(root + "/sys/class/nvme-generic/" + name)) {
    set_namespace(t, "nvme" + m[1].str() + "n" + m[2].str(), root);
    t.admin_path = t.path;
    return t;
  }
  if (std::regex_match(name, m, ctrl) && sysfs::exists(root + "/sys/class/nvme/" + name)) {
    // Namespaces appear as nvmeXnY, or nvmeXcZnY (hidden multipath paths of head nvmeSnY).
    static const std::regex ns_entry(R"(nvme(\d+)(c\d+)?n(\d+))");
    std::vector<std::string> namespaces;
    for (const auto& e : sysfs::list_dir(root + "/sys/class/nvme/" + name)) {
      std::smatch n;
      if (!std::regex_match(e, n, ns_entry)) continue;
      // (assumes the subsystem instance equals the controller instance, as with one controller)
      std::string block = "nvme" + n[1].str() + "n" + n[3].str();
      if (std::find(namespaces.begin(), namespaces.end(), block) == namespaces.end())
        namespaces.push_back(block);
    }
    if (namespaces.size() != 1) {
      std::string list;
      for (const auto& n : namespaces) list += (list.empty() ? "" : ", ") + std::string("/dev/") + n;
      return bad(t.path, "NVMe controller with " + std::to_string(namespaces.size()) +
                             " namespaces" + (list.empty() ? "" : " (" + list + ")") +
                             "; name the namespace to use");
    }
    set_namespace(t, namespaces.front(), root);
    t.admin_path = t.path;
    return t;
  }
  return bad(t.path, "a character device that is neither an NVMe controller nor an NVMe generic "
                     "node (/dev/ngXnY)");
}

}  // namespace

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
  if (S_ISCHR(st.st_mode)) return resolve_char(t, st.st_rdev, root);
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
  t.is_loop = name.rfind("loop", 0) == 0;
  return t;
}

}  // namespace pts::device
