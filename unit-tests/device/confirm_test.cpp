// Operator consent (--confirm SERIAL or the typed serial) and the identity re-check.
#include <gtest/gtest.h>

#include "device/confirm.h"

namespace pts::device {
namespace {

model::DeviceIdentity drive() {
  model::DeviceIdentity id;
  id.kind = model::TargetKind::NvmeNamespace;
  id.path = "/dev/nvme0n1";
  id.model = "M";
  id.serial = "S123";
  id.firmware = "F1";
  return id;
}

TEST(Confirm, MatchingSerial) { EXPECT_TRUE(check_confirmation(drive(), std::string("S123")).ok()); }

TEST(Confirm, WrongSerialIsRefused) {
  auto st = check_confirmation(drive(), std::string("S124"));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, core::ErrorKind::Refused);
  EXPECT_NE(st.error().message().find("does not match"), std::string::npos);
}

TEST(Confirm, MissingWithoutTerminalIsRefused) {
  auto st = check_confirmation(drive(), std::nullopt, nullptr);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, core::ErrorKind::Refused);
  EXPECT_NE(st.error().message().find("--confirm SERIAL"), std::string::npos);
}

TEST(Confirm, AskedInteractively) {
  std::string asked;
  auto typed = [&](std::optional<std::string> answer) {
    return [&asked, answer](const std::string& q) {
      asked = q;
      return answer;
    };
  };
  EXPECT_TRUE(check_confirmation(drive(), std::nullopt, typed("S123")).ok());
  EXPECT_NE(asked.find("/dev/nvme0n1"), std::string::npos);
  EXPECT_FALSE(check_confirmation(drive(), std::nullopt, typed("nope")).ok());
  EXPECT_FALSE(check_confirmation(drive(), std::nullopt, typed(std::nullopt)).ok());  // end of input
  asked.clear();
  EXPECT_TRUE(check_confirmation(drive(), std::string("S123"), typed("x")).ok());  // --confirm wins
  EXPECT_TRUE(asked.empty());
}

TEST(Confirm, OnlyFilesPtsuiteCreatedNeedNoConfirmation) {
  auto file = drive();
  file.kind = model::TargetKind::File;
  EXPECT_FALSE(confirmation_required(file, true));
  EXPECT_TRUE(confirmation_required(file, false));
  EXPECT_TRUE(confirmation_required(drive(), true));
}

TEST(Confirm, IdentityChange) {
  auto a = drive(), b = drive();
  EXPECT_TRUE(check_identity_unchanged(a, b).ok());
  b.health.temperature_c = 70;  // health may change
  EXPECT_TRUE(check_identity_unchanged(a, b).ok());
  b.firmware = "F2";
  auto st = check_identity_unchanged(a, b);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, core::ErrorKind::Device);
  b = drive();
  b.serial = "OTHER";
  EXPECT_FALSE(check_identity_unchanged(a, b).ok());
}

}  // namespace
}  // namespace pts::device
