// device/system_view.h — what the guard reads about the whole system before it lets a command
// write: the mount table of every mount namespace (/proc/<pid>/mountinfo, one per namespace,
// found through /proc/<pid>/ns/mnt), active swap (/proc/swaps), every loop device and the
// device + inode of its backing file, btrfs multi-device members (/sys/fs/btrfs/*/devices) and
// the device of "/". Whatever could not be read is named in `unreadable`: the guard refuses
// then, it never passes because it could not look. One exception, `unexamined`: a process
// whose mount namespace we may not inspect (EACCES on /proc/<pid>/ns/mnt — e.g. a container
// runtime's init protected from its own containers). A mount there still holds the block
// device's exclusive claim, so the exclusive open that follows refuses it (EBUSY), and a file
// can only be held through a loop device (checked system-wide) or an open descriptor (the
// write lease): those processes are named, not refused. Parsers are pure (unit-tested); every
// path is joined to a root prefix ("" on a real system, a temp tree in tests).
// May use: core, sysfs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pts::device {

struct DevNum {
  uint32_t major = 0, minor = 0;
  bool operator==(const DevNum&) const = default;
};

/// st_dev + st_ino: what a regular file is, whatever path names it.
struct FileKey {
  uint64_t dev = 0, ino = 0;
  bool operator==(const FileKey&) const = default;
};

struct MountEntry {
  DevNum dev;
  std::string mount_point;
  std::string fstype;
  std::string source;     ///< e.g. /dev/sda1
  std::string namespace_note;  ///< "" in our mount namespace, else "in the mount namespace of pid N"
};

struct SwapEntry {
  std::string name;               ///< as /proc/swaps shows it
  std::optional<DevNum> block;    ///< a swap partition / device
  std::optional<FileKey> file;    ///< a swap file
};

struct LoopEntry {
  std::string name;               ///< loop3
  DevNum dev;                     ///< of the loop device itself
  std::string backing_path;       ///< /sys/block/loopN/loop/backing_file
  FileKey backing;                ///< device + inode of the backing file (LOOP_GET_STATUS64)
  std::optional<DevNum> backing_rdev;  ///< when the backing file is a block device
};

struct BtrfsMember {
  std::string fs_uuid;
  std::string device;                  ///< sysfs block name of the member
  std::vector<std::string> all_devices;  ///< every member of that file system
};

struct SystemView {
  std::vector<MountEntry> mounts;  ///< every mount namespace, deduplicated per namespace
  size_t mount_namespaces = 0;
  std::vector<SwapEntry> swaps;
  std::vector<LoopEntry> loops;
  std::vector<BtrfsMember> btrfs;
  DevNum root_dev;                 ///< device of "/" (st_dev)
  std::vector<std::string> unreadable;  ///< "/proc/swaps (Permission denied)", ...: refuse
  std::vector<std::string> unexamined;  ///< "pid 1 (init): Permission denied": named, covered by O_EXCL
};

/// /proc/<pid>/mountinfo lines → entries (octal escapes such as \040 decoded).
std::vector<MountEntry> parse_mountinfo(const std::string& text);
/// /proc/swaps → the swap file/device names (header skipped, escapes decoded).
std::vector<std::string> parse_swaps(const std::string& text);
/// "259:0" → DevNum.
bool parse_devnum(const std::string& text, DevNum& out);
std::string devnum_text(DevNum d);
DevNum devnum_of(uint64_t dev_t_value);

/// Reads the whole view from `root` + /proc and /sys.
SystemView read_system_view(const std::string& root = "");

}  // namespace pts::device
