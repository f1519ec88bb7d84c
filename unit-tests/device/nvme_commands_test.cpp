// Command encoding: the exact dwords ptsuite sends (they are recorded in the PurgeRecord).
#include <gtest/gtest.h>

#include "device/nvme_commands.h"

namespace pts::device::nvme {
namespace {

TEST(NvmeCommands, Identify) {
  auto c = identify_controller();
  EXPECT_EQ(c.opcode, 0x06);
  EXPECT_EQ(c.cdw10, 1u);
  EXPECT_EQ(c.data_bytes, 4096u);
  EXPECT_EQ(c.direction, DataDirection::FromDevice);
  auto n = identify_namespace(3);
  EXPECT_EQ(n.nsid, 3u);
  EXPECT_EQ(n.cdw10, 0u);
  EXPECT_EQ(identify_active_namespaces().cdw10, 2u);
}

TEST(NvmeCommands, GetLogPageNumd) {
  auto s = get_smart_log();
  EXPECT_EQ(s.opcode, 0x02);
  EXPECT_EQ(s.nsid, 0xFFFFFFFFu);
  EXPECT_EQ(s.cdw10, 0x02u | (127u << 16));  // 512 bytes = 128 dwords, zero-based
  EXPECT_EQ(s.cdw11, 0u);
  auto z = get_sanitize_log();
  EXPECT_EQ(z.cdw10 & 0xFF, 0x81u);
  EXPECT_EQ(get_log_page(0x05, 0, 1u << 20).cdw11, ((1u << 18) - 1) >> 16);
}

TEST(NvmeCommands, FormatKeepsLayoutAndSetsSes) {
  FormatLayout l{4, true, 1, true};
  auto c = format_nvm(1, l, Ses::UserDataErase, 1000);
  EXPECT_EQ(c.opcode, 0x80);
  EXPECT_EQ(c.nsid, 1u);
  EXPECT_EQ(c.cdw10 & 0xF, 4u);            // LBAF
  EXPECT_EQ((c.cdw10 >> 4) & 1, 1u);       // MSET
  EXPECT_EQ((c.cdw10 >> 5) & 7, 1u);       // PI
  EXPECT_EQ((c.cdw10 >> 8) & 1, 1u);       // PIL
  EXPECT_EQ((c.cdw10 >> 9) & 7, 1u);       // SES = user data erase
  EXPECT_EQ(c.timeout_ms, 1000u);
  EXPECT_EQ((format_nvm(1, {}, Ses::CryptographicErase, 0).cdw10 >> 9) & 7, 2u);
  EXPECT_EQ(format_nvm(1, {17}, Ses::UserDataErase, 0).cdw10 & 0x300F, 0x1001u);  // LBAF 17: upper bits 13:12
}

TEST(NvmeCommands, Sanitize) {
  EXPECT_EQ(sanitize(Sanact::CryptoErase).cdw10, 4u);
  EXPECT_EQ(sanitize(Sanact::BlockErase).cdw10, 2u);
  EXPECT_EQ(sanitize(Sanact::BlockErase, true).cdw10, 2u | (1u << 9));
  EXPECT_EQ(sanitize(Sanact::CryptoErase).opcode, 0x84);
  EXPECT_EQ(sanitize(Sanact::CryptoErase).nsid, 0u);
}

TEST(NvmeCommands, VolatileWriteCacheFeature) {
  EXPECT_EQ(get_volatile_write_cache().opcode, 0x0A);
  EXPECT_EQ(get_volatile_write_cache().cdw10, 0x06u);
  const auto cur = FeatureSave::CurrentOnly;
  EXPECT_EQ(set_volatile_write_cache(true, cur).opcode, 0x09);
  EXPECT_EQ(set_volatile_write_cache(true, cur).cdw11, 1u);
  EXPECT_EQ(set_volatile_write_cache(false, cur).cdw11, 0u);
  EXPECT_EQ(set_volatile_write_cache(false, cur).cdw10, 0x06u);  // FID 06h, SV (bit 31) clear
  EXPECT_EQ(set_volatile_write_cache(false, FeatureSave::SaveAcrossPowerCycles).cdw10, 0x06u | (1u << 31));
}

}  // namespace
}  // namespace pts::device::nvme
