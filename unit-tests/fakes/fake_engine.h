// fakes/fake_engine.h — a scripted IoEngine and a manual Clock for state-machine tests in
// fake time. Each run() advances the clock by its scripted set-up, the spec's seconds (its I/O
// phase, which it reports) and its scripted drain, and returns a CellResult whose IOPS come
// from a script keyed by the cell (R/W mix, block size, pattern) and by how many times that
// cell ran before (its occurrence = the round, for a plan whose cells are unique).
// Header-only so every test binary can use it. May use: core, model, engine interface.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "engine/io_engine.h"

namespace pts::fakes {

/// Time that moves only when told to. `tick_ns` is added on every monotonic read, so gaps
/// between engine runs are non-zero and countable.
class FakeClock final : public core::Clock {
 public:
  uint64_t now_ns = 1'000'000'000ull;
  uint64_t wall_base_ns = 1'800'000'000'000'000'000ull;  // 2027-01-15
  uint64_t tick_ns = 0;
  uint64_t monotonic_ns() override { return now_ns += tick_ns; }
  uint64_t wall_ns() override { return wall_base_ns + now_ns; }
  void advance_s(double s) { now_ns += static_cast<uint64_t>(s * 1e9); }
  /// Idle in fake time: the clock jumps, nothing sleeps.
  bool idle_ns(uint64_t ns, const std::atomic<bool>* abort) override {
    if (abort && abort->load()) return false;
    now_ns += ns;
    return true;
  }
};

/// Key of a cell in the script: "rw65-bs4096-random"; WIPC is "wipc".
inline std::string fake_key(const model::AccessSpec& s) {
  if (s.bytes_limit > 0) return "wipc";
  return "rw" + std::to_string(s.read_pct) + "-bs" + std::to_string(s.block_bytes) +
         (s.pattern == model::AccessPattern::Random ? "-random" : "-seq");
}

class FakeEngine final : public engine::IoEngine {
 public:
  /// IOPS of a cell on its n-th run (0-based).
  using Script = std::function<double(const model::AccessSpec& spec, uint32_t occurrence)>;

  FakeEngine(FakeClock& clock, Script script) : clock_(clock), script_(std::move(script)) {}

  /// Called at the start of run number `call` (0-based), before the clock moves: tests use it
  /// to raise a stop flag "during" a cell, or to swap the drive.
  std::function<void(size_t call, const model::AccessSpec&)> on_run;
  /// Calls that return an I/O error count (io_errors = 1).
  std::vector<size_t> io_error_calls;
  /// Per key: how many earlier runs to assume (for a resumed run's occurrence numbering).
  std::map<std::string, uint32_t> occurrence_offset;
  /// Fake time each run() spends before its first I/O (set-up) and after its last completion
  /// (drain): outside the I/O phase it reports, as in the real engine.
  uint64_t setup_ns = 0;
  uint64_t drain_ns = 0;
  /// false: an engine that reports no I/O phase (last_io_phase() is nullopt).
  bool report_io_phase = true;

  std::vector<model::AccessSpec> calls;
  std::map<std::string, uint32_t> occurrences;

  core::Result<model::CellResult> run(const model::AccessSpec& spec, const std::atomic<bool>* abort,
                                      const engine::ProgressFn& progress) override {
    last_phase_.reset();
    const size_t call = calls.size();
    calls.push_back(spec);
    if (on_run) on_run(call, spec);
    clock_.now_ns += setup_ns;
    // The engine's own stamps read the clock without its tick (they cost no time).
    const uint64_t first_submit_ns = clock_.now_ns;
    const std::string key = fake_key(spec);
    const uint32_t occ = occurrence_offset[key] + occurrences[key]++;
    model::CellResult r;
    r.spec = spec;
    if (r.spec.seed == 0) r.spec.seed = 1000 + call;
    r.started_wall_ns = clock_.wall_ns();  // when the I/O phase starts
    const uint32_t bs = spec.block_bytes ? spec.block_bytes : 4096;
    double iops = script_(spec, occ);
    double seconds = spec.seconds;
    if (spec.bytes_limit > 0) seconds = static_cast<double>(spec.bytes_limit) / bs / iops;
    const bool aborted = abort && abort->load();
    if (aborted) seconds *= 0.5;
    if (progress) progress(seconds, static_cast<uint64_t>(iops * seconds));
    clock_.advance_s(seconds);
    last_phase_ = engine::IoPhase{first_submit_ns, clock_.now_ns};
    clock_.now_ns += drain_ns;
    r.seconds = seconds;
    const uint64_t ios = static_cast<uint64_t>(iops * seconds);
    r.read_ios = ios * spec.read_pct / 100;
    r.write_ios = ios - r.read_ios;
    if (spec.bytes_limit > 0 && !aborted) r.write_ios = spec.bytes_limit / bs;
    r.read_bytes = r.read_ios * bs;
    r.write_bytes = r.write_ios * bs;
    r.read_iops = r.read_ios / seconds;
    r.write_iops = r.write_ios / seconds;
    r.iops = iops;
    r.read_mbps = r.read_bytes / 1e6 / seconds;
    r.write_mbps = r.write_bytes / 1e6 / seconds;
    r.mbps = r.read_mbps + r.write_mbps;
    const double oio = static_cast<double>(spec.threads) * spec.queue_depth;
    r.latency.samples = ios;
    r.latency.mean_ns = oio / iops * 1e9;
    r.latency.min_ns = static_cast<uint64_t>(r.latency.mean_ns / 2);
    r.latency.max_ns = static_cast<uint64_t>(r.latency.mean_ns * 3 + occ);
    r.latency.p99_999_ns = static_cast<uint64_t>(r.latency.mean_ns * 2);
    r.littles_law_oio = oio;
    if (spec.pattern == model::AccessPattern::Sequential)  // each stream moves on by its share of the bytes
      for (uint32_t w = 0; w < spec.threads; ++w)
        r.stream_end_bytes.push_back((spec.stream_start_bytes.empty() ? 0 : spec.stream_start_bytes[w]) +
                                     (r.read_bytes + r.write_bytes) / spec.threads);
    for (size_t c : io_error_calls)
      if (c == call) {
        r.io_errors = 1;
        r.error = "EIO at offset 0";
      }
    completed_ios += r.read_ios + r.write_ios + r.io_errors;
    return r;
  }

  /// Every I/O of every run so far; `publish_counters = false` models an engine without them.
  uint64_t completed_ios = 0;
  bool publish_counters = true;
  std::optional<engine::IoCounters> counters() override {
    if (!publish_counters) return std::nullopt;
    engine::IoCounters c;
    c.engine_ios = completed_ios;
    return c;
  }

  std::optional<engine::IoPhase> last_io_phase() const override {
    return report_io_phase ? last_phase_ : std::nullopt;
  }

  std::string describe() const override { return "fake engine"; }

 private:
  FakeClock& clock_;
  Script script_;
  std::optional<engine::IoPhase> last_phase_;
};

}  // namespace pts::fakes
