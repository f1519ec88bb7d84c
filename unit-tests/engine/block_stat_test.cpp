// unit-tests/engine/block_stat_test.cpp — the kernel's block counters: parsing a stat line,
// the delta between two samples (I/Os with merges, bytes, average in flight, mean device
// time, saturation), and finding a disk's and a partition's stat file and queue limit in a
// fake sysfs tree, and an NVMe multipath head's paths (as Linux 6.1 lays them out: the head
// counts nothing, each controller's path disk counts what went through it). (The real counters of a loop device are checked end to end: pts e2e.)
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/block_stat.h"

using namespace pts;
namespace fs = std::filesystem;

namespace {

void write_file(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

class FakeSysfs : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("ptsuite-blockstat-" + std::to_string(getpid()));
    fs::remove_all(root_);
    const fs::path disk = root_ / "devices/pci0000:00/nvme/nvme0/nvme0n1";
    write_file(disk / "stat", "10 1 80 5 20 2 160 7 0 9 12 0 0 0 0 0 0\n");
    write_file(disk / "uevent", "MAJOR=259\nMINOR=0\nDEVNAME=nvme0n1\nDEVTYPE=disk\n");
    write_file(disk / "queue/nr_requests", "1023\n");
    for (const char* q : {"0", "1", "2"}) fs::create_directories(disk / "mq" / q);
    write_file(disk / "nvme0n1p2/stat", "1 0 8 1 0 0 0 0 0 1 1 0 0 0 0 0 0\n");
    write_file(disk / "nvme0n1p2/partition", "2\n");
    write_file(disk / "nvme0n1p2/uevent", "DEVNAME=nvme0n1p2\nDEVTYPE=partition\n");
    fs::create_directories(root_ / "dev/block");
    fs::create_directory_symlink(disk, root_ / "dev/block/259:0");
    fs::create_directory_symlink(disk / "nvme0n1p2", root_ / "dev/block/259:2");
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

}  // namespace

TEST(BlockStat, ParsesAStatLineAndRefusesAShortOne) {
  auto s = engine::parse_block_stat("  2421033 10635 67781840 1022353 2156391 9663 64414979 1013305 0 26512 2035688 10 0");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->v[engine::BlockStatSample::kReadIos], 2421033u);
  EXPECT_EQ(s->v[engine::BlockStatSample::kWriteSectors], 64414979u);
  EXPECT_EQ(s->v[engine::BlockStatSample::kTimeInQueue], 2035688u);
  EXPECT_FALSE(engine::parse_block_stat("1 2 3 4 5"));
  EXPECT_FALSE(engine::parse_block_stat("not a stat file"));
}

TEST(BlockStat, DeltaGivesInFlightDeviceTimeAndSaturation) {
  engine::BlockStatSample a, b;
  using F = engine::BlockStatSample;
  a.v[F::kReadIos] = 100;
  b.v[F::kReadIos] = 100 + 9000;
  b.v[F::kReadMerges] = 10;
  b.v[F::kWriteIos] = 1000;
  b.v[F::kReadSectors] = 9000 * 8;
  b.v[F::kWriteSectors] = 1000 * 8;
  b.v[F::kReadTicks] = 900;   // 9000 reads, 100 us each
  b.v[F::kWriteTicks] = 100;  // 1000 writes, 100 us each
  b.v[F::kTimeInQueue] = 1000;
  b.v[F::kIoTicks] = 490;
  a.at_ns = 1'000'000'000;
  b.at_ns = 1'500'000'000;  // 500 ms
  const auto k = engine::kernel_delta("sda", a, b, 64, 128);
  EXPECT_EQ(k.device, "sda");
  EXPECT_EQ(k.read_ios, 9000u);
  EXPECT_EQ(k.write_ios, 1000u);
  EXPECT_EQ(k.host_ios, 10010u);  // merges were I/Os the host issued
  EXPECT_EQ(k.read_bytes, 9000u * 4096);
  EXPECT_EQ(k.write_bytes, 1000u * 4096);
  EXPECT_DOUBLE_EQ(k.avg_in_flight, 2.0);           // 1000 request-ms over 500 ms
  EXPECT_DOUBLE_EQ(k.mean_device_time_ns, 100000);  // 1000 ms over 10000 completed
  EXPECT_DOUBLE_EQ(k.utilization, 0.98);
  EXPECT_EQ(k.wall_ns, 500'000'000u);
  EXPECT_TRUE(k.saturated);  // 128 outstanding on a device that holds 64
  EXPECT_FALSE(engine::kernel_delta("sda", a, b, 64, 64).saturated);
  EXPECT_FALSE(engine::kernel_delta("sda", a, b, 0, 4096).saturated);  // limit unknown: never claimed
}

TEST_F(FakeSysfs, FindsADiskAndItsLimit) {
  auto src = engine::BlockStatSource::for_dev(259, 0, root_.string());
  ASSERT_TRUE(src);
  EXPECT_EQ(src->device(), "nvme0n1");
  EXPECT_EQ(src->in_flight_limit(), 1023u * 3);
  auto s = src->read();
  ASSERT_TRUE(s);
  EXPECT_EQ(s->v[engine::BlockStatSample::kWriteIos], 20u);
  EXPECT_GT(s->at_ns, 0u);
}

TEST_F(FakeSysfs, APartitionReadsItsOwnStatAndItsDisksQueue) {
  auto src = engine::BlockStatSource::for_dev(259, 2, root_.string());
  ASSERT_TRUE(src);
  EXPECT_EQ(src->device(), "nvme0n1p2");
  EXPECT_EQ(src->in_flight_limit(), 1023u * 3);
  auto s = src->read();
  ASSERT_TRUE(s);
  EXPECT_EQ(s->v[engine::BlockStatSample::kReadIos], 1u);  // the partition's, not the disk's 10
}

TEST_F(FakeSysfs, AMultipathHeadIsTheSumOfItsPaths) {
  // /sys/devices/virtual/nvme-subsystem/nvme-subsys0/{subsysnqn, nvme0n1, nvme0 -> nvme1 ->
  // controllers}; each controller holds its path disks nvmeXcYnZ; namespace 2's path must not count.
  const fs::path sub = root_ / "devices/virtual/nvme-subsystem/nvme-subsys0";
  write_file(sub / "subsysnqn", "ptsuite-vm\n");
  write_file(sub / "nvme0n1/stat", "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
  write_file(sub / "nvme0n1/nsid", "1\n");
  write_file(sub / "nvme0n1/uevent", "DEVNAME=nvme0n1\nDEVTYPE=disk\n");
  write_file(sub / "nvme0n1/queue/nr_requests", "128\n");
  for (const char* c : {"nvme0", "nvme1"}) {
    const fs::path ctrl = root_ / "devices/pci0000:00/0000:00:0" / c;
    write_file(ctrl / "cntlid", "0\n");
    const std::string n = std::string(c) + "c" + c[4] + "n";
    write_file(ctrl / (n + "1") / "stat", c[4] == '0' ? "100 2 800 5 40 1 320 7 0 9 12 0 0 0 0 0 0\n"
                                                       : "50 0 400 5 10 0 80 7 0 9 12 0 0 0 0 0 0\n");
    write_file(ctrl / (n + "1") / "nsid", "1\n");
    write_file(ctrl / (n + "1") / "queue/nr_requests", "1023\n");
    fs::create_directories(ctrl / (n + "1") / "mq/0");
    write_file(ctrl / (n + "2") / "stat", "7777 0 0 0 7777 0 0 0 0 0 0 0 0 0 0 0 0\n");
    write_file(ctrl / (n + "2") / "nsid", "2\n");
    fs::create_directory_symlink(ctrl, sub / c);
  }
  fs::create_directory_symlink(sub / "nvme0n1", root_ / "dev/block/259:7");
  auto src = engine::BlockStatSource::for_dev(259, 7, root_.string());
  ASSERT_TRUE(src);
  EXPECT_EQ(src->device(), "nvme0n1 via nvme0c0n1+nvme1c1n1");
  EXPECT_EQ(src->in_flight_limit(), 1023u * 2);
  auto s = src->read();
  ASSERT_TRUE(s);
  EXPECT_EQ(s->v[engine::BlockStatSample::kReadIos], 150u);
  EXPECT_EQ(s->v[engine::BlockStatSample::kWriteIos], 50u);
  EXPECT_EQ(s->v[engine::BlockStatSample::kReadMerges], 2u);
}

TEST_F(FakeSysfs, UnknownDeviceOrRegularFileHasNoCounters) {
  EXPECT_FALSE(engine::BlockStatSource::for_dev(8, 0, root_.string()));
  const std::string file = (root_ / "plain").string();
  write_file(file, "x");
  FILE* f = std::fopen(file.c_str(), "r");
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(engine::BlockStatSource::for_fd(fileno(f)));
  std::fclose(f);
}
