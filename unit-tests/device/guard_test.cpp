// The destructive-target guard: parsing of mountinfo / swaps, the decision for every reason
// (with its evidence), on-disk partition tables, and the system view read from a fake /sys +
// /proc tree (every mount namespace once, btrfs members, loop backing files, what cannot be read).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include <sys/stat.h>

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
  return u;
}

SystemView quiet() {
  SystemView v;
  v.root_dev = {259, 2};
  v.mounts = parse_mountinfo("22 1 259:2 / / rw - ext4 /dev/nvme0n1p2 rw\n");
  return v;
}

MountEntry mount(const std::string& line, const std::string& note = "") {
  auto m = parse_mountinfo(line)[0];
  m.namespace_note = note;
  return m;
}

TEST(Guard, CleanDeviceIsAllowed) { EXPECT_TRUE(evaluate_guard(clean(), quiet()).ok()); }

TEST(Guard, EveryReasonIsNamed) {
  auto u = clean();
  u.partitions = {"sdb1"};
  u.partition_devs = {{8, 17}};
  u.holders = {"dm-0 (on sdb1)"};
  auto v = quiet();
  v.mounts.push_back(mount("50 22 8:17 / /data rw - ext4 /dev/sdb1 rw\n"));
  v.swaps.push_back({"/dev/sdb1", DevNum{8, 17}, std::nullopt});
  auto st = evaluate_guard(u, v);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, core::ErrorKind::Refused);
  EXPECT_EQ(st.error().message(),
            "refused: /dev/sdb is in use: it has partitions (sdb1); it is mounted: /dev/sdb1 on /data (ext4); "
            "it is active swap (/dev/sdb1); it is held by dm-0 (on sdb1) (md / device-mapper / LVM); nothing was "
            "written");
}

TEST(Guard, MountedWholeDevice) {
  auto v = quiet();
  v.mounts.push_back(mount("50 22 8:16 / /mnt rw - ext4 /dev/sdb rw\n"));
  EXPECT_NE(evaluate_guard(clean(), v).error().message().find("it is mounted: /dev/sdb on /mnt"), std::string::npos);
}

TEST(Guard, MountInAnotherNamespaceNamesIt) {
  auto v = quiet();
  v.mounts.push_back(mount("50 22 8:16 / /srv ro - xfs /dev/sdb ro\n", "in the mount namespace of pid 77 mnt:[9]"));
  auto st = evaluate_guard(clean(), v);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message().find("/dev/sdb on /srv (xfs) in the mount namespace of pid 77"), std::string::npos);
  EXPECT_EQ(st.error().message().find("root file system"), std::string::npos);
}

TEST(Guard, MountMatchedBySourceWhenDevNumIsAnonymous) {  // btrfs reports 0:NN
  auto v = quiet();
  v.mounts.push_back(mount("50 22 0:52 / /srv rw - btrfs /dev/sdb rw\n"));
  EXPECT_FALSE(evaluate_guard(clean(), v).ok());
}

TEST(Guard, RootFileSystem) {
  auto v = quiet();
  v.root_dev = {8, 16};
  EXPECT_NE(evaluate_guard(clean(), v).error().message().find("backs the root file system"), std::string::npos);
  auto w = quiet();
  w.mounts.push_back(mount("50 22 0:30 / / rw - btrfs /dev/sdb rw\n"));
  EXPECT_NE(evaluate_guard(clean(), w).error().message().find("backs the root file system"), std::string::npos);
}

TEST(Guard, PartitionGivenAsTarget) {
  auto u = clean();
  u.name = "sdb1";
  u.partition_of = "sdb";
  EXPECT_NE(evaluate_guard(u, quiet()).error().message().find("it is a partition of /dev/sdb"), std::string::npos);
}

TEST(Guard, BtrfsMultiDeviceMember) {
  auto v = quiet();
  v.btrfs.push_back({"5d2e-uuid", "sdb", {"sda2", "sdb"}});
  auto st = evaluate_guard(clean(), v);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message().find("/dev/sdb is a member of btrfs file system 5d2e-uuid (devices: sda2, sdb)"),
            std::string::npos);
}

TEST(Guard, BlockDeviceBackingALoopDevice) {
  auto v = quiet();
  LoopEntry l;
  l.name = "loop5";
  l.dev = {7, 5};
  l.backing_rdev = DevNum{8, 16};
  v.loops.push_back(l);
  EXPECT_NE(evaluate_guard(clean(), v).error().message().find("it backs loop device /dev/loop5"), std::string::npos);
}

TEST(Guard, UnreadableRefusesUnexaminedIsCoveredByTheExclusiveOpen) {
  auto v = quiet();
  v.unexamined.push_back("pid 1 (init): Permission denied");
  EXPECT_TRUE(evaluate_guard(clean(), v).ok());
  v.unreadable.push_back("/proc/swaps (Permission denied)");
  auto st = evaluate_guard(clean(), v);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message().find("the guard could not read /proc/swaps (Permission denied)"), std::string::npos);
  EXPECT_FALSE(evaluate_file_guard("/x", FileKey{1, 2}, v).ok());
}

TEST(Guard, FileThatBacksAMountedLoopDevice) {
  auto v = quiet();
  LoopEntry l;
  l.name = "loop3";
  l.dev = {7, 3};
  l.backing = FileKey{2049, 77};
  v.loops.push_back(l);
  v.mounts.push_back(mount("60 22 7:3 / /mnt/img rw - ext4 /dev/loop3 rw\n"));
  auto st = evaluate_file_guard("/data/disk.img", FileKey{2049, 77}, v);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message(), "refused: /data/disk.img is in use: it backs loop device /dev/loop3, which is "
                                  "mounted: /dev/loop3 on /mnt/img (ext4); nothing was written");
  EXPECT_TRUE(evaluate_file_guard("/data/other.img", FileKey{2049, 78}, v).ok());  // device + inode, not the path
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
  /// /proc with our namespace (mnt:[1]) and processes 10 (ours), 20 (another namespace),
  /// 30 (a third one, duplicated by 31): the minimum the system view needs.
  void proc(const std::string& own_mounts, const std::string& other_mounts = "") {
    file("proc/self/mountinfo", own_mounts);
    fs::create_directories(root / "proc/self/ns");
    fs::create_symlink("mnt:[1]", root / "proc/self/ns/mnt");
    auto pid = [&](const std::string& p, const std::string& ns, const std::string& mounts) {
      fs::create_directories(root / "proc" / p / "ns");
      fs::create_symlink(ns, root / "proc" / p / "ns/mnt");
      file("proc/" + p + "/mountinfo", mounts);
    };
    pid("10", "mnt:[1]", own_mounts);
    pid("20", "mnt:[2]", other_mounts);
    pid("30", "mnt:[3]", "");
    pid("31", "mnt:[3]", "99 1 8:32 / /dup rw - ext4 /dev/sdx rw\n");  // same namespace as 30: not read
    file("proc/swaps", "Filename Type Size Used Priority\n");
  }
};

TEST_F(FakeTree, CollectsPartitionsAndHoldersFromSysfs) {
  file("sys/class/block/sdx/dev", "8:32\n");
  fs::create_directories(root / "sys/class/block/sdx/holders");
  file("sys/class/block/sdx/sdx1/dev", "8:33\n");
  file("sys/class/block/sdx/sdx1/partition", "1\n");
  file("sys/class/block/sdx/sdx1/holders/dm-3", "");
  fs::create_directories(root / "sys/class/block/sdx/queue");  // not a partition
  proc("22 1 259:2 / / rw - ext4 /dev/nvme0n1p2 rw\n60 22 8:33 / /x rw - ext4 /dev/sdx1 rw\n");
  auto u = collect_block_usage("sdx", root.string());
  ASSERT_TRUE(u.ok()) << u.error().message();
  EXPECT_EQ(u->dev, (DevNum{8, 32}));
  EXPECT_EQ(u->partitions, (std::vector<std::string>{"sdx1"}));
  EXPECT_EQ(u->partition_devs, (std::vector<DevNum>{{8, 33}}));
  EXPECT_EQ(u->holders, (std::vector<std::string>{"dm-3 (on sdx1)"}));
  auto st = guard_block_device("sdx", root.string());
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message().find("/dev/sdx1 on /x"), std::string::npos);
}

TEST_F(FakeTree, ReadsEveryMountNamespaceOnce) {
  proc("22 1 259:2 / / rw - ext4 /dev/nvme0n1p2 rw\n", "70 1 8:32 / /elsewhere ro - ext4 /dev/sdx ro\n");
  file("sys/block/loop0/dev", "7:0\n");  // a loop device that is not attached
  const SystemView v = read_system_view(root.string());
  EXPECT_TRUE(v.unreadable.empty()) << v.unreadable.front();
  EXPECT_EQ(v.mount_namespaces, 3u);
  ASSERT_EQ(v.mounts.size(), 2u);  // ours + pid 20's; pid 31 shares pid 30's namespace
  EXPECT_EQ(v.mounts[1].mount_point, "/elsewhere");
  EXPECT_EQ(v.mounts[1].namespace_note, "in the mount namespace of pid 20 mnt:[2]");
  EXPECT_TRUE(v.loops.empty());
}

TEST_F(FakeTree, MountedOnlyInAnotherNamespaceIsRefused) {
  file("sys/class/block/sdx/dev", "8:32\n");
  fs::create_directories(root / "sys/class/block/sdx/holders");
  proc("22 1 259:2 / / rw - ext4 /dev/nvme0n1p2 rw\n", "70 1 8:32 / /elsewhere ro - ext4 /dev/sdx ro\n");
  auto st = guard_block_device("sdx", root.string());
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message().find("/dev/sdx on /elsewhere (ext4) in the mount namespace of pid 20"),
            std::string::npos) << st.error().message();
}

TEST_F(FakeTree, WhatCannotBeReadRefuses) {
  file("sys/class/block/sdx/dev", "8:32\n");
  fs::create_directories(root / "sys/class/block/sdx/holders");
  auto st = guard_block_device("sdx", root.string());  // no /proc at all
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, core::ErrorKind::Refused);
  EXPECT_NE(st.error().message().find("could not read /proc/self/ns/mnt"), std::string::npos) << st.error().message();
  fs::remove_all(root / "sys/class/block/sdx/holders");  // sysfs without holders: cannot tell
  proc("22 1 259:2 / / rw - ext4 /dev/nvme0n1p2 rw\n");
  auto held = guard_block_device("sdx", root.string());
  ASSERT_FALSE(held.ok());
  EXPECT_NE(held.error().message().find("holders"), std::string::npos);
}

TEST_F(FakeTree, BtrfsMembersAndLoopBackingFromSysfs) {
  proc("22 1 259:2 / / rw - ext4 /dev/nvme0n1p2 rw\n");
  file("sys/fs/btrfs/features/x", "");
  file("sys/fs/btrfs/aaaa-bbbb/devices/sdx", "");
  file("sys/fs/btrfs/aaaa-bbbb/devices/sdy", "");
  file("img/backing.img", "data");
  file("sys/block/loop4/dev", "7:4\n");
  file("sys/block/loop4/loop/backing_file", "/img/backing.img\n");
  const SystemView v = read_system_view(root.string());
  ASSERT_EQ(v.btrfs.size(), 2u);
  EXPECT_EQ(v.btrfs[0].fs_uuid, "aaaa-bbbb");
  EXPECT_EQ(v.btrfs[0].all_devices, (std::vector<std::string>{"sdx", "sdy"}));
  ASSERT_EQ(v.loops.size(), 1u);  // no /dev/loop4 in the tree: device + inode from the backing path
  struct stat st {};
  ASSERT_EQ(::stat((root / "img/backing.img").c_str(), &st), 0);
  EXPECT_EQ(v.loops[0].backing, (FileKey{st.st_dev, st.st_ino}));
  auto g = guard_file((root / "img/backing.img").string(), root.string());
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.error().message().find("it backs loop device /dev/loop4"), std::string::npos);
}

TEST_F(FakeTree, UnknownBlockDeviceIsBadInput) {
  auto u = collect_block_usage("nope", root.string());
  ASSERT_FALSE(u.ok());
  EXPECT_EQ(u.error().kind, core::ErrorKind::BadInput);
}

TEST_F(FakeTree, SwapFileIsRefused) {
  file("swapfile", "x");
  file("other", "y");
  proc("22 1 259:2 / / rw - ext4 /dev/nvme0n1p2 rw\n");
  file("proc/swaps", "Filename Type Size Used Priority\n/swapfile file 4 0 -2\n");
  auto st = guard_file((root / "swapfile").string(), root.string());
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, core::ErrorKind::Refused);
  EXPECT_TRUE(guard_file((root / "other").string(), root.string()).ok());
}

}  // namespace
}  // namespace pts::device
