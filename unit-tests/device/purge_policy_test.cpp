// Purge method choice for every capability combination; names; unsupported requests.
#include <gtest/gtest.h>

#include "device/purge_policy.h"

namespace pts::device {
namespace {

using model::PurgeMethod;

model::DeviceIdentity nvme_with(unsigned bits) {
  model::DeviceIdentity id;
  id.kind = model::TargetKind::NvmeNamespace;
  id.path = "/dev/nvme0n1";
  auto& c = id.capabilities;
  c.format_nvm = bits & 1;
  c.crypto_erase_in_format = bits & 2;
  c.sanitize_crypto_erase = bits & 4;
  c.sanitize_block_erase = bits & 8;
  c.discard = bits & 16;
  c.sanitize_overwrite = bits & 32;
  id.subsystem_namespaces = 1;  // this namespace is the whole NVM subsystem
  id.subsystem_controllers = 1;
  return id;
}

TEST(PurgePolicy, AutoNeverPicksSanitizeWhenTheSubsystemHoldsMore) {
  // (namespaces, controllers): more than one of either, or not known
  for (auto [ns, ctrls] : {std::pair{2u, 1u}, std::pair{1u, 2u}, std::pair{0u, 1u}, std::pair{1u, 0u}}) {
    for (unsigned bits = 0; bits < 64; ++bits) {
      auto id = nvme_with(bits);
      id.subsystem_namespaces = ns;
      id.subsystem_controllers = ctrls;
      const auto& c = id.capabilities;
      SCOPED_TRACE("bits " + std::to_string(bits) + " namespaces " + std::to_string(ns) + " controllers " +
                   std::to_string(ctrls));
      PurgeMethod want = PurgeMethod::None;
      if (c.format_nvm && c.crypto_erase_in_format) want = PurgeMethod::FormatCrypto;
      else if (c.format_nvm) want = PurgeMethod::FormatUser;
      else if (c.discard) want = PurgeMethod::Discard;
      auto choice = choose_purge_method(id, std::nullopt);
      if (want == PurgeMethod::None) {
        ASSERT_FALSE(choice.ok());
        if (c.sanitize_crypto_erase || c.sanitize_block_erase) {
          EXPECT_NE(choice.error().message().find("ask for it with --purge sanitize-"), std::string::npos);
        }
        continue;
      }
      ASSERT_TRUE(choice.ok());
      EXPECT_EQ(choice->method, want);
      if (c.sanitize_crypto_erase || c.sanitize_block_erase) {
        EXPECT_NE(choice->reason.find("Sanitize not chosen automatically"), std::string::npos) << choice->reason;
      }
      if (c.sanitize_crypto_erase) {  // asked for by name it is allowed
        auto asked = choose_purge_method(id, PurgeMethod::SanitizeCrypto);
        ASSERT_TRUE(asked.ok());
        EXPECT_FALSE(asked->automatic);
      }
    }
  }
}

TEST(PurgePolicy, EveryNvmeCapabilityCombination) {
  for (unsigned bits = 0; bits < 64; ++bits) {
    auto id = nvme_with(bits);
    const auto& c = id.capabilities;
    PurgeMethod want = PurgeMethod::None;
    if (c.sanitize_crypto_erase) want = PurgeMethod::SanitizeCrypto;
    else if (c.sanitize_block_erase) want = PurgeMethod::SanitizeBlock;
    else if (c.format_nvm && c.crypto_erase_in_format) want = PurgeMethod::FormatCrypto;
    else if (c.format_nvm) want = PurgeMethod::FormatUser;
    else if (c.discard) want = PurgeMethod::Discard;
    auto choice = choose_purge_method(id, std::nullopt);
    SCOPED_TRACE("capability bits " + std::to_string(bits));
    if (want == PurgeMethod::None) {
      ASSERT_FALSE(choice.ok());
      EXPECT_EQ(choice.error().kind, core::ErrorKind::Device);
      continue;
    }
    ASSERT_TRUE(choice.ok());
    EXPECT_EQ(choice->method, want);
    EXPECT_TRUE(choice->automatic);
    EXPECT_FALSE(choice->reason.empty());
    EXPECT_EQ(is_snia_purge(choice->method), want != PurgeMethod::Discard);
    // Every supported method is accepted when asked for; nothing else is.
    auto supported = supported_purge_methods(id);
    EXPECT_EQ(supported.back(), PurgeMethod::None);
    EXPECT_EQ(supported.front(), want);
    for (auto m : {PurgeMethod::SanitizeCrypto, PurgeMethod::SanitizeBlock, PurgeMethod::FormatCrypto,
                   PurgeMethod::FormatUser, PurgeMethod::Discard, PurgeMethod::Recreate, PurgeMethod::None}) {
      bool listed = std::find(supported.begin(), supported.end(), m) != supported.end();
      auto asked = choose_purge_method(id, m);
      EXPECT_EQ(asked.ok(), listed) << purge_method_name(m);
      if (!asked.ok()) EXPECT_EQ(asked.error().kind, core::ErrorKind::BadInput);
      else EXPECT_FALSE(asked->automatic);
    }
  }
}

TEST(PurgePolicy, UnsupportedRequestNamesTheSupportedOnes) {
  auto id = nvme_with(1 | 16);  // Format NVM, discard; no sanitize, no crypto erase (like QEMU)
  auto r = choose_purge_method(id, PurgeMethod::SanitizeCrypto);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::BadInput);
  EXPECT_EQ(r.error().message(),
            "--purge sanitize-crypto: not supported by /dev/nvme0n1 (the controller does not advertise "
            "Sanitize crypto erase); supported: format-user, discard, none");
  auto f = choose_purge_method(id, PurgeMethod::FormatCrypto);
  EXPECT_NE(f.error().message().find("does not support crypto erase in Format NVM"), std::string::npos);
}

TEST(PurgePolicy, BlockDevicesAndFiles) {
  model::DeviceIdentity block;
  block.kind = model::TargetKind::BlockDevice;
  block.capabilities.discard = true;
  block.capabilities.format_nvm = true;  // ignored: not NVMe
  EXPECT_EQ(choose_purge_method(block, std::nullopt)->method, PurgeMethod::Discard);
  EXPECT_FALSE(choose_purge_method(block, PurgeMethod::FormatUser).ok());
  block.capabilities.discard = false;
  EXPECT_EQ(choose_purge_method(block, std::nullopt).error().kind, core::ErrorKind::Device);
  EXPECT_EQ(choose_purge_method(block, PurgeMethod::None)->method, PurgeMethod::None);

  model::DeviceIdentity file;
  file.kind = model::TargetKind::File;
  EXPECT_EQ(choose_purge_method(file, std::nullopt)->method, PurgeMethod::Recreate);
  EXPECT_EQ(supported_purge_methods(file), (std::vector<PurgeMethod>{PurgeMethod::Recreate, PurgeMethod::None}));
  EXPECT_FALSE(choose_purge_method(file, PurgeMethod::Discard).ok());
  EXPECT_FALSE(is_snia_purge(PurgeMethod::Recreate));
  EXPECT_FALSE(is_snia_purge(PurgeMethod::None));
}

TEST(PurgePolicy, Names) {
  for (auto m : {PurgeMethod::SanitizeCrypto, PurgeMethod::SanitizeBlock, PurgeMethod::FormatCrypto,
                 PurgeMethod::FormatUser, PurgeMethod::Discard, PurgeMethod::Recreate, PurgeMethod::None}) {
    auto parsed = parse_purge_method(purge_method_name(m));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, m);
  }
  auto a = parse_purge_method("auto");
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(a->has_value());
  auto bad = parse_purge_method("format");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, core::ErrorKind::BadInput);
  EXPECT_NE(bad.error().message().find("valid: auto, sanitize-crypto"), std::string::npos);
}

}  // namespace
}  // namespace pts::device
