// device/nvme_commands.cpp — encodes the admin commands of nvme_commands.h. Pure functions.
// May use: admin_transport.h.
#include "device/nvme_commands.h"

namespace pts::device::nvme {

namespace {

AdminCommand identify(uint8_t cns, uint32_t nsid) {
  AdminCommand c;
  c.opcode = kOpIdentify;
  c.nsid = nsid;
  c.cdw10 = cns;
  c.direction = DataDirection::FromDevice;
  c.data_bytes = kIdentifyBytes;
  return c;
}

}  // namespace

AdminCommand identify_controller() { return identify(kCnsController, 0); }
AdminCommand identify_namespace(uint32_t nsid) { return identify(kCnsNamespace, nsid); }
AdminCommand identify_active_namespaces() { return identify(kCnsActiveNamespaceList, 0); }
AdminCommand identify_ns_descriptors(uint32_t nsid) { return identify(kCnsNsDescriptorList, nsid); }
AdminCommand identify_allocated_namespaces() { return identify(kCnsAllocatedNamespaceList, 0); }

AdminCommand get_log_page(uint8_t lid, uint32_t nsid, uint32_t bytes) {
  const uint32_t numd = bytes / 4 - 1;  // zero-based number of dwords
  AdminCommand c;
  c.opcode = kOpGetLogPage;
  c.nsid = nsid;
  c.cdw10 = lid | ((numd & 0xFFFF) << 16);  // LID, NUMDL
  c.cdw11 = numd >> 16;                     // NUMDU
  c.direction = DataDirection::FromDevice;
  c.data_bytes = bytes;
  return c;
}

AdminCommand get_smart_log() { return get_log_page(kLidSmart, kNsidAll, kSmartLogBytes); }
AdminCommand get_sanitize_log() { return get_log_page(kLidSanitize, 0, kSanitizeLogBytes); }
AdminCommand get_commands_effects_log() { return get_log_page(kLidCommandsEffects, 0, kCommandsEffectsBytes); }

AdminCommand get_volatile_write_cache(FeatureSelect select) {
  AdminCommand c;
  c.opcode = kOpGetFeatures;
  c.cdw10 = kFidVolatileWriteCache | (uint32_t(select) & 0x7u) << 8;  // FID, SEL
  return c;
}

AdminCommand set_volatile_write_cache(bool enable, FeatureSave save) {
  AdminCommand c;
  c.opcode = kOpSetFeatures;
  c.cdw10 = kFidVolatileWriteCache | (save == FeatureSave::SaveAcrossPowerCycles ? 1u << 31 : 0u);  // FID, SV
  c.cdw11 = enable ? 1u : 0u;  // WCE
  return c;
}

AdminCommand format_nvm(uint32_t nsid, const FormatLayout& layout, Ses ses, uint32_t timeout_ms) {
  AdminCommand c;
  c.opcode = kOpFormatNvm;
  c.nsid = nsid;
  c.cdw10 = (layout.lbaf & 0xFu)                          // LBAF bits 3:0
            | (layout.mset ? 1u << 4 : 0u)                // MSET
            | (uint32_t(layout.pi & 0x7u) << 5)           // PI
            | (layout.pil ? 1u << 8 : 0u)                 // PIL
            | (uint32_t(static_cast<uint8_t>(ses) & 0x7u) << 9)  // SES
            | (uint32_t((layout.lbaf >> 4) & 0x3u) << 12);       // LBAF upper bits
  c.timeout_ms = timeout_ms;
  return c;
}

AdminCommand sanitize(Sanact action, bool no_deallocate) {
  AdminCommand c;
  c.opcode = kOpSanitize;
  c.cdw10 = (static_cast<uint32_t>(action) & 0x7u) | (no_deallocate ? 1u << 9 : 0u);
  return c;
}

AdminCommand namespace_create() {
  AdminCommand c;
  c.opcode = kOpNamespaceManagement;
  c.cdw10 = 0;  // SEL 0: create
  c.direction = DataDirection::ToDevice;
  c.data_bytes = kIdentifyBytes;
  return c;
}

std::vector<uint8_t> namespace_create_data(uint64_t blocks, uint8_t flbas) {
  std::vector<uint8_t> d(kIdentifyBytes, 0);
  for (int i = 0; i < 8; ++i) {
    d[0 + i] = static_cast<uint8_t>(blocks >> (8 * i));  // NSZE
    d[8 + i] = static_cast<uint8_t>(blocks >> (8 * i));  // NCAP
  }
  d[26] = flbas;
  return d;
}

AdminCommand namespace_delete(uint32_t nsid) {
  AdminCommand c;
  c.opcode = kOpNamespaceManagement;
  c.nsid = nsid;
  c.cdw10 = 1;  // SEL 1: delete
  return c;
}

AdminCommand namespace_attach(uint32_t nsid, bool attach) {
  AdminCommand c;
  c.opcode = kOpNamespaceAttachment;
  c.nsid = nsid;
  c.cdw10 = attach ? 0 : 1;
  c.direction = DataDirection::ToDevice;
  c.data_bytes = kIdentifyBytes;
  return c;
}

std::vector<uint8_t> namespace_attach_data(uint16_t controller_id) {
  std::vector<uint8_t> d(kIdentifyBytes, 0);
  d[0] = 1;  // one identifier
  d[2] = static_cast<uint8_t>(controller_id);
  d[3] = static_cast<uint8_t>(controller_id >> 8);
  return d;
}

AdminCommand identify_allocated_namespace(uint32_t nsid) { return identify(kCnsAllocatedNamespace, nsid); }

}  // namespace pts::device::nvme
