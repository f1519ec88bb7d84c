// device/guard.h — the destructive-target guard: a block device is refused when it (or one
// of its partitions) is mounted, has partitions, is held by md/dm/LVM, is active swap or
// backs the root file system; a regular file when it is active swap. Parsing and the
// decision are pure (unit-tested); collect_block_usage() reads /proc and /sys under a root
// prefix. May use: core, sysfs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/result.h"

namespace pts::device {

struct DevNum {
  uint32_t major = 0, minor = 0;
  bool operator==(const DevNum&) const = default;
};

struct MountEntry {
  DevNum dev;
  std::string mount_point;
  std::string fstype;
  std::string source;  ///< e.g. /dev/sda1
};

/// /proc/self/mountinfo lines → entries (octal escapes such as \040 decoded).
std::vector<MountEntry> parse_mountinfo(const std::string& text);
/// /proc/swaps → the swap file/device names (header skipped, escapes decoded).
std::vector<std::string> parse_swaps(const std::string& text);
/// "259:0" → DevNum.
bool parse_devnum(const std::string& text, DevNum& out);

/// Everything the guard looks at for one block device.
struct BlockUsage {
  std::string name;                    ///< sysfs name, e.g. loop3, nvme0n1
  DevNum dev;
  std::vector<std::string> partitions; ///< sysfs names of its partitions
  std::vector<DevNum> partition_devs;
  std::vector<std::string> holders;    ///< of the device and of its partitions (dm-0, md0...)
  std::vector<MountEntry> mounts;      ///< the whole mount table
  std::vector<DevNum> swap_devs;       ///< block devices in use as swap
  DevNum root_dev;                     ///< device of "/" (st_dev)
};

/// Bytes read from the start of a device for detect_partition_table().
inline constexpr size_t kPartitionProbeBytes = 8192;

/// "GPT" or "MBR" when the first bytes of a device hold a partition table (GPT header at
/// LBA 1 for 512 or 4096-byte LBAs; an MBR with valid entries), else "". Catches tables the
/// kernel did not parse (no partition support, partition scan off).
std::string detect_partition_table(std::span<const uint8_t> head);

/// The decision: ok, or Refused naming every reason found.
core::Status evaluate_guard(const BlockUsage& usage);

/// Reads the usage of block device `name` (under /sys/class/block) from `root` + /proc, /sys.
core::Result<BlockUsage> collect_block_usage(const std::string& name, const std::string& root = "");

/// Guard for a block device by sysfs name.
core::Status guard_block_device(const std::string& name, const std::string& root = "");
/// Guard for a regular file: refuses an active swap file.
core::Status guard_file(const std::string& path, const std::string& root = "");

}  // namespace pts::device
