// Operator consent (--confirm or the typed value) against what confirms a target (serial,
// WWID, by-id name, backing file, a file's own path; never a serial ptsuite made up) and the
// identity re-check (every identity field, older records' empty fields skipped).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "device/confirm.h"

namespace pts::device {
namespace {

namespace fs = std::filesystem;

model::DeviceIdentity drive() {
  model::DeviceIdentity id;
  id.kind = model::TargetKind::NvmeNamespace;
  id.path = "/dev/nvme0n1";
  id.model = "M";
  id.serial = "S123";
  id.firmware = "F1";
  id.namespace_id = 1;
  id.wwid = "eui.0011223344556677";
  id.eui64 = "0011223344556677";
  id.capacity_bytes = 1 << 30;
  id.lba_size = 512;
  return id;
}

ConfirmRules rules_of(const model::DeviceIdentity& id) { return confirm_rules(id, std::nullopt, std::nullopt, "", ""); }

TEST(Confirm, MatchingSerialOrWwid) {
  auto c = check_confirmation(drive(), rules_of(drive()), std::string("S123"));
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->method, "serial");
  EXPECT_EQ(c->value, "S123");
  auto w = check_confirmation(drive(), rules_of(drive()), std::string("eui.0011223344556677"));
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->method, "wwid");
}

TEST(Confirm, WrongSerialIsRefused) {
  auto st = check_confirmation(drive(), rules_of(drive()), std::string("S124"));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, core::ErrorKind::Refused);
  EXPECT_NE(st.error().message().find("does not confirm /dev/nvme0n1: it takes its serial S123"), std::string::npos)
      << st.error().message();
}

TEST(Confirm, MissingWithoutTerminalIsRefused) {
  auto st = check_confirmation(drive(), rules_of(drive()), std::nullopt, nullptr);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, core::ErrorKind::Refused);
  EXPECT_NE(st.error().message().find("pass --confirm with its serial S123"), std::string::npos);
}

TEST(Confirm, AskedInteractively) {
  std::string asked;
  auto typed = [&](std::optional<std::string> answer) {
    return [&asked, answer](const std::string& q) {
      asked = q;
      return answer;
    };
  };
  EXPECT_TRUE(check_confirmation(drive(), rules_of(drive()), std::nullopt, typed("S123")).ok());
  EXPECT_NE(asked.find("/dev/nvme0n1"), std::string::npos);
  EXPECT_FALSE(check_confirmation(drive(), rules_of(drive()), std::nullopt, typed("nope")).ok());
  EXPECT_FALSE(check_confirmation(drive(), rules_of(drive()), std::nullopt, typed(std::nullopt)).ok());  // EOF
  asked.clear();
  EXPECT_TRUE(check_confirmation(drive(), rules_of(drive()), std::string("S123"), typed("x")).ok());  // --confirm wins
  EXPECT_TRUE(asked.empty());
}

TEST(Confirm, AMadeUpSerialIsNeverAConfirmation) {
  for (const char* made_up : {"BLOCK-7:3", "LOOP-2049:1234", "FILE-2049:99", ""}) {
    auto id = drive();
    id.kind = model::TargetKind::BlockDevice;
    id.serial = made_up;
    id.serial_made_up = true;
    id.wwid.clear();
    auto st = check_confirmation(id, rules_of(id), std::string(made_up));
    ASSERT_FALSE(st.ok()) << made_up;
    EXPECT_EQ(st.error().kind, core::ErrorKind::Refused);
    EXPECT_NE(st.error().message().find("it takes nothing"), std::string::npos) << st.error().message();
  }
  auto id = drive();
  id.serial = "BLOCK-7:3";
  id.serial_made_up = true;
  auto st = check_confirmation(id, rules_of(id), std::string("BLOCK-7:3"));
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message().find("is a name ptsuite made up"), std::string::npos);
  EXPECT_TRUE(check_confirmation(id, rules_of(id), id.wwid).ok());  // the WWID confirms it
}

struct ConfirmFiles : ::testing::Test {
  fs::path dir = fs::temp_directory_path() / ("ptsuite-confirm-" + std::to_string(::getpid()));
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }
  FileKey key(const fs::path& p) {
    struct stat st {};
    EXPECT_EQ(::stat(p.c_str(), &st), 0);
    return {st.st_dev, st.st_ino};
  }
};

TEST_F(ConfirmFiles, BackingFileOrFilePathByInodeNotByString) {
  std::ofstream(dir / "backing.img") << "x";
  std::ofstream(dir / "other.img") << "y";
  fs::create_hard_link(dir / "backing.img", dir / "alias.img");
  auto id = drive();
  id.kind = model::TargetKind::BlockDevice;
  id.serial = "LOOP-1:2";
  id.serial_made_up = true;
  id.wwid.clear();
  auto rules = confirm_rules(id, std::nullopt, key(dir / "backing.img"), "backing-file", (dir / "backing.img").string());
  auto c = check_confirmation(id, rules, (dir / "alias.img").string());  // another name, same inode
  ASSERT_TRUE(c.ok()) << c.error().message();
  EXPECT_EQ(c->method, "backing-file");
  EXPECT_FALSE(check_confirmation(id, rules, (dir / "other.img").string()).ok());
  EXPECT_FALSE(check_confirmation(id, rules, (dir / "missing.img").string()).ok());
  EXPECT_EQ(preferred_confirmation(rules), (dir / "backing.img").string());
  EXPECT_NE(accepted_confirmations(rules).find("the path of its backing file"), std::string::npos);
}

TEST_F(ConfirmFiles, ByIdNameResolvingToTheDevice) {
  // a by-id tree whose entry is a block node with the device's number: /dev/loop0 is 7:0
  struct stat st {};
  if (::stat("/dev/loop0", &st) != 0 || !S_ISBLK(st.st_mode)) GTEST_SKIP() << "no /dev/loop0 here";
  fs::create_directories(dir / "by-id");
  fs::create_symlink("/dev/loop0", dir / "by-id" / "wwn-0xtest");
  auto id = drive();
  id.serial = "BLOCK-7:0";
  id.serial_made_up = true;
  id.wwid.clear();
  auto rules = confirm_rules(id, devnum_of(st.st_rdev), std::nullopt, "", "");
  const std::string by_id = (dir / "by-id").string();
  auto c = check_confirmation(id, rules, std::string("/dev/disk/by-id/wwn-0xtest"), nullptr, by_id);
  ASSERT_TRUE(c.ok()) << c.error().message();
  EXPECT_EQ(c->method, "by-id");
  EXPECT_TRUE(check_confirmation(id, rules, std::string("wwn-0xtest"), nullptr, by_id).ok());
  auto wrong = confirm_rules(id, DevNum{7, 250}, std::nullopt, "", "");
  EXPECT_FALSE(check_confirmation(id, wrong, std::string("wwn-0xtest"), nullptr, by_id).ok());
  EXPECT_EQ(preferred_confirmation(rules, by_id), "/dev/disk/by-id/wwn-0xtest");
}

TEST(Confirm, IdentityChangeInAnyField) {
  auto a = drive(), b = drive();
  EXPECT_TRUE(check_identity_unchanged(a, b).ok());
  b.health.temperature_c = 70;  // health may change
  EXPECT_TRUE(check_identity_unchanged(a, b).ok());
  using Edit = std::function<void(model::DeviceIdentity&)>;
  const std::vector<std::pair<std::string, Edit>> edits = {
      {"firmware", [](auto& d) { d.firmware = "F2"; }},
      {"serial", [](auto& d) { d.serial = "OTHER"; }},
      {"model", [](auto& d) { d.model = "N"; }},
      {"NSID", [](auto& d) { d.namespace_id = 2; }},
      {"EUI-64", [](auto& d) { d.eui64 = "ffff"; }},
      {"WWID", [](auto& d) { d.wwid = "eui.ffff"; }},
      {"capacity", [](auto& d) { d.capacity_bytes = 2; }},
      {"LBA size", [](auto& d) { d.lba_size = 4096; }},
      {"LBA format", [](auto& d) { d.lba_format_index = 3; }},
  };
  for (const auto& [field, edit] : edits) {
    auto now = drive();
    edit(now);
    auto st = check_identity_unchanged(a, now);
    ASSERT_FALSE(st.ok()) << field;
    EXPECT_EQ(st.error().kind, core::ErrorKind::Refused);
    EXPECT_NE(st.error().message().find(field), std::string::npos) << st.error().message();
    EXPECT_NE(st.error().message().find("identity changed"), std::string::npos);
  }
  auto old_record = drive();  // written before NGUID/EUI-64/WWID were recorded
  old_record.wwid.clear();
  old_record.eui64.clear();
  EXPECT_TRUE(check_identity_unchanged(old_record, drive()).ok());
}

}  // namespace
}  // namespace pts::device
