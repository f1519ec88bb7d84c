// device/nvme_commands.h — pure builders for the admin commands ptsuite sends (NVMe Base
// 2.0 field layout). No I/O here: each function returns the exact AdminCommand, so command
// encoding is unit-tested without a device and recorded verbatim in the PurgeRecord.
// May use: admin_transport.h.
#pragma once

#include <cstdint>
#include <vector>

#include "device/admin_transport.h"

namespace pts::device::nvme {

// Admin opcodes.
inline constexpr uint8_t kOpGetLogPage = 0x02;
inline constexpr uint8_t kOpIdentify = 0x06;
inline constexpr uint8_t kOpSetFeatures = 0x09;
inline constexpr uint8_t kOpGetFeatures = 0x0A;
inline constexpr uint8_t kOpFormatNvm = 0x80;
inline constexpr uint8_t kOpSanitize = 0x84;
inline constexpr uint8_t kOpNamespaceManagement = 0x0D;
inline constexpr uint8_t kOpNamespaceAttachment = 0x15;

// Identify CNS values, log page identifiers, feature identifiers.
inline constexpr uint8_t kCnsNamespace = 0x00;
inline constexpr uint8_t kCnsController = 0x01;
inline constexpr uint8_t kCnsActiveNamespaceList = 0x02;
inline constexpr uint8_t kCnsNsDescriptorList = 0x03;
inline constexpr uint8_t kCnsAllocatedNamespaceList = 0x10;
inline constexpr uint8_t kCnsAllocatedNamespace = 0x11;
inline constexpr uint8_t kCnsControllerList = 0x13;  ///< controllers in the subsystem (from CNTID)
inline constexpr uint8_t kLidSmart = 0x02;
inline constexpr uint8_t kLidSanitize = 0x81;
inline constexpr uint8_t kLidCommandsEffects = 0x05;  ///< Commands Supported and Effects
inline constexpr uint8_t kFidVolatileWriteCache = 0x06;

// Generic Command Status (SCT 0) values ptsuite acts on.
inline constexpr uint8_t kScInvalidOpcode = 0x01;

inline constexpr uint32_t kNsidAll = 0xFFFFFFFF;
inline constexpr uint32_t kIdentifyBytes = 4096;
inline constexpr uint32_t kSmartLogBytes = 512;
inline constexpr uint32_t kSanitizeLogBytes = 512;
inline constexpr uint32_t kCommandsEffectsBytes = 4096;

/// Format NVM Secure Erase Settings.
enum class Ses : uint8_t { None = 0, UserDataErase = 1, CryptographicErase = 2 };
/// Sanitize actions (SANACT).
enum class Sanact : uint8_t { ExitFailureMode = 1, BlockErase = 2, Overwrite = 3, CryptoErase = 4 };

AdminCommand identify_controller();
AdminCommand identify_namespace(uint32_t nsid);
AdminCommand identify_active_namespaces();
/// Namespace Identification Descriptor list (EUI-64, NGUID, UUID) of `nsid`.
AdminCommand identify_ns_descriptors(uint32_t nsid);
/// Every namespace allocated in the NVM subsystem, attached or not (needs NS management).
AdminCommand identify_allocated_namespaces();
/// Get Log Page of `bytes` (multiple of 4) for `lid`, namespace `nsid`.
AdminCommand get_log_page(uint8_t lid, uint32_t nsid, uint32_t bytes);
AdminCommand get_smart_log();
AdminCommand get_sanitize_log();
/// The Commands Supported and Effects log (LID 05h): one dword per admin opcode, then per I/O
/// opcode; bit 0 (CSUPP) says the controller supports it. Valid when LPA bit 1 is set.
AdminCommand get_commands_effects_log();
/// Get Features' SEL field (cdw10 bits 10:8): which value to return. Anything but Current
/// needs ONCS bit 4 (Save and Select fields supported). SupportedCapabilities answers in cdw0:
/// bit 0 saveable, bit 1 namespace specific, bit 2 changeable.
enum class FeatureSelect : uint8_t { Current = 0, Default = 1, Saved = 2, SupportedCapabilities = 3 };
inline constexpr uint32_t kFeatureCapSaveable = 1u << 0;
/// Volatile Write Cache (FID 06h); cdw0 bit 0 = WCE (or the capabilities, see above).
AdminCommand get_volatile_write_cache(FeatureSelect select = FeatureSelect::Current);
/// Set Features' SV bit (cdw10 bit 31), spelled out: whether the controller also saves the
/// value across power cycles and resets. Only valid when ONCS bit 4 (Save field supported) is
/// set (a controller without it rejects SV = 1: Invalid Field in Command) and the feature is
/// saveable (else: Feature Identifier Not Saveable).
enum class FeatureSave : uint8_t { CurrentOnly = 0, SaveAcrossPowerCycles = 1 };
/// Volatile Write Cache (FID 06h) WCE; `save` has no default so that every caller says which.
AdminCommand set_volatile_write_cache(bool enable, FeatureSave save);

/// Current format of a namespace, kept unchanged by a purge format.
struct FormatLayout {
  uint8_t lbaf = 0;     ///< LBA format index (0..63)
  bool mset = false;    ///< metadata transferred at the end of the LBA
  uint8_t pi = 0;       ///< protection information type (0..3)
  bool pil = false;     ///< PI at the start of metadata
};
/// Format NVM of namespace `nsid` keeping `layout`, with secure erase `ses`.
AdminCommand format_nvm(uint32_t nsid, const FormatLayout& layout, Ses ses, uint32_t timeout_ms);
/// Sanitize (whole NVM subsystem). `no_deallocate` = NDAS; AUSE is left 0 (no unrestricted
/// exit), overwrite passes are not used by ptsuite.
AdminCommand sanitize(Sanact action, bool no_deallocate = false);

/// Namespace Management, create (SEL 0): the 4096-byte host buffer (NSZE, NCAP in blocks of
/// LBA format `flbas`) is namespace_create_data(); the new NSID comes back in dword 0.
AdminCommand namespace_create();
std::vector<uint8_t> namespace_create_data(uint64_t blocks, uint8_t flbas);
/// Namespace Management, delete (SEL 1) of `nsid` (kNsidAll: every namespace).
AdminCommand namespace_delete(uint32_t nsid);
/// Namespace Attachment (SEL 0 attach, 1 detach) of `nsid` to the controllers in the list
/// namespace_attach_data() makes.
AdminCommand namespace_attach(uint32_t nsid, bool attach);
std::vector<uint8_t> namespace_attach_data(uint16_t controller_id);
/// Identify: a namespace whether attached or not (CNS 11h, needs NS management).
AdminCommand identify_allocated_namespace(uint32_t nsid);

}  // namespace pts::device::nvme
