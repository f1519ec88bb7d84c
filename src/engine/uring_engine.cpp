// engine/uring_engine.cpp — the io_uring IoEngine: owns (or borrows) the O_DIRECT descriptor and a
// pool of persistent UringWorkers, runs one cell at a time across TC of them (a barrier, one
// shared t0, a deadline or byte budget), and merges their stats into a CellResult. The
// liburing headers stay in uring_worker.cpp.
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <chrono>
#include <cstring>
#include <optional>
#include <random>
#include <thread>

#include "core/clock.h"
#include "engine/block_stat.h"
#include "engine/cell_summary.h"
#include "engine/fidelity_check.h"
#include "engine/host_cpu.h"
#include "engine/io_engine.h"
#include "engine/uring_worker.h"
#include "engine/workload.h"

namespace pts::engine {

namespace {

CpuTimes process_cpu() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  CpuTimes t;
  t.user_seconds = static_cast<double>(ru.ru_utime.tv_sec) + static_cast<double>(ru.ru_utime.tv_usec) / 1e6;
  t.system_seconds = static_cast<double>(ru.ru_stime.tv_sec) + static_cast<double>(ru.ru_stime.tv_usec) / 1e6;
  return t;
}

/// A fresh, non-zero seed for a cell that did not ask for one.
uint64_t fresh_seed() {
  std::random_device rd;
  uint64_t s = (static_cast<uint64_t>(rd()) << 32) ^ rd() ^ core::wall_ns();
  uint64_t mix = s;
  s = splitmix64(mix);
  return s ? s : 1;
}

const std::atomic<bool> kNeverAbort{false};

/// One target of the engine: its descriptor, its kernel counters and the workers bound to it
/// (a worker's ring registers one file).
struct TargetSlot {
  IoTarget target;
  int fd = -1;
  bool writable = false;
  bool owns_fd = false;  ///< false: the guard's borrowed descriptor (IoTarget::fd)
  std::optional<BlockStatSource> block_stat;  ///< the kernel's counters; none for a file
  std::vector<std::unique_ptr<UringWorker>> workers;
};

class UringEngine final : public IoEngine {
 public:
  explicit UringEngine(std::vector<TargetSlot> slots) : slots_(std::move(slots)) {
    for (auto& s : slots_) s.block_stat = BlockStatSource::for_fd(s.fd);
  }
  ~UringEngine() override {
    for (auto& s : slots_) {
      s.workers.clear();  // joins the threads before the descriptor goes
      if (s.owns_fd) close(s.fd);
    }
  }

  core::Result<model::CellResult> run(const model::AccessSpec& requested, const std::atomic<bool>* abort,
                                      const ProgressFn& progress) override {
    last_phase_.reset();
    TargetSlot& slot = slots_.front();
    const IoTarget& target_ = slot.target;
    const int fd_ = slot.fd;
    const bool writable_ = slot.writable;
    auto& workers_ = slot.workers;
    auto& block_stat_ = slot.block_stat;
    model::AccessSpec spec = requested;
    if (spec.seed == 0) spec.seed = fresh_seed();
    if (!writable_ && spec.read_pct < 100)
      return core::bad_input("target " + target_.path + ": opened read-only, but the access spec writes");
    if (spec.bytes_limit == 0 && !(spec.seconds > 0))
      return core::bad_input("access spec: duration must be positive");
    auto plans = plan_workers(spec, target_);
    if (!plans) return plans.take_error();
    while (workers_.size() < spec.threads) workers_.push_back(std::make_unique<UringWorker>(fd_, writable_));

    CellControl control;
    control.abort = abort ? abort : &kNeverAbort;
    for (uint32_t w = 0; w < spec.threads; ++w) workers_[w]->start_cell(plans.value()[w], &control);
    {
      std::unique_lock<std::mutex> lock(control.mutex);
      control.changed.wait(lock, [&] { return control.ready == spec.threads; });
    }
    std::string setup_error;
    for (uint32_t w = 0; w < spec.threads; ++w)
      if (setup_error.empty() && !workers_[w]->setup_error().empty()) setup_error = workers_[w]->setup_error();
    if (!setup_error.empty()) control.cancelled = true;

    // The kernel's counters just before the first I/O and just after the last completion.
    const auto kernel0 = block_stat_ ? block_stat_->read() : std::nullopt;
    const CpuTimes cpu0 = process_cpu();
    const auto host0 = read_host_cpu();
    const uint64_t wall0 = core::wall_ns();
    control.t0_ns = core::monotonic_ns();
    control.deadline_ns = spec.bytes_limit ? UINT64_MAX : control.t0_ns + static_cast<uint64_t>(spec.seconds * 1e9);
    control.go.fetch_add(1);
    control.go.notify_all();
    std::vector<UringWorker*> running;
    for (uint32_t w = 0; w < spec.threads; ++w) running.push_back(workers_[w].get());
    wait_done(control, running, progress);
    const auto kernel1 = block_stat_ && kernel0 ? block_stat_->read() : std::nullopt;
    const uint64_t t_end = core::monotonic_ns();
    const CpuTimes cpu1 = process_cpu();
    const auto host1 = read_host_cpu();
    if (!setup_error.empty()) return core::Error(core::ErrorKind::Io, "engine setup: " + setup_error);

    std::vector<const WorkerStats*> stats;
    for (uint32_t w = 0; w < spec.threads; ++w) stats.push_back(&workers_[w]->stats());
    CpuTimes cpu{cpu1.user_seconds - cpu0.user_seconds, cpu1.system_seconds - cpu0.system_seconds,
                 static_cast<double>(t_end - control.t0_ns) / 1e9};
    model::CellResult result = summarize_cell(spec, stats, control.t0_ns, cpu);
    last_phase_ = merge_io_phases(stats);  // on core::monotonic_ns(), the clock the workers read
    result.started_wall_ns = wall0;
    if (host0 && host1) result.system_cpu_pct = host_cpu_busy_pct(*host0, *host1);
    completed_ios_ += result.read_ios + result.write_ios + result.io_errors;
    if (kernel0 && kernel1)
      result.kernel = kernel_delta(block_stat_->device(), *kernel0, *kernel1, block_stat_->in_flight_limit(),
                                   uint64_t{spec.threads} * spec.queue_depth);
    result.fidelity_flags = fidelity_flags(result);
    result.fidelity_not_judged = fidelity_not_judged(result);
    return result;
  }

  core::Result<model::CellResult> run_jobs(const std::vector<model::JobSpec>& requested, bool allow_overlap,
                                           const std::atomic<bool>* abort, const ProgressFn& progress) override;

  std::vector<model::JobTargetSize> job_targets() const override {
    std::vector<model::JobTargetSize> out;
    for (const auto& s : slots_) out.push_back({s.target.size_bytes, s.target.logical_block_bytes});
    return out;
  }

  std::optional<IoPhase> last_io_phase() const override { return last_phase_; }

  std::optional<IoCounters> counters() override {
    IoCounters c;
    c.engine_ios = completed_ios_;
    // The block layer's own count, beside the engine's: every target's, summed (all or none).
    uint64_t ios = 0, in_flight = 0;
    bool all = true;
    for (const auto& s : slots_) {
      const auto k = s.block_stat ? s.block_stat->read() : std::nullopt;
      if (!k) {
        all = false;
        break;
      }
      ios += k->v[BlockStatSample::kReadIos] + k->v[BlockStatSample::kWriteIos];
      in_flight += k->v[BlockStatSample::kInFlight];
    }
    if (all) {
      c.kernel_ios = ios;
      c.kernel_in_flight = in_flight;
    }
    return c;
  }

  std::string describe() const override {
    std::string flags;
    for (const auto& s : slots_)
      if (flags.empty() && !s.workers.empty()) flags = ", setup " + s.workers.front()->ring_flags();
    return std::string("io_uring (liburing ") + PTS_LIBURING_VERSION + flags + ", O_DIRECT, registered file and buffers)";
  }

 private:
  void wait_done(CellControl& control, const std::vector<UringWorker*>& running, const ProgressFn& progress) {
    const auto workers = static_cast<uint32_t>(running.size());
    std::unique_lock<std::mutex> lock(control.mutex);
    auto next_tick = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    while (control.done < workers) {
      if (!progress) {
        control.changed.wait(lock, [&] { return control.done == workers; });
        break;
      }
      if (control.changed.wait_until(lock, next_tick, [&] { return control.done == workers; })) break;
      next_tick += std::chrono::seconds(1);
      uint64_t ios = 0;
      for (UringWorker* w : running) ios += w->ios_done();
      const double elapsed = static_cast<double>(core::monotonic_ns() - control.t0_ns) / 1e9;
      lock.unlock();
      progress(elapsed, ios);
      lock.lock();
    }
  }

  std::vector<TargetSlot> slots_;
  uint64_t completed_ios_ = 0;  ///< every I/O of every run() so far (a run drains before it returns)
  std::optional<IoPhase> last_phase_;  ///< the last run()'s first submission and last completion
};

// A multi-job cell: every job's workers (drawn from its target's pool, a target's jobs one
// after another) wait at one barrier, start at one t0 and stop at one deadline; each job is
// summarized from its own workers, the cell from all of them.
core::Result<model::CellResult> UringEngine::run_jobs(const std::vector<model::JobSpec>& requested, bool allow_overlap,
                                                      const std::atomic<bool>* abort, const ProgressFn& progress) {
  last_phase_.reset();
  std::vector<std::string> errors = model::job_problems(requested, job_targets(), allow_overlap);
  std::vector<model::JobSpec> jobs = requested;
  std::vector<std::vector<WorkerPlan>> plans(jobs.size());
  for (size_t j = 0; j < jobs.size() && errors.empty(); ++j) {
    model::JobSpec& job = jobs[j];
    const TargetSlot& slot = slots_[job.target];
    if (job.spec.seed == 0) job.spec.seed = fresh_seed();
    if (!slot.writable && job.spec.read_pct < 100)
      errors.push_back("job \"" + job.id + "\": target " + slot.target.path + " is held for reading only, but the job writes");
    if (!job.spec.bytes_limit && !(job.spec.seconds > 0)) errors.push_back("job \"" + job.id + "\": duration must be positive");
    IoTarget range = slot.target;
    range.size_bytes = model::job_range_bytes(job, {slot.target.size_bytes, slot.target.logical_block_bytes});
    auto p = plan_workers(job.spec, range);
    if (!p.ok()) {
      for (const auto& m : p.error().messages) errors.push_back("job \"" + job.id + "\": " + m);
      continue;
    }
    shift_plans(p.value(), job.offset_bytes);
    plans[j] = std::move(p.value());
  }
  if (!errors.empty()) return core::Error(core::ErrorKind::BadInput, errors);

  // Workers of every job; the low-depth poll and a submission per I/O assume a CPU per
  // worker, which the cell's workers together must have.
  uint32_t total_threads = 0;
  for (const auto& j : jobs) total_threads += j.spec.threads;
  const bool cpu_each = total_threads < std::max(1u, std::thread::hardware_concurrency());
  std::vector<uint32_t> used(slots_.size(), 0);
  std::vector<std::vector<UringWorker*>> job_workers(jobs.size());
  std::vector<UringWorker*> running;
  for (size_t j = 0; j < jobs.size(); ++j) {
    TargetSlot& slot = slots_[jobs[j].target];
    for (WorkerPlan& p : plans[j]) {
      if (!cpu_each) p.completion_poll_ns = 0, p.probe_completion_wait = false, p.submit_each = false;
      if (used[jobs[j].target] == slot.workers.size())
        slot.workers.push_back(std::make_unique<UringWorker>(slot.fd, slot.writable));
      UringWorker* w = slot.workers[used[jobs[j].target]++].get();
      job_workers[j].push_back(w);
      running.push_back(w);
    }
  }
  CellControl control;
  control.abort = abort ? abort : &kNeverAbort;
  for (size_t j = 0; j < jobs.size(); ++j)
    for (size_t w = 0; w < plans[j].size(); ++w) job_workers[j][w]->start_cell(plans[j][w], &control);
  const auto total = static_cast<uint32_t>(running.size());
  {
    std::unique_lock<std::mutex> lock(control.mutex);
    control.changed.wait(lock, [&] { return control.ready == total; });
  }
  std::string setup_error;
  for (UringWorker* w : running)
    if (setup_error.empty() && !w->setup_error().empty()) setup_error = w->setup_error();
  if (!setup_error.empty()) control.cancelled = true;

  std::vector<std::optional<BlockStatSample>> kernel0(slots_.size());
  for (size_t t = 0; t < slots_.size(); ++t)
    if (slots_[t].block_stat) kernel0[t] = slots_[t].block_stat->read();
  const CpuTimes cpu0 = process_cpu();
  const uint64_t wall0 = core::wall_ns();
  control.t0_ns = core::monotonic_ns();
  control.deadline_ns = jobs.front().spec.bytes_limit
                            ? UINT64_MAX
                            : control.t0_ns + static_cast<uint64_t>(jobs.front().spec.seconds * 1e9);
  control.go.fetch_add(1);
  control.go.notify_all();
  wait_done(control, running, progress);
  std::vector<std::optional<BlockStatSample>> kernel1(slots_.size());
  for (size_t t = 0; t < slots_.size(); ++t)
    if (slots_[t].block_stat && kernel0[t]) kernel1[t] = slots_[t].block_stat->read();
  const uint64_t t_end = core::monotonic_ns();
  const CpuTimes cpu1 = process_cpu();
  if (!setup_error.empty()) return core::Error(core::ErrorKind::Io, "engine setup: " + setup_error);

  std::vector<uint32_t> jobs_on(slots_.size(), 0);
  for (const auto& j : jobs) ++jobs_on[j.target];
  std::vector<model::CellResult> results;
  std::vector<const WorkerStats*> all;
  for (size_t j = 0; j < jobs.size(); ++j) {
    const model::JobSpec& job = jobs[j];
    const TargetSlot& slot = slots_[job.target];
    std::vector<const WorkerStats*> stats;
    for (UringWorker* w : job_workers[j]) stats.push_back(&w->stats());
    all.insert(all.end(), stats.begin(), stats.end());
    model::CellResult r = summarize_cell(job.spec, stats, control.t0_ns, CpuTimes{0, 0, 0});
    r.cpu_usr_pct = r.cpu_sys_pct = 0;  // the process's CPU is the cell's, on the combined result
    r.cell_id = job.id;
    r.started_wall_ns = wall0;
    for (uint64_t& e : r.stream_end_bytes) e -= std::min(e, job.offset_bytes);
    r.job = model::JobPlacement{job.id, slot.target.path, job.target, job.offset_bytes,
                                model::job_range_bytes(job, {slot.target.size_bytes, slot.target.logical_block_bytes})};
    // The target's counters are this job's only when it is the target's one job.
    if (jobs_on[job.target] == 1 && kernel0[job.target] && kernel1[job.target])
      r.kernel = kernel_delta(slot.block_stat->device(), *kernel0[job.target], *kernel1[job.target],
                              slot.block_stat->in_flight_limit(), uint64_t{job.spec.threads} * job.spec.queue_depth);
    r.fidelity_flags = fidelity_flags(r);
    r.fidelity_not_judged = fidelity_not_judged(r);
    results.push_back(std::move(r));
  }
  CpuTimes cpu{cpu1.user_seconds - cpu0.user_seconds, cpu1.system_seconds - cpu0.system_seconds,
               static_cast<double>(t_end - control.t0_ns) / 1e9};
  model::CellResult cell = combine_jobs(std::move(results), all, control.t0_ns, cpu);
  cell.started_wall_ns = wall0;
  last_phase_ = merge_io_phases(all);
  completed_ios_ += cell.read_ios + cell.write_ios + cell.io_errors;
  return cell;
}

}  // namespace

model::EngineLimits uring_engine_limits() {
  model::EngineLimits l;
  l.engine = "the io_uring engine";
  l.max_queue_depth = 32768;                     // IORING_MAX_ENTRIES (CQ: 2 × entries ≤ 65536)
  l.max_buffer_bytes_per_worker = 1ull << 30;    // the kernel refuses a registered buffer > 1 GiB
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY && files.rlim_cur > 64)
    l.max_threads = static_cast<uint32_t>(std::min<rlim_t>(files.rlim_cur - 64, UINT32_MAX));
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) {
    l.max_buffer_bytes_total = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) / 2;
    l.buffer_total_reason = "half of this host's RAM";
  }
  rlimit lock{};
  if (!locked_memory_unbounded() && getrlimit(RLIMIT_MEMLOCK, &lock) == 0 &&
      (l.max_buffer_bytes_total == 0 || lock.rlim_cur < l.max_buffer_bytes_total)) {
    l.max_buffer_bytes_total = lock.rlim_cur;
    l.buffer_total_reason = "RLIMIT_MEMLOCK (ulimit -l) without CAP_IPC_LOCK";
  }
  l.min_cell_seconds = 0.01;
  return l;
}

namespace {

/// One target's slot: the borrowed descriptor checked, or the target opened for direct I/O.
core::Result<TargetSlot> open_slot(const IoTarget& target, bool writable) {
  TargetSlot slot;
  slot.target = target;
  slot.writable = writable;
  if (target.fd >= 0) {  // the guard's descriptor: never a second open by path
    const int flags = fcntl(target.fd, F_GETFL);
    if (flags < 0 || !(flags & O_DIRECT) || (writable && (flags & O_ACCMODE) != O_RDWR))
      return core::Error(core::ErrorKind::Internal, "target " + target.path +
                                                        ": the borrowed descriptor is not open for direct I/O" +
                                                        (writable ? " read-write" : ""));
    if (target.size_bytes == 0) return core::bad_input("target " + target.path + ": size unknown (0 bytes)");
    slot.fd = target.fd;
    return slot;
  }
  const int fd = open(target.path.c_str(), (writable ? O_RDWR : O_RDONLY) | O_DIRECT | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    std::string why = err == EINVAL ? "direct I/O (O_DIRECT) is not supported here; ptsuite never uses buffered I/O"
                                    : std::strerror(err);
    return core::Error(core::ErrorKind::BadInput, "target " + target.path + ": cannot open for direct I/O: " + why, err);
  }
  if (target.size_bytes == 0) {
    close(fd);
    return core::bad_input("target " + target.path + ": size unknown (0 bytes)");
  }
  slot.fd = fd;
  slot.owns_fd = true;
  return slot;
}

}  // namespace

core::Result<std::unique_ptr<IoEngine>> open_uring_engine(const IoTarget& target, bool writable) {
  return open_uring_engine(std::vector<IoTarget>{target}, std::vector<bool>{writable});
}

core::Result<std::unique_ptr<IoEngine>> open_uring_engine(const std::vector<IoTarget>& targets,
                                                          const std::vector<bool>& writable) {
  if (targets.empty() || writable.size() != targets.size())
    return core::Error(core::ErrorKind::Internal, "open_uring_engine: one writable flag per target");
  std::vector<TargetSlot> slots;
  for (size_t i = 0; i < targets.size(); ++i) {
    auto slot = open_slot(targets[i], writable[i]);
    if (!slot.ok()) {
      for (auto& s : slots)
        if (s.owns_fd) close(s.fd);
      return slot.error();
    }
    slots.push_back(std::move(slot.value()));
  }
  return std::unique_ptr<IoEngine>(std::make_unique<UringEngine>(std::move(slots)));
}

}  // namespace pts::engine
