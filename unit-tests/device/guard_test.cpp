// The destructive-target guard: parsing of mountinfo / swaps, the decision for every reason,
// on-disk partition tables, and sysfs collection from a fake /sys + /proc tree.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "device/guard.h"

namespace pts::device {
namespace {

namespace fs = std::filesystem;

TEST(Guard, ParsesMountinfo) {
  const std::string text =
      "22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw\n"
      "40 22 7:3 / /mnt/with\\040space rw shared:20 master:3 - xfs /dev/loop3 rw\n"
      "41 22 0:45 / /proc rw - proc proc rw\n"
      "garbage line\n";
  auto m = parse_mountinfo(text);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].dev, (DevNum{259, 2}));
  EXPECT_EQ(m[0].mount_point, "/");
  EXPECT_EQ(m[0].source, "/dev/nvme0n1p2");
  EXPECT_EQ(m[1].mount_point, "/mnt/with space");
  EXPECT_EQ(m[1].fstype, "xfs");
  EXPECT_EQ(m[1].dev, (DevNum{7, 3}));
}

TEST(Guard, ParsesSwaps) {
  auto s = parse_swaps("Filename\tType\tSize\tUsed\tPriority\n/dev/dm-1 partition 1 0 -2\n/swap\\040file file 1 0 -3\n");
  EXPECT_EQ(s, (std::vector<std::string>{"/dev/dm-1", "/swap file"}));
  EXPECT_TRUE(parse_swaps("Filename\tType\tSize\tUsed\tPriority\n").empty());
}

BlockUsage clean() {
  BlockUsage u;
  u.name = "sdb";
  u.dev = {8, 16};
  u.root_dev = {259, 2};
  u.mounts = parse_mountinfo("22 1 259:2 / / rw - ext4 /dev/nvme0n1p2 rw\n");
  return u;
}

TEST(Guard, CleanDeviceIsAllowed) { EXPECT_TRUE(evaluate_guard(clean()).ok()); }

TEST(Guard, EveryReasonIsNamed) {
  auto u = clean();
  u.partitions = {"sdb1"};
  u.partition_devs = {{8, 17}};
  u.mounts.push_back(parse_mountinfo("50 22 8:17 / /data rw - ext4 /dev/sdb1 rw\n")[0]);
  u.swap_devs = {{8, 17}};
  u.holders = {"dm-0 (on sdb1)"};
  auto st = evaluate_guard(u);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, core::ErrorKind::Refused);
  EXPECT_EQ(st.error().message(),
            "refused: /dev/sdb is in use: it has partitions (sdb1); it is mounted: /dev/sdb1 on /data (ext4); "
            "it is active swap; it is held by dm-0 (on sdb1) (md / device-mapper / LVM); nothing was written");
}

TEST(Guard, MountedWholeDevice) {
  auto u = clean();
  u.mounts.push_back(parse_mountinfo("50 22 8:16 / /mnt rw - ext4 /dev/sdb rw\n")[0]);
  EXPECT_NE(evaluate_guard(u).error().message().find("it is mounted: /dev/sdb on /mnt"), std::string::npos);
}

TEST(Guard, MountMatchedBySourceWhenDevNumIsAnonymous) {  // btrfs reports 0:NN
  auto u = clean();
  u.mounts.push_back(parse_mountinfo("50 22 0:52 / /srv rw - btrfs /dev/sdb rw\n")[0]);
  EXPECT_FALSE(evaluate_guard(u).ok());
}

TEST(Guard, RootFileSystem) {
  auto u = clean();
  u.root_dev = {8, 16};
  EXPECT_NE(evaluate_guard(u).error().message().find("backs the root file system"), std::string::npos);
  auto v = clean();
  v.mounts.push_back(parse_mountinfo("50 22 0:30 / / rw - btrfs /dev/sdb rw\n")[0]);
  EXPECT_NE(evaluate_guard(v).error().message().find("backs the root file system"), std::string::npos);
}

TEST(Guard, DetectsPartitionTablesOnDisk) {
  std::vector<uint8_t> head(kPartitionProbeBytes, 0);
  EXPECT_EQ(detect_partition_table(head), "");
  auto gpt = head;
  std::memcpy(gpt.data() + 512, "EFI PART", 8);
  EXPECT_EQ(detect_partition_table(gpt), "GPT");
  auto gpt4k = head;
  std::memcpy(gpt4k.data() + 4096, "EFI PART", 8);
  EXPECT_EQ(detect_partition_table(gpt4k), "GPT");
  auto mbr = head;
  mbr[510] = 0x55;
  mbr[511] = 0xAA;
  EXPECT_EQ(detect_partition_table(mbr), "");  // signature without entries
  mbr[446 + 4] = 0x83;                         // Linux, 2048 sectors
  mbr[446 + 12] = 0x00;
  mbr[446 + 13] = 0x08;
  EXPECT_EQ(detect_partition_table(mbr), "MBR");
  auto fat = mbr;
  fat[446] = 0x4E;  // boot code where a boot flag would be: a file system boot sector
  EXPECT_EQ(detect_partition_table(fat), "");
}

struct FakeTree : ::testing::Test {
  fs::path root = fs::temp_directory_path() / ("ptsuite-guard-" + std::to_string(::getpid()));
  void SetUp() override { fs::remove_all(root); }
  void TearDown() override { fs::remove_all(root); }
  void file(const std::string& rel, const std::string& text) {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text;
  }
};

TEST_F(FakeTree, CollectsPartitionsHoldersMountsFromSysfs) {
  file("sys/class/block/sdx/dev", "8:32\n");
  fs::create_directories(root / "sys/class/block/sdx/holders");
  file("sys/class/block/sdx/sdx1/dev", "8:33\n");
  file("sys/class/block/sdx/sdx1/partition", "1\n");
  file("sys/class/block/sdx/sdx1/holders/dm-3", "");
  fs::create_directories(root / "sys/class/block/sdx/queue");  // not a partition
  file("proc/self/mountinfo", "22 1 259:2 / / rw - ext4 /dev/nvme0n1p2 rw\n60 22 8:33 / /x rw - ext4 /dev/sdx1 rw\n");
  file("proc/swaps", "Filename Type Size Used Priority\n");
  auto u = collect_block_usage("sdx", root.string());
  ASSERT_TRUE(u.ok()) << u.error().message();
  EXPECT_EQ(u->dev, (DevNum{8, 32}));
  EXPECT_EQ(u->partitions, (std::vector<std::string>{"sdx1"}));
  EXPECT_EQ(u->partition_devs, (std::vector<DevNum>{{8, 33}}));
  EXPECT_EQ(u->holders, (std::vector<std::string>{"dm-3 (on sdx1)"}));
  EXPECT_EQ(u->mounts.size(), 2u);
  auto st = guard_block_device("sdx", root.string());
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message().find("/dev/sdx1 on /x"), std::string::npos);
}

TEST_F(FakeTree, UnknownBlockDeviceIsBadInput) {
  auto u = collect_block_usage("nope", root.string());
  ASSERT_FALSE(u.ok());
  EXPECT_EQ(u.error().kind, core::ErrorKind::BadInput);
}

TEST_F(FakeTree, SwapFileIsRefused) {
  file("swapfile", "x");
  file("other", "y");
  file("proc/swaps", "Filename Type Size Used Priority\n/swapfile file 4 0 -2\n");
  auto st = guard_file((root / "swapfile").string(), root.string());
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, core::ErrorKind::Refused);
  EXPECT_TRUE(guard_file((root / "other").string(), root.string()).ok());
}

}  // namespace
}  // namespace pts::device
