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

/// Identity of the device under test. `serial` + `firmware` are re-read before every
/// destructive phase; a change aborts the run.
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
};

/// Volatile write cache state as recorded in the run.
enum class WriteCacheState { NotPresent, Enabled, Disabled, Unknown };

}  // namespace pts::model
