// unit-tests/pts/hir_test.cpp — the HIR procedure on the fake engine in fake time: the exact
// Access A / B / C sequence and its timing (Access C as samples back to back), the journaled idle records (nothing submitted),
// the baseline and recovery findings, a stop during an idle period with resume, and cell gaps
// that leave the host idle out.
#include <gtest/gtest.h>

#include "shipped_plans.h"
#include "pts/hir.h"

namespace pts::testing {
namespace {

/// A drive whose 4 KiB write IOPS grow with the host idle before the run: 1000 + 100 per
/// idle second (preconditioning: a flat 1000, steady at once).
struct IdleDrive {
  fakes::FakeClock* clock = nullptr;
  uint64_t last_end_ns = 0;
  double operator()(const model::AccessSpec& s) {
    const double idle_s = last_end_ns ? static_cast<double>(clock->now_ns - last_end_ns) / 1e9 : 0;
    last_end_ns = clock->now_ns + static_cast<uint64_t>(s.seconds * 1e9);
    return 1000 + 100 * idle_s;
  }
};

/// 3 × (A + B) and 2 Access C samples keep the sequence readable; C samples last 4 s here (the
/// shipped 5 s, like Access A) so the calls tell A from C.
model::TestPlan small_hir(const model::DeviceIdentity& id) {
  auto plan = shipped_plan("hir", {}, id);
  auto* h = plan.params<model::HirPlan>();
  EXPECT_TRUE(h);
  if (!h) return plan;
  EXPECT_EQ(h->access_c_samples, 360u);
  EXPECT_EQ(h->access_c_sample_seconds, 5);
  h->repetitions = 3;
  h->access_c_samples = 2;
  h->access_c_sample_seconds = 4;
  for (auto& s : plan.subtests)
    for (auto& c : s.cells)
      if (c.id == "access-c") c.spec.seconds = 4;
  return plan;
}

struct Call {
  std::string what;  // "pc", "A", "C"
  uint64_t at_ns;
  double seconds;
};

TEST(Hir, ExactAccessABCSequenceAndTiming) {
  IdleDrive drive;
  Rig rig([&](const model::AccessSpec& s, uint32_t) { return drive(s); });
  drive.clock = &rig.clock;
  std::vector<Call> calls;
  rig.engine->on_run = [&](size_t, const model::AccessSpec& s) {
    calls.push_back({s.seconds == 60 ? "pc" : s.seconds == 5 ? "A" : s.seconds == 4 ? "C" : "?", rig.clock.now_ns,
                     s.seconds});
  };
  const auto plan = small_hir(rig.device.id);
  ASSERT_EQ(plan.subtests.size(), 6u);  // precondition + 5 wait states
  auto res = rig.start(temp_run_dir("hir-seq"), plan);
  ASSERT_FALSE(res.error) << res.error->message();
  EXPECT_EQ(rig.device.purge_calls, 1);
  // Preconditioning: Rounds of 30 one-minute cells until steady (flat IOPS: 5 Rounds).
  size_t k = 0;
  while (k < calls.size() && calls[k].what == "pc") ++k;
  EXPECT_EQ(k, 150u);
  const double waits[] = {5, 10, 15, 25, 50};
  for (double w : waits) {
    const uint64_t t0 = calls[k].at_ns;
    for (uint32_t rep = 0; rep < 3; ++rep, ++k) {
      ASSERT_LT(k, calls.size());
      EXPECT_EQ(calls[k].what, "A") << "wait " << w << " rep " << rep;
      EXPECT_EQ(calls[k].at_ns - t0, static_cast<uint64_t>(rep * (5 + w) * 1e9)) << "wait " << w << " rep " << rep;
    }
    for (uint32_t c = 0; c < 2; ++c, ++k) {  // the return to baseline: samples back to back, no idle
      ASSERT_LT(k, calls.size());
      EXPECT_EQ(calls[k].what, "C") << "wait " << w;
      EXPECT_EQ(calls[k].at_ns - t0, static_cast<uint64_t>((3 * (5 + w) + 4 * c) * 1e9)) << "C sample " << c;
    }
  }
  EXPECT_EQ(k, calls.size());
  // The record: per wait state 3 Rounds of A with an idle after each, then 2 of C with none.
  for (size_t s = 1; s < 6; ++s) {
    const auto& rec = res.record.subtests[s];
    ASSERT_EQ(rec.rounds.size(), 5u);
    for (uint32_t r = 0; r < 3; ++r) {
      ASSERT_TRUE(rec.rounds[r].idle_after) << s << "/" << r;
      const auto& idle = *rec.rounds[r].idle_after;
      EXPECT_TRUE(idle.completed);
      EXPECT_EQ(idle.requested_ns, static_cast<uint64_t>(waits[s - 1] * 1e9));
      EXPECT_EQ(idle.measured_ns, idle.requested_ns);
      ASSERT_TRUE(idle.engine_ios_before && idle.engine_ios_after);
      EXPECT_EQ(*idle.engine_ios_before, *idle.engine_ios_after);
      EXPECT_GT(*idle.engine_ios_before, 0u);
    }
    for (uint32_t r = 3; r < 5; ++r) {
      EXPECT_FALSE(rec.rounds[r].idle_after);
      EXPECT_EQ(rec.rounds[r].cells.at(0).cell_id, "access-c");
    }
    // Access C's mean and last sample: IOPS 1000 + 100 × idle before it (the last idle, then none).
    EXPECT_DOUBLE_EQ(finding_value(rec, "access_c_last_iops"), 1000);
    EXPECT_DOUBLE_EQ(finding_value(rec, "access_c_iops"), (1000 + 100 * waits[s - 1] + 1000) / 2);
  }
}

TEST(Hir, HostIdleIsNotCountedAsTheToolsCellGap) {
  IdleDrive drive;
  Rig rig([&](const model::AccessSpec& s, uint32_t) { return drive(s); });
  drive.clock = &rig.clock;
  rig.engine->setup_ns = 3'700'000;
  rig.engine->drain_ns = 400'000;
  auto res = rig.start(temp_run_dir("hir-gaps"), small_hir(rig.device.id));
  ASSERT_FALSE(res.error) << res.error->message();
  // Every gap is the engine's drain and set-up around it (the fake clock does not tick):
  // a Round after an Access B idle of 5 ... 50 s has the same gap as any other.
  size_t gaps = 0, after_idle = 0;
  for (const auto& s : res.record.subtests)
    for (size_t r = 0; r < s.rounds.size(); ++r) {
      for (uint64_t g : s.rounds[r].cell_gaps_ns) EXPECT_EQ(g, 4'100'000u) << s.id << " round " << s.rounds[r].round;
      gaps += s.rounds[r].cell_gaps_ns.size();
      after_idle += r > 0 && s.rounds[r - 1].idle_after ? s.rounds[r].cell_gaps_ns.size() : 0;
    }
  EXPECT_EQ(after_idle, 5u * 3u);  // per wait state: A2, A3 and the first C follow an idle
  EXPECT_GT(gaps, 150u);
  // The idle itself is in the record where it belongs.
  EXPECT_EQ(res.record.subtests[1].rounds[0].idle_after->measured_ns, 5'000'000'000u);
}

TEST(Hir, RecoveryGrowsWithTheIdleLength) {
  IdleDrive drive;
  Rig rig([&](const model::AccessSpec& s, uint32_t) { return drive(s); });
  drive.clock = &rig.clock;
  auto res = rig.start(temp_run_dir("hir-recovery"), small_hir(rig.device.id));
  ASSERT_FALSE(res.error) << res.error->message();
  double previous = 0;
  for (size_t s = 1; s < 6; ++s) {
    const auto& rec = res.record.subtests[s];
    EXPECT_DOUBLE_EQ(finding_value(rec, "baseline_iops"), 1000);  // the preconditioning window average
    const double ratio = finding_value(rec, "recovery_ratio");
    EXPECT_GT(ratio, previous) << rec.id;
    previous = ratio;
    EXPECT_EQ(finding_value(rec, "idle_periods_idle"), 3);
  }
  // Wait state 1: the first A follows the preconditioning directly (no idle), the next two
  // follow 5 s: (1000 + 1500 + 1500) / 3 / 1000.
  EXPECT_NEAR(finding_value(res.record.subtests[1], "recovery_ratio"), 4000.0 / 3 / 1000, 1e-9);
}

TEST(Hir, StopDuringIdleRedoesTheIdleOnResume) {
  IdleDrive drive;
  Rig rig([&](const model::AccessSpec& s, uint32_t) { return drive(s); });
  drive.clock = &rig.clock;
  const auto plan = small_hir(rig.device.id);
  rig.engine->on_run = [&](size_t call, const model::AccessSpec&) {
    if (call == 151) rig.stop = true;  // during the second Access A of wait state 1
  };
  auto dir = temp_run_dir("hir-resume");
  auto first = rig.start(dir, plan);
  ASSERT_FALSE(first.error);
  EXPECT_EQ(first.record.state, model::RunState::Interrupted);
  const auto& ws = first.record.subtests[1];
  ASSERT_EQ(ws.rounds.size(), 2u);
  EXPECT_EQ(ws.rounds[1].ended_wall_ns, 0u);  // its cell is journaled, its idle was cut
  rig.stop = false;
  rig.engine->on_run = nullptr;
  rig.engine->occurrences.clear();
  const uint64_t before = rig.clock.now_ns;
  auto second = rig.resume(dir);
  ASSERT_FALSE(second.error) << second.error->message();
  EXPECT_EQ(second.record.state, model::RunState::Complete);
  const auto& idle = *second.record.subtests[1].rounds[1].idle_after;
  EXPECT_TRUE(idle.completed);
  EXPECT_EQ(idle.measured_ns, 5'000'000'000u);  // the whole idle again
  EXPECT_EQ(idle.started_wall_ns, rig.clock.wall_base_ns + before);
  for (size_t s = 1; s < 6; ++s) EXPECT_EQ(second.record.subtests[s].rounds.size(), 5u);
}

TEST(Hir, IdleWithoutEngineCountersIsStillTimedButSaysSo) {
  IdleDrive drive;
  Rig rig([&](const model::AccessSpec& s, uint32_t) { return drive(s); });
  drive.clock = &rig.clock;
  rig.engine->publish_counters = false;
  auto res = rig.start(temp_run_dir("hir-nocounters"), small_hir(rig.device.id));
  ASSERT_FALSE(res.error);
  const auto& idle = *res.record.subtests[1].rounds[0].idle_after;
  EXPECT_FALSE(idle.engine_ios_before);
  const auto* f = find_finding(res.record.subtests[1], "idle_periods_idle");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->detail.find("0 with engine counters"), std::string::npos) << f->detail;
}

}  // namespace
}  // namespace pts::testing
