// device/guard.cpp — see guard.h. May use: core, sysfs, POSIX stat.
#include "device/guard.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cstring>
#include <sstream>

#include "device/sysfs.h"

namespace pts::device {

namespace {

bool is_octal(char c) { return c >= '0' && c <= '7'; }

/// Decodes the \ooo escapes the kernel uses in mountinfo and swaps.
std::string unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() && is_octal(s[i + 1]) && is_octal(s[i + 2]) &&
        is_octal(s[i + 3])) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 3), nullptr, 8));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

bool contains(const std::vector<DevNum>& v, DevNum d) {
  return std::find(v.begin(), v.end(), d) != v.end();
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

DevNum devnum_of(dev_t d) { return {major(d), minor(d)}; }

}  // namespace

bool parse_devnum(const std::string& text, DevNum& out) {
  unsigned ma = 0, mi = 0;
  char colon = 0;
  std::istringstream in(text);
  if (!(in >> ma >> colon >> mi) || colon != ':') return false;
  out = {ma, mi};
  return true;
}

std::vector<MountEntry> parse_mountinfo(const std::string& text) {
  std::vector<MountEntry> out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    // id parent major:minor root mount_point options [optional...] - fstype source super_opts
    std::istringstream f(line);
    std::vector<std::string> w;
    for (std::string x; f >> x;) w.push_back(x);
    auto dash = w.size() > 6 ? std::find(w.begin() + 6, w.end(), "-") : w.end();
    if (dash == w.end() || dash + 1 == w.end()) continue;
    MountEntry e;
    if (!parse_devnum(w[2], e.dev)) continue;
    e.mount_point = unescape(w[4]);
    e.fstype = *(dash + 1);
    if (dash + 2 < w.end()) e.source = unescape(*(dash + 2));
    out.push_back(e);
  }
  return out;
}

std::vector<std::string> parse_swaps(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream lines(text);
  std::string line;
  bool header = true;
  while (std::getline(lines, line)) {
    if (header) { header = false; continue; }
    std::istringstream f(line);
    std::string name;
    if (f >> name) out.push_back(unescape(name));
  }
  return out;
}

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

core::Status evaluate_guard(const BlockUsage& u) {
  std::vector<std::string> reasons;
  std::vector<DevNum> devs{u.dev};
  devs.insert(devs.end(), u.partition_devs.begin(), u.partition_devs.end());
  std::vector<std::string> names{u.name};
  names.insert(names.end(), u.partitions.begin(), u.partitions.end());

  if (!u.partitions.empty())
    reasons.push_back("it has partitions (" + join(u.partitions) + ")");
  bool root = contains(devs, u.root_dev);
  std::vector<std::string> mounted;
  for (const auto& m : u.mounts) {
    bool by_source = std::any_of(names.begin(), names.end(),
                                 [&](const std::string& n) { return m.source == "/dev/" + n; });
    if (!contains(devs, m.dev) && !by_source) continue;
    if (m.mount_point == "/") root = true;
    mounted.push_back(m.source + " on " + m.mount_point + " (" + m.fstype + ")");
  }
  if (!mounted.empty()) reasons.push_back("it is mounted: " + join(mounted));
  if (root) reasons.push_back("it backs the root file system");
  for (DevNum d : u.swap_devs)
    if (contains(devs, d)) {
      reasons.push_back("it is active swap");
      break;
    }
  if (!u.holders.empty())
    reasons.push_back("it is held by " + join(u.holders) + " (md / device-mapper / LVM)");
  if (reasons.empty()) return core::ok_status();
  std::string msg = "refused: /dev/" + u.name + " is in use: ";
  for (size_t i = 0; i < reasons.size(); ++i) msg += (i ? "; " : "") + reasons[i];
  return core::Error(core::ErrorKind::Refused, msg + "; nothing was written");
}

core::Result<BlockUsage> collect_block_usage(const std::string& name, const std::string& root) {
  BlockUsage u;
  u.name = name;
  const std::string cls = root + "/sys/class/block/";
  auto dev_line = sysfs::read_line(cls + name + "/dev");
  if (!dev_line || !parse_devnum(*dev_line, u.dev))
    return core::Error(core::ErrorKind::BadInput, "/dev/" + name + ": not a block device known to sysfs");
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
  u.mounts = parse_mountinfo(sysfs::read_text(root + "/proc/self/mountinfo").value_or(""));
  for (const auto& s : parse_swaps(sysfs::read_text(root + "/proc/swaps").value_or(""))) {
    struct stat st {};
    if (::stat((root + s).c_str(), &st) == 0 && S_ISBLK(st.st_mode)) u.swap_devs.push_back(devnum_of(st.st_rdev));
  }
  struct stat rs {};
  if (::stat((root + "/").c_str(), &rs) == 0) u.root_dev = devnum_of(rs.st_dev);
  return u;
}

core::Status guard_block_device(const std::string& name, const std::string& root) {
  auto u = collect_block_usage(name, root);
  if (!u.ok()) return u.error();
  return evaluate_guard(*u);
}

core::Status guard_file(const std::string& path, const std::string& root) {
  struct stat target {};
  if (::stat(path.c_str(), &target) != 0) return core::ok_status();  // nothing there yet
  for (const auto& s : parse_swaps(sysfs::read_text(root + "/proc/swaps").value_or(""))) {
    struct stat st {};
    if (::stat((root + s).c_str(), &st) == 0 && st.st_dev == target.st_dev && st.st_ino == target.st_ino)
      return core::Error(core::ErrorKind::Refused, "refused: " + path + " is an active swap file (" + s +
                                                       "); nothing was written");
  }
  return core::ok_status();
}

}  // namespace pts::device
