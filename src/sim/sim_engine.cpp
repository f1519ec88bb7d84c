// sim/sim_engine.cpp — the simulated namespace as an engine::IoEngine: runs one cell in the
// drive's virtual time through the host loop, checkpoints it, and builds the CellResult
// with the io_uring engine's own summary code (engine/cell_summary.h), so both engines
// produce the same record. CPU figures are the simulator's (said so in `simulated`).
#include <sys/resource.h>

#include <random>

#include "core/clock.h"
#include "engine/cell_summary.h"
#include "engine/host_cpu.h"
#include "sim/host_loop.h"
#include "sim/sim.h"

namespace pts::sim {

namespace {

engine::CpuTimes process_cpu() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  engine::CpuTimes t;
  t.user_seconds = double(ru.ru_utime.tv_sec) + double(ru.ru_utime.tv_usec) / 1e6;
  t.system_seconds = double(ru.ru_stime.tv_sec) + double(ru.ru_stime.tv_usec) / 1e6;
  return t;
}

uint64_t fresh_seed() {
  std::random_device rd;
  uint64_t s = (uint64_t(rd()) << 32) ^ rd() ^ core::wall_ns();
  uint64_t mix = s;
  s = engine::splitmix64(mix);
  return s ? s : 1;
}

class SimEngine final : public engine::IoEngine {
 public:
  SimEngine(std::shared_ptr<DriveSession> session, std::shared_ptr<core::Clock> clock)
      : session_(std::move(session)), clock_(std::move(clock)) {}

  core::Result<model::CellResult> run(const model::AccessSpec& requested, const std::atomic<bool>* abort,
                                      const engine::ProgressFn& progress) override {
    last_phase_.reset();
    model::AccessSpec spec = requested;
    if (spec.seed == 0) spec.seed = fresh_seed();
    if (spec.bytes_limit == 0 && !(spec.seconds > 0)) return core::bad_input("access spec: duration must be positive");
    Drive& drive = session_->drive();
    const engine::IoTarget target{"sim", drive.capacity_bytes(), drive.geometry().lba_bytes};
    if (auto p = engine::plan_workers(spec, target); !p.ok()) return p.error();
    if (auto c = check_spec(spec, target); !c.ok()) return c.error();
    if (auto st = session_->begin_run(spec); !st.ok()) return st.error();

    const DriveCounters before = drive.counters();
    const uint64_t wall_virtual = clock_->wall_ns();
    const engine::CpuTimes cpu0 = process_cpu();
    const auto host0 = engine::read_host_cpu();
    const uint64_t real0 = core::monotonic_ns();
    std::vector<engine::WorkerStats> stats;
    auto out = run_workload(drive, spec, abort, progress, UINT64_MAX, &stats);
    const engine::CpuTimes cpu1 = process_cpu();
    const auto host1 = engine::read_host_cpu();
    const double real_s = double(core::monotonic_ns() - real0) / 1e9;
    if (!out.ok()) return out.error();
    const double cpu_s = (cpu1.user_seconds - cpu0.user_seconds) + (cpu1.system_seconds - cpu0.system_seconds);
    session_->ran(spec, out->stopped_at_event, real_s);
    // Durable before the host sees the result: the drive is never behind the host's journal
    // (and a trailing Run the host never recorded is recognised on the next cell: begin_run).
    if (auto st = session_->commit_now(); !st.ok()) return st.error();

    std::vector<const engine::WorkerStats*> ptrs;
    for (const auto& s : stats) ptrs.push_back(&s);
    engine::CpuTimes cpu{cpu1.user_seconds - cpu0.user_seconds, cpu1.system_seconds - cpu0.system_seconds, real_s};
    model::CellResult r = engine::summarize_cell(spec, ptrs, out->t0_ns, cpu);
    // In the drive's virtual time, the clock its Clock reads (sim_device.cpp): the gap between
    // two cells is the time the simulated drive saw pass between them.
    last_phase_ = engine::merge_io_phases(ptrs);
    r.started_wall_ns = wall_virtual;
    // The host simulating the drive, over the real time the cell took (not the drive's time).
    if (host0 && host1) r.system_cpu_pct = engine::host_cpu_busy_pct(*host0, *host1);
    if (!out->error.empty()) {
      ++r.io_errors;
      if (r.error.empty()) r.error = out->error;
    }
    const DriveCounters& after = drive.counters();
    model::SimulatedCell sc;
    sc.sim_cpu_seconds = cpu_s;
    sc.sim_wall_seconds = real_s;
    sc.host_pages_written = after.ftl.host_pages - before.ftl.host_pages;
    sc.nand_pages_written = after.ftl.nand_pages() - before.ftl.nand_pages();
    sc.gc_pages_copied = after.ftl.gc_pages - before.ftl.gc_pages;
    sc.erases = after.ftl.erases - before.ftl.erases;
    sc.write_amplification =
        sc.host_pages_written ? double(sc.nand_pages_written) / double(sc.host_pages_written) : 0.0;
    sc.free_superblocks = drive.ftl().free_superblocks();
    r.simulated = sc;
    completed_ios_ += r.read_ios + r.write_ios;
    return r;
  }

  /// HIR proves its idle periods idle through these: the I/Os this engine completed, and the
  /// drive's own count of host commands completed (the simulated drive's side, where a real
  /// drive has the block layer's counters). Between runs nothing is in flight: the host loop
  /// completes every I/O of a cell before run() returns.
  std::optional<engine::IoCounters> counters() override {
    engine::IoCounters c;
    c.engine_ios = completed_ios_;
    const DriveCounters& d = session_->drive().counters();
    c.kernel_ios = d.host_read_commands + d.host_write_commands;
    c.kernel_in_flight = 0;
    return c;
  }

  std::optional<engine::IoPhase> last_io_phase() const override { return last_phase_; }

  std::string describe() const override {
    return "simulated NVMe drive " + canonical(session_->drive().params()) +
           " (ptsuite FTL and flash timing model, virtual time)";
  }

 private:
  std::shared_ptr<DriveSession> session_;
  std::shared_ptr<core::Clock> clock_;
  uint64_t completed_ios_ = 0;
  std::optional<engine::IoPhase> last_phase_;  ///< the last run()'s, in virtual time
};

}  // namespace

std::unique_ptr<engine::IoEngine> make_sim_engine(std::shared_ptr<DriveSession> session,
                                                  std::shared_ptr<core::Clock> clock) {
  return std::make_unique<SimEngine>(std::move(session), std::move(clock));
}

}  // namespace pts::sim
