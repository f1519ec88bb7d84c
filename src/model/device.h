// model/device.h — what ptsuite knows about a target: identity, purge/cache capabilities
// and health, in plain words (NVMe field names stay inside device/). May use: core.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace pts::model {

enum class TargetKind { NvmeNamespace, BlockDevice, File };

/// Capabilities that decide purge and write-cache handling.
struct DeviceCapabilities {
  bool format_nvm = false;              ///< Format NVM supported
  bool namespace_management = false;
  bool crypto_erase_in_format = false;  ///< Format NVM with SES=2 supported
  bool format_applies_to_all_namespaces = false;
  bool sanitize_crypto_erase = false;
  bool sanitize_block_erase = false;
  bool sanitize_overwrite = false;
  bool volatile_write_cache_present = false;
  bool deallocated_reads_zeroes = false;  ///< deallocated LBAs read back as zeroes
  bool discard = false;                   ///< block device accepts BLKDISCARD
};

/// SMART / health summary (NVMe: SMART / Health Information log).
struct HealthSummary {
  std::optional<int> temperature_c;
  std::optional<uint32_t> percentage_used;
  std::optional<uint64_t> media_errors;
  std::optional<uint64_t> data_units_written;  ///< in units of 512 000 bytes, as reported
  std::optional<uint64_t> data_units_read;
  std::optional<uint64_t> power_on_hours;
  std::optional<uint32_t> critical_warning;
};

/// The PCIe link of the drive's controller, as read from sysfs (current_link_speed/width,
/// max_link_speed/width of its PCI function) or stated by a simulated drive. An empty
/// `source` means there is no PCIe link to read (a file, a loop device, a virtual disk).
struct PcieLink {
  std::string source;          ///< "sysfs /sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0", "simulated"; "" = n/a
  double current_gt_s = 0;     ///< transfer rate per lane now, GT/s (16 = PCIe Gen4)
  uint32_t current_width = 0;  ///< lanes now
  double max_gt_s = 0;         ///< the fastest rate the link supports
  uint32_t max_width = 0;
};

/// "PCIe Gen4 x4" when current = max, "PCIe Gen3 x2 (max Gen4 x4)" when the link trained
/// below its maximum, "n/a (not a PCIe device)" without a source.
std::string pcie_link_label(const PcieLink& link);
/// "Gen4" for 16 GT/s (Gen1 2.5, Gen2 5, Gen3 8, Gen4 16, Gen5 32, Gen6 64), else "8.5 GT/s".
std::string pcie_generation(double gt_s);

/// Identity of the device under test: serial, firmware, model, NSID, NGUID/EUI-64 or WWID,
/// capacity and LBA format are re-read before every destructive phase and on resume; a
/// change aborts (device/confirm.h check_identity_unchanged).
struct DeviceIdentity {
  TargetKind kind = TargetKind::File;
  std::string path;          ///< the target as given (e.g. /dev/nvme0n1)
  std::string manufacturer;  ///< from PCI vendor id when known
  std::string model;
  std::string serial;
  std::string firmware;
  std::string interface;     ///< "PCIe NVMe 1.4", "block device", "file"
  std::string nvme_version;  ///< "1.4" or empty
  uint32_t namespace_id = 0;
  uint64_t capacity_bytes = 0;     ///< user capacity
  uint32_t lba_size = 512;         ///< logical block size in bytes (current LBA format)
  uint32_t lba_metadata_bytes = 0;
  uint32_t lba_format_index = 0;
  uint32_t physical_block_bytes = 0;
  DeviceCapabilities capabilities;
  HealthSummary health;
  PcieLink pcie_link;        ///< interface speed and width; n/a for files and loop devices
  std::string wwid;   ///< the block device's World Wide ID from sysfs ("eui.…", "uuid.…", "naa.…"); "" = none
  std::string nguid;  ///< NVMe Namespace Globally Unique Identifier, 32 hex digits; "" = not reported
  std::string eui64;  ///< NVMe IEEE Extended Unique Identifier, 16 hex digits; "" = not reported
  /// The serial is one ptsuite made up (BLOCK-major:minor, LOOP-…, FILE-…) or the device has
  /// none: it identifies nothing, so it is never accepted as a confirmation.
  bool serial_made_up = false;
  uint32_t subsystem_namespaces = 0;   ///< NVMe: namespaces of the NVM subsystem this host sees (0 = unknown)
  uint32_t subsystem_controllers = 0;  ///< NVMe: controllers of the NVM subsystem this host sees (0 = unknown)
};

/// How the operator consented to destroying the target, and how the target was held for
/// the command. The run record and the report name what was confirmed.
struct Consent {
  /// "serial", "wwid", "by-id" (a /dev/disk/by-id name), "backing-file" (a loop device's
  /// backing file), "file" (a file target's own path), "created-by-ptsuite" (a file this run
  /// created: no confirmation needed); "" in records older than this field.
  std::string method;
  std::string value;        ///< what the operator gave (or the created file's path)
  std::string exclusivity;  ///< e.g. "O_EXCL|O_DIRECT descriptor on /dev/loop3 (259:3) held for the command"
};

/// Volatile write cache state as recorded in the run.
enum class WriteCacheState { NotPresent, Enabled, Disabled, Unknown };

}  // namespace pts::model
