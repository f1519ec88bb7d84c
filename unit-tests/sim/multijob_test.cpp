// Multi-job cells and namespaces on the simulated drive: one job over the whole drive runs
// exactly as the single-job host loop, namespaces share the drive (a writer on one slows the
// reads of another), each job's figures add up to the controller's counters, a multi-job cell
// replays from its log record to the same drive, and Namespace Management and Attachment go
// through the real NVMe code (device/nvme_namespaces.h) to the simulated controller.
#include <gtest/gtest.h>

#include "sim/bytes.h"
#include "sim/session.h"
#include "sim/sim.h"
#include "sim_support.h"

namespace pts::sim {
namespace {

using simtest::spec;

uint64_t digest_of(const Drive& d) {
  ByteWriter w;
  d.save(w);
  return checksum64(w.bytes().data(), w.bytes().size());
}

TEST(SimMultiJob, OneJobOverTheWholeDriveIsTheSingleJobLoop) {
  Drive a(simtest::tiny(), 3), b(simtest::tiny(), 3);
  const auto s = spec(70, 4096, 2, 8, 0.3, 11);
  auto one = simtest::run(a, s);
  std::vector<std::vector<engine::WorkerStats>> stats;
  auto out = run_jobs_workload(b, {SimJob{s, 0, b.capacity_bytes()}}, nullptr, {}, UINT64_MAX, &stats);
  ASSERT_TRUE(out.ok());
  uint64_t reads = 0, writes = 0;
  for (const auto& w : stats.front()) reads += w.read_ios, writes += w.write_ios;
  EXPECT_EQ(reads, one.reads);
  EXPECT_EQ(writes, one.writes);
  EXPECT_EQ(out->end_ns, one.out.end_ns);
  EXPECT_EQ(digest_of(a), digest_of(b));
}

// The reads of one namespace meet the programs of a writer on another on the shared die: first
// come, first served they queue behind the programs; with the sim's read priority (reads go
// ahead and suspend a program) they are not faster than alone. (On sim:tiny the priority hides
// the writer almost entirely: a finding reported in docs/simulator.md, not loosened here.)
TEST(SimMultiJob, AWriterOnOneNamespaceSlowsTheReadsOfAnother) {
  struct Reads {
    double mean_ns = 0;
    uint64_t max_ns = 0;
  };
  auto reads = [](bool writer, bool priority) {
    auto params = simtest::tiny();
    params.read_priority = priority;
    Drive d(params, 5);
    const uint64_t half = d.capacity_bytes() / 2;
    auto fill = spec(0, 131072, 1, 8, 0, 2, d.capacity_bytes());  // data everywhere: reads reach the flash
    fill.pattern = model::AccessPattern::Sequential;
    simtest::run(d, fill);
    d.idle(5'000'000'000);  // the fill's flushes and GC done: the reads alone meet a quiet flash
    auto r = spec(100, 4096, 1, 4, 0.5, 3);
    r.rate_iops = 2000;
    std::vector<SimJob> jobs{{r, half, half}};
    if (writer) jobs.push_back({spec(0, 8192, 1, 32, 0.5, 4), 0, half});
    std::vector<std::vector<engine::WorkerStats>> stats;
    auto out = run_jobs_workload(d, jobs, nullptr, {}, UINT64_MAX, &stats);
    EXPECT_TRUE(out.ok());
    Reads got;
    double sum = 0;
    uint64_t n = 0;
    for (const auto& w : stats.front()) {
      sum += w.read_latency.mean_ns() * double(w.read_latency.samples());
      n += w.read_latency.samples();
      got.max_ns = std::max(got.max_ns, w.read_latency.max_ns());
    }
    EXPECT_GT(n, 0u);
    got.mean_ns = n ? sum / double(n) : 0;
    return got;
  };
  const Reads quiet = reads(false, true), busy = reads(true, true);
  const Reads quiet_fcfs = reads(false, false), busy_fcfs = reads(true, false);
  std::printf("read priority: mean %.1f -> %.1f us, max %.1f -> %.1f us; first come first served: mean %.1f -> %.1f us\n",
              quiet.mean_ns / 1e3, busy.mean_ns / 1e3, double(quiet.max_ns) / 1e3, double(busy.max_ns) / 1e3,
              quiet_fcfs.mean_ns / 1e3, busy_fcfs.mean_ns / 1e3);
  EXPECT_GE(busy.mean_ns, quiet.mean_ns);
  EXPECT_GT(busy_fcfs.mean_ns, 10 * quiet_fcfs.mean_ns);
}

struct Fixture {
  simtest::TempDir dir;
  SimDevice dev;
  std::unique_ptr<device::TargetDevice> target;
  Fixture() {
    auto t = parse_sim_target("sim:tiny@" + dir.file("m.simdrive"));
    EXPECT_TRUE(t.ok());
    auto d = open_sim_device(*t, true);
    EXPECT_TRUE(d.ok());
    dev = std::move(d.value());
    target = make_sim_target(t->text(), dev);
  }
};

TEST(SimMultiJob, NamespaceManagementThroughTheRealNvmeCode) {
  Fixture f;
  auto inv = f.target->namespaces();
  ASSERT_TRUE(inv.ok()) << inv.error().message();
  EXPECT_TRUE(inv->management);
  ASSERT_EQ(inv->namespaces.size(), 1u);
  EXPECT_EQ(inv->namespaces[0].size_bytes, 1ull << 30);
  f.target->use_held_descriptor(f.dev.session->state_fd(), false);
  auto too_big = f.target->recreate_namespaces(6, 200ull << 20);
  ASSERT_FALSE(too_big.ok());
  EXPECT_EQ(too_big.error().kind, core::ErrorKind::BadInput);
  auto made = f.target->recreate_namespaces(6, 160ull << 20);
  ASSERT_TRUE(made.ok()) << made.error().message();
  ASSERT_EQ(made->namespaces.size(), 6u);
  for (uint32_t i = 0; i < 6; ++i) {
    EXPECT_EQ(made->namespaces[i].nsid, i + 1);
    EXPECT_EQ(made->namespaces[i].size_bytes, 160ull << 20);
    EXPECT_TRUE(made->namespaces[i].attached);
  }
  EXPECT_EQ(made->unallocated_bytes, (1ull << 30) - 6 * (160ull << 20));
  // The table survives a save and a load, and the log's records replay to the same drive.
  const uint64_t before = digest_of(f.dev.session->drive());
  ASSERT_TRUE(f.dev.session->close().ok());
  auto again = DriveSession::open(f.dev.session->target(), false);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->drive().namespaces().size(), 6u);
  EXPECT_EQ(digest_of((*again)->drive()), before);
}

TEST(SimMultiJob, JobsAddUpToTheControllerAndReplayFromTheLog) {
  Fixture f;
  f.target->use_held_descriptor(f.dev.session->state_fd(), false);
  ASSERT_TRUE(f.target->recreate_namespaces(3, 256ull << 20).ok());
  auto eng = make_sim_engine(f.dev.session, f.dev.clock, {1, 2, 3});
  std::vector<model::JobSpec> jobs(3);
  for (uint32_t i = 0; i < 3; ++i) {
    jobs[i].id = "ns" + std::to_string(i + 1);
    jobs[i].target = i;
    jobs[i].spec = spec(i == 0 ? 0 : 100, 4096, 1, 8, 0.3, 20 + i);
  }
  auto cell = eng->run_jobs(jobs, false, nullptr, {});
  ASSERT_TRUE(cell.ok()) << cell.error().message();
  ASSERT_EQ(cell->jobs.size(), 3u);
  uint64_t ios = 0, bytes = 0;
  for (const auto& j : cell->jobs) ios += j.read_ios + j.write_ios, bytes += j.read_bytes + j.write_bytes;
  EXPECT_EQ(ios, cell->read_ios + cell->write_ios);
  EXPECT_EQ(bytes, cell->read_bytes + cell->write_bytes);
  ASSERT_TRUE(cell->simulated && cell->simulated->controller);
  const auto& c = *cell->simulated->controller;
  EXPECT_EQ(c.read_commands + c.write_commands, ios);
  EXPECT_EQ(c.read_bytes + c.write_bytes, bytes);
  EXPECT_EQ(cell->jobs[0].write_ios, cell->write_ios);
  EXPECT_EQ(cell->jobs[0].read_ios, 0u);
  // Overlap where one writes is refused unless allowed.
  std::vector<model::JobSpec> both = {jobs[0], jobs[1]};
  both[1].target = 0;
  auto refused = eng->run_jobs(both, false, nullptr, {});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message().find("overlap"), std::string::npos);
  const uint64_t live = digest_of(f.dev.session->drive());
  ASSERT_TRUE(f.dev.session->close().ok());
  auto replayed = DriveSession::open(f.dev.session->target(), false);
  ASSERT_TRUE(replayed.ok());
  EXPECT_EQ(digest_of((*replayed)->drive()), live);
}

}  // namespace
}  // namespace pts::sim
