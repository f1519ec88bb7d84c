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
  SimEngine(std::shared_ptr<DriveSession> session, std::shared_ptr<core::Clock> clock, std::vector<uint32_t> nsids)
      : session_(std::move(session)), clock_(std::move(clock)), nsids_(std::move(nsids)) {}

  core::Result<model::CellResult> run(const model::AccessSpec& requested, const std::atomic<bool>* abort,
                                      const engine::ProgressFn& progress) override {
    last_phase_.reset();
    model::AccessSpec spec = requested;
    if (spec.seed == 0) spec.seed = fresh_seed();
    if (spec.bytes_limit == 0 && !(spec.seconds > 0)) return core::bad_input("access spec: duration must be positive");
    Drive& drive = session_->drive();
    const NamespaceExtent* ns = drive.find_namespace(nsids_.front());
    if (!ns || !ns->attached)
      return core::bad_input("namespace " + std::to_string(nsids_.front()) + " of the simulated drive is not attached");
    if (ns->offset_bytes != 0 || ns->size_bytes != drive.capacity_bytes()) return run_on_namespace(spec, *ns, abort, progress);
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

  core::Result<model::CellResult> run_jobs(const std::vector<model::JobSpec>& jobs, bool allow_overlap,
                                           const std::atomic<bool>* abort,
                                           const engine::ProgressFn& progress) override;

  std::vector<model::JobTargetSize> job_targets() const override {
    std::vector<model::JobTargetSize> out;
    const Drive& drive = session_->drive();
    for (uint32_t nsid : nsids_) {
      const NamespaceExtent* ns = drive.find_namespace(nsid);
      out.push_back({ns ? ns->size_bytes : 0, drive.geometry().lba_bytes});
    }
    return out;
  }

  std::string describe() const override {
    return "simulated NVMe drive " + canonical(session_->drive().params()) +
           " (ptsuite FTL and flash timing model, virtual time)";
  }

 private:
  /// A single-job cell on a namespace that is not the whole drive: one job over its extent.
  core::Result<model::CellResult> run_on_namespace(const model::AccessSpec& spec, const NamespaceExtent& ns,
                                                   const std::atomic<bool>* abort, const engine::ProgressFn& progress);
  /// Runs `jobs` (seeded, checked) on the drive; fills one WorkerStats list per job.
  struct Ran {
    LoopOutcome out;
    engine::CpuTimes cpu;
    double real_s = 0;
    DriveCounters before, after;
    uint64_t wall_virtual = 0;
  };
  core::Result<Ran> run_sim_jobs(const std::vector<SimJob>& jobs, const std::atomic<bool>* abort,
                                 const engine::ProgressFn& progress,
                                 std::vector<std::vector<engine::WorkerStats>>& stats);
  model::SimulatedCell simulated_of(const Ran& ran) const;

  std::shared_ptr<DriveSession> session_;
  std::shared_ptr<core::Clock> clock_;
  std::vector<uint32_t> nsids_;  ///< the engine's targets: namespaces of the drive
  uint64_t completed_ios_ = 0;
  std::optional<engine::IoPhase> last_phase_;  ///< the last run()'s, in virtual time
};

core::Result<SimEngine::Ran> SimEngine::run_sim_jobs(const std::vector<SimJob>& jobs, const std::atomic<bool>* abort,
                                                      const engine::ProgressFn& progress,
                                                      std::vector<std::vector<engine::WorkerStats>>& stats) {
  Drive& drive = session_->drive();
  for (const auto& j : jobs)
    if (auto c = check_spec(j.spec, {"sim", j.size_bytes, drive.geometry().lba_bytes}); !c.ok()) return c.error();
  if (auto st = session_->begin_run_jobs(jobs); !st.ok()) return st.error();
  Ran ran;
  ran.before = drive.counters();
  ran.wall_virtual = clock_->wall_ns();
  const engine::CpuTimes cpu0 = process_cpu();
  const uint64_t real0 = core::monotonic_ns();
  auto out = run_jobs_workload(drive, jobs, abort, progress, UINT64_MAX, &stats);
  const engine::CpuTimes cpu1 = process_cpu();
  ran.real_s = double(core::monotonic_ns() - real0) / 1e9;
  if (!out.ok()) return out.error();
  ran.out = *out;
  ran.cpu = {cpu1.user_seconds - cpu0.user_seconds, cpu1.system_seconds - cpu0.system_seconds, ran.real_s};
  session_->ran_jobs(jobs, out->stopped_at_event, ran.real_s);
  if (auto st = session_->commit_now(); !st.ok()) return st.error();
  ran.after = drive.counters();
  return ran;
}

model::SimulatedCell SimEngine::simulated_of(const Ran& ran) const {
  model::SimulatedCell sc;
  sc.sim_cpu_seconds = ran.cpu.user_seconds + ran.cpu.system_seconds;
  sc.sim_wall_seconds = ran.real_s;
  sc.host_pages_written = ran.after.ftl.host_pages - ran.before.ftl.host_pages;
  sc.nand_pages_written = ran.after.ftl.nand_pages() - ran.before.ftl.nand_pages();
  sc.gc_pages_copied = ran.after.ftl.gc_pages - ran.before.ftl.gc_pages;
  sc.erases = ran.after.ftl.erases - ran.before.ftl.erases;
  sc.write_amplification = sc.host_pages_written ? double(sc.nand_pages_written) / double(sc.host_pages_written) : 0.0;
  sc.free_superblocks = session_->drive().ftl().free_superblocks();
  return sc;
}

core::Result<model::CellResult> SimEngine::run_on_namespace(const model::AccessSpec& spec, const NamespaceExtent& ns,
                                                            const std::atomic<bool>* abort,
                                                            const engine::ProgressFn& progress) {
  std::vector<std::vector<engine::WorkerStats>> stats;
  auto ran = run_sim_jobs({SimJob{spec, ns.offset_bytes, ns.size_bytes}}, abort, progress, stats);
  if (!ran.ok()) return ran.error();
  std::vector<const engine::WorkerStats*> ptrs;
  for (const auto& s : stats.front()) ptrs.push_back(&s);
  model::CellResult r = engine::summarize_cell(spec, ptrs, ran->out.t0_ns, ran->cpu);
  for (uint64_t& e : r.stream_end_bytes) e -= std::min(e, ns.offset_bytes);
  last_phase_ = engine::merge_io_phases(ptrs);
  r.started_wall_ns = ran->wall_virtual;
  if (!ran->out.error.empty()) {
    ++r.io_errors;
    if (r.error.empty()) r.error = ran->out.error;
  }
  r.simulated = simulated_of(*ran);
  completed_ios_ += r.read_ios + r.write_ios;
  return r;
}

core::Result<model::CellResult> SimEngine::run_jobs(const std::vector<model::JobSpec>& requested, bool allow_overlap,
                                                    const std::atomic<bool>* abort,
                                                    const engine::ProgressFn& progress) {
  last_phase_.reset();
  const auto targets = job_targets();
  std::vector<std::string> errors = model::job_problems(requested, targets, allow_overlap);
  Drive& drive = session_->drive();
  std::vector<model::JobSpec> jobs = requested;
  std::vector<SimJob> sim_jobs;
  for (auto& j : jobs) {
    if (!errors.empty()) break;
    const NamespaceExtent* ns = drive.find_namespace(nsids_[j.target]);
    if (!ns || !ns->attached) {
      errors.push_back("job \"" + j.id + "\": namespace " + std::to_string(nsids_[j.target]) + " is not attached");
      continue;
    }
    if (j.spec.seed == 0) j.spec.seed = fresh_seed();
    const uint64_t size = model::job_range_bytes(j, targets[j.target]);
    if (auto p = engine::plan_workers(j.spec, {"sim", size, drive.geometry().lba_bytes}); !p.ok())
      for (const auto& m : p.error().messages) errors.push_back("job \"" + j.id + "\": " + m);
    sim_jobs.push_back({j.spec, ns->offset_bytes + j.offset_bytes, size});
  }
  if (!errors.empty()) return core::Error(core::ErrorKind::BadInput, errors);
  std::vector<std::vector<engine::WorkerStats>> stats;
  auto ran = run_sim_jobs(sim_jobs, abort, progress, stats);
  if (!ran.ok()) return ran.error();

  std::vector<model::CellResult> results;
  std::vector<const engine::WorkerStats*> all;
  for (size_t k = 0; k < jobs.size(); ++k) {
    const model::JobSpec& j = jobs[k];
    std::vector<const engine::WorkerStats*> ptrs;
    for (const auto& s : stats[k]) ptrs.push_back(&s);
    all.insert(all.end(), ptrs.begin(), ptrs.end());
    model::CellResult r = engine::summarize_cell(j.spec, ptrs, ran->out.t0_ns, engine::CpuTimes{0, 0, 0});
    r.cpu_usr_pct = r.cpu_sys_pct = 0;
    r.cell_id = j.id;
    r.started_wall_ns = ran->wall_virtual;
    for (uint64_t& e : r.stream_end_bytes) e -= std::min(e, sim_jobs[k].offset_bytes);
    r.job = model::JobPlacement{j.id, session_->target().drive_text() + "#" + std::to_string(nsids_[j.target]), j.target,
                                j.offset_bytes, sim_jobs[k].size_bytes};
    model::SimulatedCell mark;  // the flash counters are the drive's, on the combined result
    r.simulated = mark;
    results.push_back(std::move(r));
  }
  model::CellResult cell = engine::combine_jobs(std::move(results), all, ran->out.t0_ns, ran->cpu);
  cell.started_wall_ns = ran->wall_virtual;
  if (!ran->out.error.empty()) {
    ++cell.io_errors;
    if (cell.error.empty()) cell.error = ran->out.error;
  }
  model::SimulatedCell sc = simulated_of(*ran);
  sc.controller = model::ControllerIo{ran->after.host_read_commands - ran->before.host_read_commands,
                                      ran->after.host_write_commands - ran->before.host_write_commands,
                                      ran->after.host_read_bytes - ran->before.host_read_bytes,
                                      ran->after.host_write_bytes - ran->before.host_write_bytes};
  cell.simulated = sc;
  last_phase_ = engine::merge_io_phases(all);
  completed_ios_ += cell.read_ios + cell.write_ios;
  return cell;
}

}  // namespace

std::unique_ptr<engine::IoEngine> make_sim_engine(std::shared_ptr<DriveSession> session,
                                                  std::shared_ptr<core::Clock> clock) {
  return make_sim_engine(std::move(session), std::move(clock), std::vector<uint32_t>{1});
}

std::unique_ptr<engine::IoEngine> make_sim_engine(std::shared_ptr<DriveSession> session,
                                                  std::shared_ptr<core::Clock> clock, std::vector<uint32_t> nsids) {
  if (nsids.empty()) nsids.push_back(1);
  return std::make_unique<SimEngine>(std::move(session), std::move(clock), std::move(nsids));
}

}  // namespace pts::sim
