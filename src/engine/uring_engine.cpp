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

class UringEngine final : public IoEngine {
 public:
  UringEngine(IoTarget target, int fd, bool writable, bool owns_fd)
      : target_(std::move(target)), fd_(fd), writable_(writable), owns_fd_(owns_fd), block_stat_(BlockStatSource::for_fd(fd)) {
  }
  ~UringEngine() override {
    workers_.clear();  // joins the threads before the descriptor goes
    if (owns_fd_) close(fd_);
  }

  core::Result<model::CellResult> run(const model::AccessSpec& requested, const std::atomic<bool>* abort,
                                      const ProgressFn& progress) override {
    last_phase_.reset();
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
    wait_done(control, spec.threads, progress);
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

  std::optional<IoPhase> last_io_phase() const override { return last_phase_; }

  std::optional<IoCounters> counters() override {
    IoCounters c;
    c.engine_ios = completed_ios_;
    if (block_stat_)
      if (const auto k = block_stat_->read()) {  // the block layer's own count, beside the engine's
        c.kernel_ios = k->v[BlockStatSample::kReadIos] + k->v[BlockStatSample::kWriteIos];
        c.kernel_in_flight = k->v[BlockStatSample::kInFlight];
      }
    return c;
  }

  std::string describe() const override {
    std::string flags = workers_.empty() ? "" : ", setup " + workers_.front()->ring_flags();
    return std::string("io_uring (liburing ") + PTS_LIBURING_VERSION + flags + ", O_DIRECT, registered file and buffers)";
  }

 private:
  void wait_done(CellControl& control, uint32_t workers, const ProgressFn& progress) {
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
      for (uint32_t w = 0; w < workers; ++w) ios += workers_[w]->ios_done();
      const double elapsed = static_cast<double>(core::monotonic_ns() - control.t0_ns) / 1e9;
      lock.unlock();
      progress(elapsed, ios);
      lock.lock();
    }
  }

  IoTarget target_;
  int fd_;
  bool writable_;
  bool owns_fd_;  ///< false: the guard's borrowed descriptor (IoTarget::fd)
  std::optional<BlockStatSource> block_stat_;  ///< the kernel's counters; none for a file
  std::vector<std::unique_ptr<UringWorker>> workers_;
  uint64_t completed_ios_ = 0;  ///< every I/O of every run() so far (a run drains before it returns)
  std::optional<IoPhase> last_phase_;  ///< the last run()'s first submission and last completion
};

/// CAP_IPC_LOCK (bit 14) in this process's effective set: registered buffers are then not
/// charged to RLIMIT_MEMLOCK.
bool can_lock_memory() {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return false;
  char line[256];
  unsigned long long caps = 0;
  bool found = false;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "CapEff: %llx", &caps) == 1) {
      found = true;
      break;
    }
  std::fclose(f);
  return found && (caps & (1ull << 14));
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
  if (!can_lock_memory() && getrlimit(RLIMIT_MEMLOCK, &lock) == 0 && lock.rlim_cur != RLIM_INFINITY &&
      (l.max_buffer_bytes_total == 0 || lock.rlim_cur < l.max_buffer_bytes_total)) {
    l.max_buffer_bytes_total = lock.rlim_cur;
    l.buffer_total_reason = "RLIMIT_MEMLOCK (ulimit -l) without CAP_IPC_LOCK";
  }
  l.min_cell_seconds = 0.01;
  return l;
}

core::Result<std::unique_ptr<IoEngine>> open_uring_engine(const IoTarget& target, bool writable) {
  if (target.fd >= 0) {  // the guard's descriptor: never a second open by path
    const int flags = fcntl(target.fd, F_GETFL);
    if (flags < 0 || !(flags & O_DIRECT) || (writable && (flags & O_ACCMODE) != O_RDWR))
      return core::Error(core::ErrorKind::Internal, "target " + target.path +
                                                        ": the borrowed descriptor is not open for direct I/O" +
                                                        (writable ? " read-write" : ""));
    if (target.size_bytes == 0) return core::bad_input("target " + target.path + ": size unknown (0 bytes)");
    return std::unique_ptr<IoEngine>(std::make_unique<UringEngine>(target, target.fd, writable, false));
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
  return std::unique_ptr<IoEngine>(std::make_unique<UringEngine>(target, fd, writable, true));
}

}  // namespace pts::engine
