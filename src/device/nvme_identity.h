// device/nvme_identity.h — NVMe identify/log data in plain words: DeviceIdentity,
// capabilities, health, and readable NVMe status codes. May use: core, model, nvme_decode.
#pragma once

#include <cstdint>
#include <string>

#include "device/nvme_decode.h"
#include "model/device.h"

namespace pts::device {

/// Identity and capabilities of namespace `nsid` (health left empty).
model::DeviceIdentity nvme_identity(const nvme::IdCtrl& ctrl, const nvme::IdNs& ns, uint32_t nsid,
                                    const std::string& path);

/// SMART / Health log → HealthSummary (temperature in °C).
model::HealthSummary nvme_health(const nvme::SmartLog& log);

/// Vendor name for a PCI vendor id, or "PCI vendor 0xXXXX".
std::string pci_vendor_name(uint16_t vid);

/// "SCT 0x0 SC 0x01 (Invalid Command Opcode)" — names for the codes a purge meets.
std::string nvme_status_text(uint8_t sct, uint8_t sc, bool dnr = false);

}  // namespace pts::device
