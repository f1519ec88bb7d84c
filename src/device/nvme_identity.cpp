// device/nvme_identity.cpp — see nvme_identity.h. May use: core, model, nvme_decode.
#include "device/nvme_identity.h"

#include <cstdio>

namespace pts::device {

std::string pci_vendor_name(uint16_t vid) {
  struct V { uint16_t id; const char* name; };
  static constexpr V kVendors[] = {
      {0x1b36, "Red Hat (QEMU)"}, {0x144d, "Samsung"}, {0x8086, "Intel"}, {0x15b7, "Western Digital (SanDisk)"},
      {0x1c58, "Western Digital (HGST)"}, {0x1b96, "Western Digital"}, {0x1c5c, "SK hynix"},
      {0x1e0f, "KIOXIA"}, {0x1179, "Toshiba"}, {0x1344, "Micron"}, {0x1bb1, "Seagate"},
      {0x1987, "Phison"}, {0x126f, "Silicon Motion"}, {0x2646, "Kingston"}, {0x1cc1, "ADATA"},
      {0x1dbe, "INNOGRIT"}, {0x1e49, "YMTC"}, {0x1d78, "DERA"}, {0x1c5f, "Memblaze"},
      {0x19e5, "Huawei"}, {0x1f9f, "Solidigm"}, {0x025e, "Solidigm"}, {0x106b, "Apple"}};
  for (const auto& v : kVendors)
    if (v.id == vid) return v.name;
  char buf[32];
  std::snprintf(buf, sizeof buf, "PCI vendor 0x%04x", vid);
  return buf;
}

model::DeviceIdentity nvme_identity(const nvme::IdCtrl& c, const nvme::IdNs& ns, uint32_t nsid,
                                    const std::string& path) {
  model::DeviceIdentity id;
  id.kind = model::TargetKind::NvmeNamespace;
  id.path = path;
  id.manufacturer = pci_vendor_name(c.vid);
  id.model = c.mn;
  id.serial = c.sn;
  id.firmware = c.fr;
  id.nvme_version = c.version_text();
  id.interface = "PCIe NVMe" + (id.nvme_version.empty() ? std::string() : " " + id.nvme_version);
  id.namespace_id = nsid;
  id.lba_size = ns.lba_bytes();
  id.capacity_bytes = ns.nsze * id.lba_size;
  id.lba_metadata_bytes = ns.metadata_bytes();
  id.lba_format_index = ns.current_lbaf();
  if (ns.optperf()) id.physical_block_bytes = (uint32_t(ns.npwg) + 1) * id.lba_size;
  auto& cap = id.capabilities;
  cap.format_nvm = c.oacs_format();
  cap.namespace_management = c.oacs_ns_mgmt();
  cap.crypto_erase_in_format = c.fna_crypto_erase();
  cap.format_applies_to_all_namespaces = c.fna_format_all_ns();
  cap.sanitize_crypto_erase = c.sanicap_crypto();
  cap.sanitize_block_erase = c.sanicap_block();
  cap.sanitize_overwrite = c.sanicap_overwrite();
  cap.volatile_write_cache_present = c.vwc_present();
  cap.deallocated_reads_zeroes = ns.dealloc_read_value() == 1;
  cap.discard = c.oncs & (1u << 2);  // Dataset Management (deallocate) → BLKDISCARD
  return id;
}

model::HealthSummary nvme_health(const nvme::SmartLog& s) {
  model::HealthSummary h;
  if (s.temperature_k) h.temperature_c = int(s.temperature_k) - 273;
  h.percentage_used = s.percent_used;
  h.media_errors = s.media_errors;
  h.data_units_written = s.data_units_written;
  h.data_units_read = s.data_units_read;
  h.power_on_hours = s.power_on_hours;
  h.critical_warning = s.critical_warning;
  return h;
}

std::string nvme_status_text(uint8_t sct, uint8_t sc, bool dnr) {
  const char* name = nullptr;
  if (sct == 0) {
    switch (sc) {
      case 0x00: name = "Successful Completion"; break;
      case 0x01: name = "Invalid Command Opcode"; break;
      case 0x02: name = "Invalid Field in Command"; break;
      case 0x06: name = "Internal Error"; break;
      case 0x07: name = "Command Abort Requested"; break;
      case 0x0B: name = "Invalid Namespace or Format"; break;
      case 0x1C: name = "Sanitize Failed"; break;
      case 0x1D: name = "Sanitize In Progress"; break;
      case 0x20: name = "Namespace is Write Protected"; break;
      case 0x21: name = "Command Interrupted"; break;
      default: break;
    }
  } else if (sct == 1) {
    switch (sc) {
      case 0x0A: name = "Invalid Format"; break;
      case 0x15: name = "Namespace Insufficient Capacity"; break;
      case 0x0F: name = "Invalid Log Page"; break;
      default: break;
    }
  } else if (sct == 2) {
    name = "Media and Data Integrity Error";
  }
  char buf[96];
  std::snprintf(buf, sizeof buf, "NVMe status SCT 0x%x SC 0x%02x (%s)%s", sct, sc,
                name ? name : "see the NVMe Base Specification", dnr ? " DNR" : "");
  return buf;
}

}  // namespace pts::device
