// sim/sim_support.h — shared helpers of the simulator's unit tests: small drives, a scratch
// directory, and one call to run an access spec on a Drive. Header-only.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/uring_worker.h"
#include "model/access_spec.h"
#include "sim/drive.h"
#include "sim/host_loop.h"
#include "sim/params.h"

namespace pts::simtest {

/// The `tiny` profile (1 GiB, 1 die, 1 plane of 4 KiB pages, 768-page blocks), optionally overridden.
inline sim::SimParams tiny(double op = 0.07) {
  auto p = sim::profile_params("tiny").value();
  p.op = op;
  return p;
}

/// A drive laid out for the write-amplification check: single-page units and reads, `ppb`
/// pages per (super)block, about 1000 blocks.
inline sim::SimParams wa_drive(double rho, uint32_t ppb = 256) {
  auto p = sim::profile_params("tiny").value();
  p.planes = 1;
  p.flash_page_bytes = 4096;
  p.bits_per_cell = 1;
  p.pages_per_block = ppb;
  p.op = rho;
  p.capacity_bytes = uint64_t(ppb) * 4096 * 1000;
  p.buffer_bytes = 64 * 4096;
  p.idle_gc_free = 3;
  return p;
}

inline model::AccessSpec spec(uint32_t read_pct, uint32_t bs, uint32_t threads, uint32_t qd, double seconds,
                              uint64_t seed = 7, uint64_t bytes = 0) {
  model::AccessSpec s;
  s.pattern = model::AccessPattern::Random;
  s.read_pct = read_pct;
  s.block_bytes = bs;
  s.threads = threads;
  s.queue_depth = qd;
  s.seconds = seconds;
  s.bytes_limit = bytes;
  s.seed = seed;
  return s;
}

struct Run {
  sim::LoopOutcome out;
  std::vector<engine::WorkerStats> stats;
  uint64_t reads = 0, writes = 0;
  double seconds() const { return double(out.end_ns - out.t0_ns) / 1e9; }
  double iops() const { return double(reads + writes) / seconds(); }
  double mean_read_ns() const {
    double sum = 0;
    uint64_t n = 0;
    for (const auto& w : stats) sum += w.read_latency.mean_ns() * double(w.read_latency.samples()), n += w.read_latency.samples();
    return n ? sum / double(n) : 0;
  }
  double mean_write_ns() const {
    double sum = 0;
    uint64_t n = 0;
    for (const auto& w : stats) sum += w.write_latency.mean_ns() * double(w.write_latency.samples()), n += w.write_latency.samples();
    return n ? sum / double(n) : 0;
  }
  std::vector<uint64_t> per_second() const {
    std::vector<uint64_t> out_s;
    for (const auto& w : stats) {
      if (w.completions_per_second.size() > out_s.size()) out_s.resize(w.completions_per_second.size(), 0);
      for (size_t i = 0; i < w.completions_per_second.size(); ++i) out_s[i] += w.completions_per_second[i];
    }
    return out_s;
  }
};

inline Run run(sim::Drive& d, const model::AccessSpec& s) {
  Run r;
  auto out = sim::run_workload(d, s, nullptr, {}, UINT64_MAX, &r.stats);
  EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.error().message());
  if (out.ok()) r.out = *out;
  for (const auto& w : r.stats) r.reads += w.read_ios, r.writes += w.write_ios;
  return r;
}

/// A scratch directory removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() / ("ptsuite-simtest-" + std::to_string(::getpid()) + "-" +
                                                      std::to_string(counter()++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  static int& counter() {
    static int n = 0;
    return n;
  }
  std::filesystem::path path_;
};

}  // namespace pts::simtest
