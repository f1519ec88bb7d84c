// device/guard.cpp — see guard.h. May use: core, sysfs, system_view, POSIX stat.
#include "device/guard.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstring>

#include "device/sysfs.h"

namespace pts::device {

namespace {

bool contains(const std::vector<DevNum>& v, DevNum d) { return std::find(v.begin(), v.end(), d) != v.end(); }

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string mount_text(const MountEntry& m) {
  return m.source + " on " + m.mount_point + " (" + m.fstype + ")" +
         (m.namespace_note.empty() ? "" : " " + m.namespace_note);
}

/// Mounts of the loop device `loop` (for a file that backs it).
std::vector<std::string> mounts_of(const SystemView& v, DevNum dev, const std::string& name) {
  std::vector<std::string> out;
  for (const auto& m : v.mounts)
    if (m.dev == dev || m.source == "/dev/" + name) out.push_back(mount_text(m));
  return out;
}

void add_unreadable(const SystemView& v, std::vector<std::string>& reasons) {
  if (!v.unreadable.empty())
    reasons.push_back("the guard could not read " + join(v.unreadable) +
                      ", so it cannot tell whether the target is in use (run as root, with /proc and /sys mounted)");
}

core::Status refusal(const std::string& what, const std::vector<std::string>& reasons) {
  if (reasons.empty()) return core::ok_status();
  return core::Error(core::ErrorKind::Refused,
                     "refused: " + what + " is in use: " + join(reasons, "; ") + "; nothing was written");
}

}  // namespace

std::string detect_partition_table(std::span<const uint8_t> head) {
  for (size_t lba : {size_t(512), size_t(4096)})
    if (head.size() >= lba + 8 && std::memcmp(head.data() + lba, "EFI PART", 8) == 0) return "GPT";
  if (head.size() < 512 || head[510] != 0x55 || head[511] != 0xAA) return "";
  bool any = false;
  for (size_t i = 0; i < 4; ++i) {
    const uint8_t* e = head.data() + 446 + 16 * i;
    if (e[0] != 0x00 && e[0] != 0x80) return "";  // boot flag: not a partition entry (e.g. a FAT boot sector)
    uint32_t sectors = e[12] | e[13] << 8 | e[14] << 16 | uint32_t(e[15]) << 24;
    if (e[4] != 0 && sectors != 0) any = true;
  }
  return any ? "MBR" : "";
}

core::Status evaluate_guard(const BlockUsage& u, const SystemView& v) {
  std::vector<std::string> reasons;
  std::vector<DevNum> devs{u.dev};
  devs.insert(devs.end(), u.partition_devs.begin(), u.partition_devs.end());
  std::vector<std::string> names{u.name};
  names.insert(names.end(), u.partitions.begin(), u.partitions.end());

  if (!u.partition_of.empty())
    reasons.push_back("it is a partition of /dev/" + u.partition_of + " (ptsuite tests whole devices only)");
  if (!u.partitions.empty()) reasons.push_back("it has partitions (" + join(u.partitions) + ")");
  bool root = contains(devs, v.root_dev);
  std::vector<std::string> mounted;
  for (const auto& m : v.mounts) {
    const bool by_source = std::any_of(names.begin(), names.end(), [&](const std::string& n) { return m.source == "/dev/" + n; });
    if (!contains(devs, m.dev) && !by_source) continue;
    if (m.mount_point == "/" && m.namespace_note.empty()) root = true;
    mounted.push_back(mount_text(m));
  }
  if (!mounted.empty()) reasons.push_back("it is mounted: " + join(mounted));
  if (root) reasons.push_back("it backs the root file system");
  for (const auto& s : v.swaps)
    if (s.block && contains(devs, *s.block)) reasons.push_back("it is active swap (" + s.name + ")");
  if (!u.holders.empty()) reasons.push_back("it is held by " + join(u.holders) + " (md / device-mapper / LVM)");
  for (const auto& b : v.btrfs)
    if (std::find(names.begin(), names.end(), b.device) != names.end())
      reasons.push_back("/dev/" + b.device + " is a member of btrfs file system " + b.fs_uuid + " (devices: " +
                        join(b.all_devices) + ")");
  for (const auto& l : v.loops)
    if (l.backing_rdev && contains(devs, *l.backing_rdev))
      reasons.push_back("it backs loop device /dev/" + l.name);
  add_unreadable(v, reasons);
  return refusal("/dev/" + u.name, reasons);
}

core::Status evaluate_file_guard(const std::string& path, FileKey key, const SystemView& v) {
  std::vector<std::string> reasons;
  for (const auto& s : v.swaps)
    if (s.file && *s.file == key) reasons.push_back("it is an active swap file (" + s.name + ")");
  for (const auto& l : v.loops) {
    if (!(l.backing == key) || l.backing_rdev) continue;
    auto m = mounts_of(v, l.dev, l.name);
    reasons.push_back("it backs loop device /dev/" + l.name + (m.empty() ? "" : ", which is mounted: " + join(m)));
  }
  add_unreadable(v, reasons);
  return refusal(path, reasons);
}

core::Result<BlockUsage> collect_block_usage(const std::string& name, const std::string& root) {
  BlockUsage u;
  u.name = name;
  const std::string cls = root + "/sys/class/block/";
  auto dev_line = sysfs::read_line(cls + name + "/dev");
  if (!dev_line || !parse_devnum(*dev_line, u.dev))
    return core::Error(core::ErrorKind::BadInput, "/dev/" + name + ": not a block device known to sysfs");
  if (sysfs::exists(cls + name + "/partition")) {
    // /sys/class/block/sdb1 -> ../../devices/.../sdb/sdb1: the parent directory is the disk
    auto link = sysfs::read_link(cls + name).value_or("");
    auto slash = link.find_last_of('/');
    std::string parent = slash == std::string::npos ? "" : link.substr(0, slash);
    parent = parent.substr(parent.find_last_of('/') + 1);
    u.partition_of = parent.empty() ? "its disk" : parent;
  }
  if (!sysfs::exists(cls + name + "/holders"))
    return core::Error(core::ErrorKind::Refused, "refused: cannot read " + cls + name +
                                                     "/holders, so the guard cannot tell whether /dev/" + name +
                                                     " is held; nothing was written");
  auto add_holders = [&](const std::string& dir, const std::string& n) {
    for (const auto& h : sysfs::list_dir(dir + "/holders")) u.holders.push_back(h + " (on " + n + ")");
  };
  add_holders(cls + name, name);
  for (const auto& entry : sysfs::list_dir(cls + name)) {
    if (!sysfs::exists(cls + name + "/" + entry + "/partition")) continue;
    DevNum d;
    if (auto l = sysfs::read_line(cls + name + "/" + entry + "/dev"); l && parse_devnum(*l, d))
      u.partition_devs.push_back(d);
    u.partitions.push_back(entry);
    add_holders(cls + name + "/" + entry, entry);
  }
  return u;
}

core::Status guard_block_device(const std::string& name, const std::string& root) {
  auto u = collect_block_usage(name, root);
  if (!u.ok()) return u.error();
  return evaluate_guard(*u, read_system_view(root));
}

core::Status guard_file(const std::string& path, const std::string& root) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return core::ok_status();  // nothing there yet
  return evaluate_file_guard(path, FileKey{st.st_dev, st.st_ino}, read_system_view(root));
}

}  // namespace pts::device
