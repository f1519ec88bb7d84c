// device/guard.h — the destructive-target guard's decisions. A block device is refused when it
// is a partition, has partitions, is mounted (in any mount namespace), backs the root file
// system, is active swap, is held by md/dm/LVM, is a btrfs multi-device member or backs a loop
// device; a regular file when it is active swap or backs a loop device. Whatever the system
// view could not read refuses too. Collecting (sysfs, system_view.h) and deciding are split so
// the decisions are unit-tested on plain records. The exclusive open, signatures and consent
// come after these checks (held_target.h). May use: core, sysfs, system_view.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/result.h"
#include "device/system_view.h"

namespace pts::device {

/// What sysfs says about one block device.
struct BlockUsage {
  std::string name;                    ///< sysfs name, e.g. loop3, nvme0n1
  DevNum dev;
  std::string partition_of;            ///< the whole device when `name` is itself a partition
  std::vector<std::string> partitions; ///< sysfs names of its partitions
  std::vector<DevNum> partition_devs;
  std::vector<std::string> holders;    ///< of the device and of its partitions (dm-0, md0...)
};

/// Bytes read from the start of a device for detect_partition_table().
inline constexpr size_t kPartitionProbeBytes = 8192;

/// "GPT" or "MBR" when the first bytes of a device hold a partition table (GPT header at
/// LBA 1 for 512 or 4096-byte LBAs; an MBR with valid entries), else "". Catches tables the
/// kernel did not parse (no partition support, partition scan off) and a GPT header without
/// the protective MBR that libblkid insists on.
std::string detect_partition_table(std::span<const uint8_t> head);

/// The decision for a block device: ok, or Refused naming every reason and its evidence.
core::Status evaluate_guard(const BlockUsage& usage, const SystemView& view);

/// The decision for a regular file (`key` = its device + inode).
core::Status evaluate_file_guard(const std::string& path, FileKey key, const SystemView& view);

/// Reads the usage of block device `name` (under /sys/class/block) from `root` + /sys.
core::Result<BlockUsage> collect_block_usage(const std::string& name, const std::string& root = "");

/// Guard for a block device by sysfs name (reads the system view itself).
core::Status guard_block_device(const std::string& name, const std::string& root = "");
/// Guard for a regular file; a file that does not exist yet passes.
core::Status guard_file(const std::string& path, const std::string& root = "");

}  // namespace pts::device
