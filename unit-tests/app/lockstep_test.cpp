// unit-tests/app/lockstep_test.cpp — app/lockstep.h with two fake engines: cells of both drives
// run in one interval each, a drive done with its sub-test serves as load (the other drive's
// cells, its own seed) until the other is done too, a drive that leaves is not waited for, and
// every interval is one line of the log.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "app/lockstep.h"
#include "fakes/fake_engine.h"

namespace pts::app {
namespace {

model::AccessSpec cell(uint32_t read_pct) {
  model::AccessSpec s;
  s.read_pct = read_pct;
  s.block_bytes = 4096;
  s.seconds = 1;
  s.seed = 7;
  return s;
}

size_t lines(const std::string& path) {
  std::ifstream in(path);
  size_t n = 0;
  for (std::string l; std::getline(in, l);) n += !l.empty();
  return n;
}

struct Rig {
  fakes::FakeClock ca, cb;
  fakes::FakeEngine a{ca, [](const model::AccessSpec&, uint32_t) { return 1000.0; }};
  fakes::FakeEngine b{cb, [](const model::AccessSpec&, uint32_t) { return 3000.0; }};
  std::string log = (std::filesystem::temp_directory_path() /
                     ("ptsuite-lockstep-" + std::to_string(::getpid()) + ".jsonl")).string();
  Rig() { std::filesystem::remove(log); }
  ~Rig() { std::filesystem::remove(log); }
};

TEST(Lockstep, DoneDriveServesAsLoadUntilTheOtherIsDone) {
  Rig r;
  Lockstep ls({{"a", "sim:a", 1 << 20, &r.a}, {"b", "sim:b", 1 << 20, &r.b}}, nullptr, r.log, true);
  runner::LockstepGate::Held held_a, held_b;
  std::vector<double> iops_a, iops_b;
  std::thread ta([&] {
    for (int k = 0; k < 2; ++k) iops_a.push_back(ls.engine(0).run(cell(0), nullptr, {})->iops);
    held_a = ls.gate(0).subtest_done(0);
    ls.leave(0);
  });
  std::thread tb([&] {
    for (int k = 0; k < 5; ++k) {
      auto c = ls.engine(1).run(cell(100), nullptr, {});
      ASSERT_TRUE(c.ok());
      EXPECT_EQ(c->job->id, "b");
      EXPECT_EQ(c->job->target_index, 1u);
      iops_b.push_back(c->iops);
    }
    held_b = ls.gate(1).subtest_done(0);
    ls.leave(1);
  });
  ta.join();
  tb.join();
  EXPECT_EQ(iops_a, std::vector<double>(2, 1000.0));
  EXPECT_EQ(iops_b, std::vector<double>(5, 3000.0));
  EXPECT_EQ(held_a.load_cells, 3u);
  EXPECT_EQ(held_a.waited_for, "b");
  EXPECT_EQ(held_b.load_cells, 0u);
  // Drive a ran its own two cells, then b's three as load with its own seed.
  ASSERT_EQ(r.a.calls.size(), 5u);
  EXPECT_EQ(r.a.calls[0].read_pct, 0u);
  for (size_t k = 2; k < 5; ++k) {
    EXPECT_EQ(r.a.calls[k].read_pct, 100u);
    EXPECT_EQ(r.a.calls[k].seed, 0u);
  }
  EXPECT_EQ(r.b.calls.size(), 5u);
  EXPECT_EQ(lines(r.log), 5u);  // one line per interval: both drives in every one
}

TEST(Lockstep, ALeavingDriveIsNotWaitedFor) {
  Rig r;
  Lockstep ls({{"a", "sim:a", 1 << 20, &r.a}, {"b", "sim:b", 1 << 20, &r.b}}, nullptr, r.log, true);
  std::thread ta([&] {
    (void)ls.engine(0).run(cell(0), nullptr, {});
    ls.leave(0);  // failed: its record ends
  });
  std::thread tb([&] {
    for (int k = 0; k < 4; ++k) ASSERT_TRUE(ls.engine(1).run(cell(0), nullptr, {}).ok());
    EXPECT_EQ(ls.gate(1).subtest_done(0).load_cells, 0u);
    ls.leave(1);
  });
  ta.join();
  tb.join();
  EXPECT_EQ(r.a.calls.size(), 1u);
  EXPECT_EQ(r.b.calls.size(), 4u);
  EXPECT_EQ(lines(r.log), 4u);
}

}  // namespace
}  // namespace pts::app
