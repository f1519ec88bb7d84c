// Identity decoding from stored Identify / SMART dumps of QEMU 7.2's NVMe controller
// (unit-tests/golden/device, captured in the unit-tests/e2e/vm guest with `nvme id-ctrl -b`).
#include <gtest/gtest.h>

#include "device/nvme_decode.h"
#include "device/nvme_identity.h"
#include "fakes/fake_transport.h"

namespace pts::device {
namespace {

std::vector<uint8_t> golden(const char* name) {
  auto d = fakes::load_hex_dump(std::string(PTS_SOURCE_DIR) + "/unit-tests/golden/device/" + name);
  EXPECT_FALSE(d.empty()) << name;
  return d;
}

TEST(NvmeDecode, IdentifyControllerFromQemuDump) {
  auto c = nvme::decode_id_ctrl(golden("qemu-7.2-id-ctrl.hex"));
  ASSERT_TRUE(c.ok()) << c.error().message();
  EXPECT_EQ(c->vid, 0x1b36);
  EXPECT_EQ(c->sn, "PTSGOLDEN01");
  EXPECT_EQ(c->mn, "QEMU NVMe Ctrl");
  EXPECT_EQ(c->fr, "7.2.22");
  EXPECT_EQ(c->ver, 0x10400u);
  EXPECT_EQ(c->version_text(), "1.4");
  EXPECT_EQ(c->oacs, 0x10a);
  EXPECT_TRUE(c->oacs_format());
  EXPECT_TRUE(c->oacs_ns_mgmt());
  EXPECT_EQ(c->sanicap, 0u);
  EXPECT_EQ(c->fna, 0);
  EXPECT_EQ(c->vwc, 0x7);
  EXPECT_TRUE(c->vwc_present());
  EXPECT_EQ(c->oncs, 0x15d);
  EXPECT_EQ(c->nn, 256u);
  EXPECT_EQ(c->subnqn, "nqn.2019-08.org.qemu:PTSGOLDEN01");
}

TEST(NvmeDecode, IdentifyNamespaceFromQemuDump) {
  auto n = nvme::decode_id_ns(golden("qemu-7.2-id-ns.hex"));
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->nsze, 0x80000u);
  EXPECT_EQ(n->nlbaf, 7);
  ASSERT_EQ(n->lbaf.size(), 8u);
  EXPECT_EQ(n->current_lbaf(), 0);
  EXPECT_EQ(n->lba_bytes(), 512u);
  EXPECT_EQ(n->metadata_bytes(), 0);
  EXPECT_EQ(n->lbaf[4].lbads, 12);
  EXPECT_EQ(n->lbaf[3].ms, 64);
  EXPECT_EQ(n->dealloc_read_value(), 1);
}

TEST(NvmeDecode, SmartLogFromQemuDump) {
  auto s = nvme::decode_smart_log(golden("qemu-7.2-smart-log.hex"));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->temperature_k, 323);
  EXPECT_EQ(s->critical_warning, 0);
  auto h = nvme_health(*s);
  EXPECT_EQ(h.temperature_c, 50);
  EXPECT_EQ(h.percentage_used, 0u);
  EXPECT_EQ(h.media_errors, 0u);
}

TEST(NvmeDecode, IdentityInPlainWords) {
  auto c = nvme::decode_id_ctrl(golden("qemu-7.2-id-ctrl.hex"));
  auto n = nvme::decode_id_ns(golden("qemu-7.2-id-ns.hex"));
  auto id = nvme_identity(*c, *n, 1, "/dev/nvme0n1");
  EXPECT_EQ(id.kind, model::TargetKind::NvmeNamespace);
  EXPECT_EQ(id.model, "QEMU NVMe Ctrl");
  EXPECT_EQ(id.serial, "PTSGOLDEN01");
  EXPECT_EQ(id.firmware, "7.2.22");
  EXPECT_EQ(id.capacity_bytes, 268435456u);
  EXPECT_EQ(id.lba_size, 512u);
  EXPECT_EQ(id.physical_block_bytes, 512u);  // NSFEAT bit 4 set, NPWG 0 = one LBA
  EXPECT_EQ(id.namespace_id, 1u);
  EXPECT_EQ(id.nvme_version, "1.4");
  EXPECT_EQ(id.interface, "PCIe NVMe 1.4");
  EXPECT_EQ(id.manufacturer, "Red Hat (QEMU)");
  EXPECT_TRUE(id.capabilities.format_nvm);
  EXPECT_FALSE(id.capabilities.crypto_erase_in_format);
  EXPECT_FALSE(id.capabilities.sanitize_crypto_erase);
  EXPECT_FALSE(id.capabilities.sanitize_block_erase);
  EXPECT_TRUE(id.capabilities.volatile_write_cache_present);
  EXPECT_TRUE(id.capabilities.deallocated_reads_zeroes);
  EXPECT_TRUE(id.capabilities.discard);
}

TEST(NvmeDecode, FourKnFormatAndUpperLbafBits) {
  auto d = golden("qemu-7.2-id-ns.hex");
  d[26] = 0x04;  // FLBAS: format 4 (4096 B)
  auto n = nvme::decode_id_ns(d);
  EXPECT_EQ(n->lba_bytes(), 4096u);
  EXPECT_EQ(n->nsze * n->lba_bytes(), 0x80000ull * 4096);
  d[26] = 0x20 | 0x01;  // FLBAS bits 6:5 = 1 → index 17
  EXPECT_EQ(nvme::decode_id_ns(d)->current_lbaf(), 17);
  EXPECT_EQ(nvme::decode_id_ns(d)->lba_bytes(), 0u);  // beyond NLBAF: unusable
}

TEST(NvmeDecode, ShortDataIsADeviceError) {
  std::vector<uint8_t> tiny(100);
  auto c = nvme::decode_id_ctrl(tiny);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().kind, core::ErrorKind::Device);
  EXPECT_FALSE(nvme::decode_id_ns(tiny).ok());
  EXPECT_FALSE(nvme::decode_smart_log(tiny).ok());
  EXPECT_FALSE(nvme::decode_sanitize_log(std::vector<uint8_t>(8)).ok());
}

TEST(NvmeDecode, SanitizeLogFields) {
  std::vector<uint8_t> d(512, 0);
  d[0] = 0x00; d[1] = 0x80;               // SPROG 0x8000 = 50 %
  d[2] = 0x02 | 0x00; d[3] = 0x01;        // SSTAT in progress, global data erased (bit 8)
  d[4] = 0x04;                            // SCDW10: crypto erase
  d[16] = 30;                             // ETCE 30 s
  for (int i = 8; i < 12; ++i) d[i] = 0xFF;  // ETO: no estimate
  auto s = nvme::decode_sanitize_log(d);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->sprog, 0x8000);
  EXPECT_EQ(s->status(), nvme::SanitizeLog::InProgress);
  EXPECT_TRUE(s->global_data_erased());
  EXPECT_EQ(s->scdw10, 4u);
  EXPECT_EQ(s->etce, 30u);
  EXPECT_EQ(s->eto, nvme::kNoEstimate);
}

TEST(NvmeDecode, NamespaceListStopsAtZero) {
  std::vector<uint8_t> d(4096, 0);
  d[0] = 1; d[4] = 2; d[8] = 7;
  EXPECT_EQ(nvme::decode_ns_list(d), (std::vector<uint32_t>{1, 2, 7}));
}

TEST(NvmeStatusText, NamesTheCodesAPurgeMeets) {
  EXPECT_EQ(nvme_status_text(0, 0x01, true), "NVMe status SCT 0x0 SC 0x01 (Invalid Command Opcode) DNR");
  EXPECT_NE(nvme_status_text(0, 0x1C).find("Sanitize Failed"), std::string::npos);
  EXPECT_NE(nvme_status_text(1, 0x0A).find("Invalid Format"), std::string::npos);
}

}  // namespace
}  // namespace pts::device
