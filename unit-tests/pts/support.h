// unit-tests/pts/support.h — a small hand-built plan and helpers to run the state machine
// on the fakes in fake time, journaling into a temporary run directory.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "fakes/fake_device.h"
#include "fakes/fake_engine.h"
#include "pts/runner.h"
#include "results/journal.h"

namespace pts::testing {

namespace fs = std::filesystem;

inline model::CellPlan make_cell(uint32_t read_pct, uint32_t bs, double seconds) {
  model::CellPlan c;
  c.id = "rw" + std::to_string(read_pct) + "-bs" + std::to_string(bs);
  c.label = std::to_string(bs) + " B " + std::to_string(read_pct) + "/" + std::to_string(100 - read_pct);
  c.spec.pattern = model::AccessPattern::Random;
  c.spec.read_pct = read_pct;
  c.spec.block_bytes = bs;
  c.spec.threads = 2;
  c.spec.queue_depth = 4;
  c.spec.seconds = seconds;
  return c;
}

/// `subtests` sub-tests, each with three cells (100/0, 65/35, 0/100 at `bs`, bs doubling per
/// sub-test so keys differ) tracking the 0/100 IOPS.
inline model::TestPlan make_plan(size_t subtests = 1, uint32_t max_rounds = 25) {
  model::TestPlan p;
  p.test_id = "iops";
  p.title = "IOPS";
  p.pts_edition = "pts-e-1.1";
  p.device_class = "enterprise";
  p.cell_seconds = 60;
  p.max_rounds = max_rounds;
  for (size_t s = 0; s < subtests; ++s) {
    const uint32_t bs = 4096u << s;
    model::SubTestPlan sub;
    sub.id = "sub" + std::to_string(s);
    sub.title = "sub-test " + std::to_string(s);
    sub.wipc.pattern = model::AccessPattern::Sequential;
    sub.wipc.read_pct = 0;
    sub.wipc.block_bytes = 131072;
    sub.wipc.bytes_limit = 2ull << 30;
    for (uint32_t rw : {100u, 65u, 0u}) sub.cells.push_back(make_cell(rw, bs, 60));
    model::CellPlan na = make_cell(50, 256, 60);
    na.applicable = false;
    na.not_applicable_reason = "block below the LBA size";
    sub.cells.push_back(na);
    sub.tracking.push_back({"rw0-bs" + std::to_string(bs), model::Metric::Iops, "RND 0/100 IOPS"});
    p.subtests.push_back(sub);
  }
  return p;
}

inline model::RunRecord make_header(const model::TestPlan& plan, const model::DeviceIdentity& id) {
  model::RunRecord h;
  h.tool_version = "test";
  h.run_id = "run-test";
  h.device = id;
  h.plan = plan;
  h.deviations.push_back({"cell-seconds", "test plan"});
  return h;
}

/// Tracking cell: 1000, 3000, 2000, then 1500 flat from round 4 → first steady round 8.
/// Other cells: large and ramping, distinct per round.
inline double steady_at_8(const model::AccessSpec& s, uint32_t occ) {
  if (s.bytes_limit > 0) return 50000;
  if (s.read_pct == 0) {
    static const double early[] = {1000, 3000, 2000};
    return occ < 3 ? early[occ] : 1500;
  }
  return 100000.0 + 1000.0 * occ + s.read_pct;
}

/// Tracking alternates 1000 / 2000: never steady.
inline double never_steady(const model::AccessSpec& s, uint32_t occ) {
  if (s.bytes_limit > 0) return 50000;
  if (s.read_pct == 0) return occ % 2 ? 2000 : 1000;
  return 100000.0 + occ;
}

/// A fresh, empty run directory: under /dev/shm when there is one (fdatasync is free on
/// tmpfs, and the cut-journal test replays hundreds of journals), else the test temp dir.
inline std::string temp_run_dir(const std::string& name) {
  const fs::path base = fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::path(::testing::TempDir());
  const fs::path dir = base / ("pts-unit-" + name + "-" + std::to_string(::getpid()));
  // Removed again when the test binary exits.
  static struct Cleanup {
    std::vector<fs::path> dirs;
    ~Cleanup() {
      std::error_code ec;
      for (const auto& d : dirs) fs::remove_all(d, ec);
    }
  } cleanup;
  cleanup.dirs.push_back(dir);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Everything one run needs, wired together.
struct Rig {
  fakes::FakeClock clock;
  fakes::FakeDevice device;
  std::unique_ptr<fakes::FakeEngine> engine;
  std::atomic<bool> stop{false};
  std::atomic<bool> abort{false};

  explicit Rig(fakes::FakeEngine::Script script)
      : engine(std::make_unique<fakes::FakeEngine>(clock, std::move(script))) {}

  runner::RunEnv env(model::RecordSink& sink) {
    return runner::RunEnv{*engine, device, clock, sink, {&stop, &abort}, nullptr};
  }

  /// New run journaled into `dir`.
  runner::RunResult start(const std::string& dir, const model::TestPlan& plan) {
    auto sink = results::JournalSink::create(dir);
    EXPECT_TRUE(sink.ok()) << (sink.ok() ? "" : sink.error().message());
    auto e = env(**sink);
    return runner::start_run(e, make_header(plan, device.id));
  }

  /// Resumes the journal in `dir`; the engine continues each cell's occurrence count from
  /// the loaded record, so a deterministic script reproduces an uninterrupted run.
  runner::RunResult resume(const std::string& dir) {
    auto loaded = results::load_journal(dir);
    EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().message());
    if (!loaded.ok()) return {};
    for (const auto& s : loaded->record.subtests)
      for (const auto& r : s.rounds)
        for (const auto& c : r.cells) ++engine->occurrence_offset[fakes::fake_key(c.spec)];
    auto sink = results::JournalSink::reopen(dir, *loaded);
    EXPECT_TRUE(sink.ok());
    auto e = env(**sink);
    return runner::resume_run(e, loaded->record);
  }
};

/// Tracking-cell IOPS per round of sub-test `s`.
inline std::vector<double> tracking_series(const model::RunRecord& r, size_t s) {
  std::vector<double> out;
  const std::string id = r.plan.subtests[s].tracking[0].cell_id;
  for (const auto& round : r.subtests[s].rounds)
    for (const auto& c : round.cells)
      if (c.cell_id == id) out.push_back(c.iops);
  return out;
}

}  // namespace pts::testing
