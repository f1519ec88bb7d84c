// device/nvme_decode.h — decoders for the NVMe data structures ptsuite reads: Identify
// Controller, Identify Namespace, SMART / Health log, Sanitize Status log. The structs keep
// the spec's field names (sanicap, fna, vwc, dlfeat...); they never leave src/device.
// Offsets: NVMe Base Specification 2.0, figures "Identify Controller Data Structure" etc.
// May use: core.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace pts::device::nvme {

struct IdCtrl {
  uint16_t vid = 0;
  uint16_t ssvid = 0;
  std::string sn, mn, fr;  ///< trailing blanks removed
  uint32_t ver = 0;        ///< MJR 31:16, MNR 15:8, TER 7:0
  uint16_t oacs = 0;
  uint8_t lpa = 0;
  uint32_t sanicap = 0;
  uint32_t nn = 0;
  uint16_t oncs = 0;
  uint8_t fna = 0;
  uint8_t vwc = 0;
  std::string subnqn;

  bool oacs_format() const { return oacs & (1u << 1); }
  bool oacs_ns_mgmt() const { return oacs & (1u << 3); }
  /// LPA bit 1: the controller keeps the Commands Supported and Effects log (LID 05h).
  bool lpa_commands_effects() const { return lpa & (1u << 1); }
  bool fna_format_all_ns() const { return fna & (1u << 0); }
  bool fna_secure_erase_all_ns() const { return fna & (1u << 1); }
  bool fna_crypto_erase() const { return fna & (1u << 2); }
  bool sanicap_crypto() const { return sanicap & (1u << 0); }
  bool sanicap_block() const { return sanicap & (1u << 1); }
  bool sanicap_overwrite() const { return sanicap & (1u << 2); }
  bool vwc_present() const { return vwc & 1u; }
  /// ONCS bit 4: Set Features' Save field and Get Features' Select field are supported.
  bool oncs_save_select() const { return oncs & (1u << 4); }
  /// "1.4", "2.0.1"; empty when VER is 0 (NVMe 1.0 controllers).
  std::string version_text() const;
};

struct LbaFormat {
  uint16_t ms = 0;     ///< metadata bytes per LBA
  uint8_t lbads = 0;   ///< log2 of the LBA data size
  uint8_t rp = 0;      ///< relative performance
};

struct IdNs {
  uint64_t nsze = 0, ncap = 0, nuse = 0;
  uint8_t nsfeat = 0;
  uint8_t nlbaf = 0;   ///< zero-based count of LBA formats
  uint8_t flbas = 0;
  uint8_t dps = 0;
  uint8_t dlfeat = 0;
  uint16_t npwg = 0;   ///< preferred write granularity (0-based, in LBAs), valid with NSFEAT bit 4
  std::vector<uint8_t> nguid;  ///< 16 bytes (all zero = not reported)
  std::vector<uint8_t> eui64;  ///< 8 bytes (all zero = not reported)
  std::vector<LbaFormat> lbaf;

  /// Index of the LBA format in use (FLBAS bits 3:0 and 6:5).
  uint8_t current_lbaf() const { return (flbas & 0xF) | ((flbas >> 5) & 0x3) << 4; }
  bool optperf() const { return nsfeat & (1u << 4); }  ///< NPWG and friends are valid
  bool metadata_at_end() const { return flbas & (1u << 4); }
  uint32_t lba_bytes() const;  ///< data size of the current format
  uint16_t metadata_bytes() const;
  /// DLFEAT bits 2:0: 1 = deallocated blocks read as zeroes, 2 = as 0xFF, 0 = not reported.
  uint8_t dealloc_read_value() const { return dlfeat & 0x7; }
};

struct SmartLog {
  uint8_t critical_warning = 0;
  uint16_t temperature_k = 0;
  uint8_t percent_used = 0;
  uint64_t data_units_read = 0, data_units_written = 0;  ///< low 64 bits of the 128-bit counters
  uint64_t power_on_hours = 0;
  uint64_t media_errors = 0;
};

/// Sanitize Status log (LID 81h).
struct SanitizeLog {
  uint16_t sprog = 0;   ///< progress, numerator of sprog / 65536
  uint16_t sstat = 0;
  uint32_t scdw10 = 0;  ///< cdw10 of the most recent sanitize
  uint32_t eto = 0, etbe = 0, etce = 0;        ///< estimated seconds; 0xFFFFFFFF = none
  uint32_t etond = 0, etbend = 0, etcend = 0;  ///< same, with no-deallocate

  /// SSTAT bits 2:0.
  enum Status : uint8_t { NeverSanitized = 0, Completed = 1, InProgress = 2, Failed = 3,
                          CompletedNoDealloc = 4 };
  uint8_t status() const { return sstat & 0x7; }
  bool global_data_erased() const { return sstat & (1u << 8); }
};

inline constexpr uint32_t kNoEstimate = 0xFFFFFFFF;
inline constexpr size_t kIdCtrlBytes = 4096;
inline constexpr size_t kIdNsBytes = 4096;

core::Result<IdCtrl> decode_id_ctrl(const std::vector<uint8_t>& data);
core::Result<IdNs> decode_id_ns(const std::vector<uint8_t>& data);
core::Result<SmartLog> decode_smart_log(const std::vector<uint8_t>& data);
core::Result<SanitizeLog> decode_sanitize_log(const std::vector<uint8_t>& data);
/// Identify active namespace list: the non-zero NSIDs.
std::vector<uint32_t> decode_ns_list(const std::vector<uint8_t>& data);

/// CSUPP (bit 0) of admin `opcode` in a Commands Supported and Effects log; false when the
/// log is too short to hold it.
bool admin_command_supported(const std::vector<uint8_t>& effects_log, uint8_t opcode);

/// Namespace Identification Descriptors (CNS 03h): NIDT 1 = EUI-64, 2 = NGUID, 3 = UUID.
struct NsDescriptors {
  std::vector<uint8_t> eui64, nguid, uuid;  ///< empty when absent
};
NsDescriptors decode_ns_descriptors(const std::vector<uint8_t>& data);

}  // namespace pts::device::nvme
