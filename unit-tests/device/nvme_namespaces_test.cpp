// unit-tests/device/nvme_namespaces_test.cpp — whether a controller can create and delete
// namespaces, over the scripted transport with QEMU 7.2's stored Identify Controller (OACS 0x10a:
// bit 3 set; LPA 0x7: it keeps the Commands Supported and Effects log). QEMU lists no Namespace
// Management (0Dh) in that log and answers it with Invalid Command Opcode, as the VM test
// (unit-tests/e2e/vm/guest-namespaces.sh) shows on the real controller: the list says so, and
// --create is a Device error sent before any command that changes the controller.
#include "nvme_target_fixture.h"

namespace pts::device {
namespace {

/// A Commands Supported and Effects log with CSUPP set for `admin` opcodes.
fakes::FakeReply effects_log(std::initializer_list<uint8_t> admin) {
  std::vector<uint8_t> d(nvme::kCommandsEffectsBytes, 0);
  for (uint8_t op : admin) d[size_t{op} * 4] = 1;
  return data(d);
}

// QEMU 7.2's admin opcodes as its controller lists them (read in the guest with nvme get-log).
const std::initializer_list<uint8_t> kQemuAdmin = {0x00, 0x01, 0x02, 0x04, 0x05, 0x06, 0x08,
                                                   0x09, 0x0a, 0x0c, 0x15, 0x1c, 0x7c, 0x80};
constexpr uint32_t kEffectsCdw10 = nvme::kLidCommandsEffects | (1023u << 16);

struct NamespacesTest : NvmeTargetTest {
  size_t changing_commands() const {
    return t->sent_with(nvme::kOpNamespaceManagement).size() + t->sent_with(nvme::kOpNamespaceAttachment).size();
  }
};

TEST_F(NamespacesTest, QemusControllerListsNoNamespaceManagement) {
  open();
  t->on(nvme::kOpGetLogPage, 0, kEffectsCdw10, effects_log(kQemuAdmin));
  auto inv = dev->namespaces();
  ASSERT_TRUE(inv.ok()) << inv.error().message();
  EXPECT_FALSE(inv->management);
  EXPECT_EQ(inv->management_missing, "its Identify Controller OACS bit 3 is set, but its Commands Supported and "
                                     "Effects log (LID 05h) does not list Namespace Management (0Dh)");
  ASSERT_EQ(inv->namespaces.size(), 1u);  // still listed through the allocated list (CNS 10h)

  auto made = dev->recreate_namespaces(2, 1 << 20);
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.error().kind, core::ErrorKind::Device);  // exit 4
  EXPECT_EQ(made.error().message(),
            "the controller does not support Namespace Management (its Identify Controller OACS bit 3 is set, but "
            "its Commands Supported and Effects log (LID 05h) does not list Namespace Management (0Dh)): it cannot "
            "delete or create namespaces; nothing was changed");
  EXPECT_EQ(changing_commands(), 0u);
}

TEST_F(NamespacesTest, BothCommandsListedIsManagement) {
  open();
  std::vector<uint8_t> all(kQemuAdmin);
  all.push_back(nvme::kOpNamespaceManagement);
  fakes::FakeReply log = effects_log({});
  for (uint8_t op : all) log.data[size_t{op} * 4] = 1;
  t->on(nvme::kOpGetLogPage, 0, kEffectsCdw10, log);
  auto inv = dev->namespaces();
  ASSERT_TRUE(inv.ok());
  EXPECT_TRUE(inv->management);
  EXPECT_EQ(inv->management_missing, "");
}

TEST_F(NamespacesTest, WithoutTheLogOacsDecidesAndAnInvalidOpcodeOnTheFirstDeleteSaysWhy) {
  ctrl[261] = 0;  // LPA: no Commands Supported and Effects log
  open();
  fakes::FakeReply invalid;
  invalid.sc = nvme::kScInvalidOpcode;
  invalid.dnr = true;
  t->on(nvme::kOpNamespaceManagement, std::nullopt, std::nullopt, invalid);
  EXPECT_TRUE(dev->namespaces()->management);
  auto made = dev->recreate_namespaces(2, 1 << 20);
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.error().kind, core::ErrorKind::Device);
  EXPECT_NE(made.error().message().find("the controller does not support Namespace Management: it answered the "
                                        "first delete (namespace 1) with"),
            std::string::npos)
      << made.error().message();
  EXPECT_NE(made.error().message().find("nothing was changed"), std::string::npos);
  for (const auto& c : t->sent_with(nvme::kOpGetLogPage)) EXPECT_NE(c.cdw10, kEffectsCdw10);  // LPA bit 1 clear
  EXPECT_EQ(t->sent_with(nvme::kOpNamespaceManagement).size(), 1u);  // the one refused delete, nothing after
  EXPECT_TRUE(t->sent_with(nvme::kOpNamespaceAttachment).empty());
}

TEST_F(NamespacesTest, OacsBit3ClearIsNoManagement) {
  put_le(ctrl, 256, 0x0002, 2);  // OACS: Format NVM only
  open();
  auto inv = dev->namespaces();
  ASSERT_TRUE(inv.ok());
  EXPECT_FALSE(inv->management);
  EXPECT_EQ(inv->management_missing, "its Identify Controller OACS bit 3 is clear");
  auto made = dev->recreate_namespaces(2, 1 << 20);
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.error().kind, core::ErrorKind::Device);
  EXPECT_EQ(changing_commands(), 0u);
}

TEST_F(NamespacesTest, ANamespaceInUseIsListedWithWhy) {
  open();
  second_namespace();
  t->on(nvme::kOpIdentify, 2, nvme::kCnsNamespace, data(ns));
  refuse_name = "nvme3n5";
  auto inv = dev->namespaces();
  ASSERT_TRUE(inv.ok()) << inv.error().message();
  ASSERT_EQ(inv->namespaces.size(), 2u);
  EXPECT_FALSE(inv->namespaces[0].in_use);
  EXPECT_EQ(inv->namespaces[1].block, "nvme3n5");
  EXPECT_TRUE(inv->namespaces[1].in_use);
  EXPECT_EQ(inv->namespaces[1].in_use_why, "nvme3n5 is mounted");  // the guard's words, not a refusal
}

}  // namespace
}  // namespace pts::device
