// device/system_view.cpp — see system_view.h. May use: core, sysfs, POSIX stat, loop ioctl.
#include "device/system_view.h"

#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <set>
#include <sstream>

#include "device/sysfs.h"

namespace pts::device {

namespace {

bool is_octal(char c) { return c >= '0' && c <= '7'; }

/// Decodes the \ooo escapes the kernel uses in mountinfo and swaps.
std::string unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() && is_octal(s[i + 1]) && is_octal(s[i + 2]) && is_octal(s[i + 3])) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 3), nullptr, 8));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

std::string why(const std::string& path, int err) { return path + " (" + std::strerror(err) + ")"; }

/// The mount tables of every mount namespace: ours first (/proc/self), then one process per
/// other namespace. A process that exits while we look is skipped; one we may not look at is
/// unreadable.
void read_mounts(const std::string& root, SystemView& v) {
  int err = 0;
  std::set<std::string> seen;
  const auto self_ns = sysfs::read_link(root + "/proc/self/ns/mnt", err);
  if (!self_ns) {
    v.unreadable.push_back(why("/proc/self/ns/mnt", err));
    return;
  }
  auto own = sysfs::read_text(root + "/proc/self/mountinfo", err);
  if (!own) {
    v.unreadable.push_back(why("/proc/self/mountinfo", err));
    return;
  }
  v.mounts = parse_mountinfo(*own);
  seen.insert(*self_ns);
  std::error_code ec;
  const auto pids = sysfs::list_dir(root + "/proc");
  if (pids.empty()) v.unreadable.push_back("/proc (no process entries)");
  for (const auto& pid : pids) {
    if (!all_digits(pid)) continue;
    const std::string dir = root + "/proc/" + pid;
    auto ns = sysfs::read_link(dir + "/ns/mnt", err);
    if (!ns) {
      if (err == EACCES || err == EPERM)
        v.unexamined.push_back("pid " + pid + " (" + sysfs::read_line(dir + "/comm").value_or("?") +
                               "): " + std::strerror(err));
      else if (err != ENOENT && err != ESRCH)
        v.unreadable.push_back(why("/proc/" + pid + "/ns/mnt", err));
      continue;  // gone, or a zombie: no namespace left to hold a mount
    }
    if (!seen.insert(*ns).second) continue;
    auto text = sysfs::read_text(dir + "/mountinfo", err);
    if (!text) {
      if (err != ENOENT && err != ESRCH) v.unreadable.push_back(why("/proc/" + pid + "/mountinfo", err));
      continue;
    }
    for (auto m : parse_mountinfo(*text)) {
      m.namespace_note = "in the mount namespace of pid " + pid + " " + *ns;
      v.mounts.push_back(std::move(m));
    }
  }
  v.mount_namespaces = seen.size();
}

void read_swaps(const std::string& root, SystemView& v) {
  int err = 0;
  auto text = sysfs::read_text(root + "/proc/swaps", err);
  if (!text) {
    v.unreadable.push_back(why("/proc/swaps", err));
    return;
  }
  for (const auto& name : parse_swaps(*text)) {
    SwapEntry e;
    e.name = name;
    struct stat st {};
    if (::stat((root + name).c_str(), &st) != 0) {
      v.unreadable.push_back("swap " + why(name, errno));
    } else if (S_ISBLK(st.st_mode)) {
      e.block = devnum_of(st.st_rdev);
    } else {
      e.file = FileKey{st.st_dev, st.st_ino};
    }
    v.swaps.push_back(std::move(e));
  }
}

/// Every attached loop device. The backing file's device + inode come from the loop driver
/// (LOOP_GET_STATUS64), so a path that names it differently (another mount namespace, a bind
/// mount, a hard link) still matches; the sysfs path is the fallback.
void read_loops(const std::string& root, SystemView& v) {
  for (const auto& name : sysfs::list_dir(root + "/sys/block")) {
    if (name.rfind("loop", 0) != 0) continue;
    const std::string sys = root + "/sys/block/" + name;
    auto backing = sysfs::read_line(sys + "/loop/backing_file");
    if (!backing) continue;  // not attached
    LoopEntry e;
    e.name = name;
    e.backing_path = *backing;
    if (auto d = sysfs::read_line(sys + "/dev"); !d || !parse_devnum(*d, e.dev)) {
      v.unreadable.push_back(root + "/sys/block/" + name + "/dev");
      continue;
    }
    bool known = false;
    const int fd = ::open((root + "/dev/" + name).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      loop_info64 info {};
      if (::ioctl(fd, LOOP_GET_STATUS64, &info) == 0) {
        e.backing = FileKey{info.lo_device, info.lo_inode};
        if (info.lo_rdevice) e.backing_rdev = devnum_of(info.lo_rdevice);
        known = true;
      }
      ::close(fd);
    }
    if (!known) {
      struct stat st {};
      std::string path = e.backing_path;
      if (::stat((root + path).c_str(), &st) == 0) {
        e.backing = FileKey{st.st_dev, st.st_ino};
        if (S_ISBLK(st.st_mode)) e.backing_rdev = devnum_of(st.st_rdev);
        known = true;
      }
    }
    if (!known) {
      v.unreadable.push_back("the backing file of /dev/" + name + " (" + e.backing_path + ")");
      continue;
    }
    v.loops.push_back(std::move(e));
  }
}

void read_btrfs(const std::string& root, SystemView& v) {
  const std::string base = root + "/sys/fs/btrfs";
  for (const auto& uuid : sysfs::list_dir(base)) {
    if (!sysfs::exists(base + "/" + uuid + "/devices")) continue;  // "features" and friends
    const auto devices = sysfs::list_dir(base + "/" + uuid + "/devices");
    for (const auto& d : devices) v.btrfs.push_back({uuid, d, devices});
  }
}

}  // namespace

bool parse_devnum(const std::string& text, DevNum& out) {
  unsigned ma = 0, mi = 0;
  char colon = 0;
  std::istringstream in(text);
  if (!(in >> ma >> colon >> mi) || colon != ':') return false;
  out = {ma, mi};
  return true;
}

std::string devnum_text(DevNum d) { return std::to_string(d.major) + ":" + std::to_string(d.minor); }

DevNum devnum_of(uint64_t d) { return {major(static_cast<dev_t>(d)), minor(static_cast<dev_t>(d))}; }

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
    if (header) {
      header = false;
      continue;
    }
    std::istringstream f(line);
    std::string name;
    if (f >> name) out.push_back(unescape(name));
  }
  return out;
}

SystemView read_system_view(const std::string& root) {
  SystemView v;
  read_mounts(root, v);
  read_swaps(root, v);
  read_loops(root, v);
  read_btrfs(root, v);
  struct stat rs {};
  if (::stat((root + "/").c_str(), &rs) == 0) v.root_dev = devnum_of(rs.st_dev);
  else v.unreadable.push_back(why("/", errno));
  return v;
}

}  // namespace pts::device
