// engine/uring_worker.cpp — the worker thread and its submit/reap loop (see uring_worker.h).
// The loop itself is engine/io_loop.h, run here over the worker's io_uring (UringQueue).
#include "engine/uring_worker.h"

#include <fcntl.h>
#include <liburing.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "core/clock.h"
#include "engine/completion_probe.h"
#include "engine/io_loop.h"
#include "engine/rate_pacer.h"

namespace pts::engine {

namespace {

void* map_region(size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  madvise(p, bytes, MADV_HUGEPAGE);
  return p;
}

std::string errno_text(int err) { return std::strerror(err); }

/// Write buffers each slot takes in turn: enough that the write region spans
/// kWriteRotationBytes (at most kMaxWriteBuffersPerSlot per slot). Where the target's data path is a
/// CPU copying the data (a loop device's kernel worker; a virtio or emulated disk's host
/// thread), that CPU's cache holds a buffer it has just read, and refilling the same buffer
/// at once made every store of the fill take its cache line back from the other core; a
/// buffer reused only after a couple of MiB of other writes has left that core's private
/// cache. Measured on a loop device: docs/performance.md, "Write data".
constexpr size_t kWriteRotationBytes = 2u << 20;
constexpr uint32_t kMaxWriteBuffersPerSlot = 16;

uint32_t write_buffers_per_slot(size_t slot_region_bytes) {
  if (slot_region_bytes == 0 || !locked_memory_unbounded()) return 1;
  const size_t want = (kWriteRotationBytes + slot_region_bytes - 1) / slot_region_bytes;
  return static_cast<uint32_t>(std::min<size_t>(std::max<size_t>(want, 1), kMaxWriteBuffersPerSlot));
}

constexpr uint64_t kNsPerSecond = 1000000000ull;

}  // namespace

void WorkerStats::reset() {
  read_latency.clear();
  write_latency.clear();
  submission_latency.clear();
  read_ios = write_ios = read_bytes = write_bytes = 0;
  completions_per_second.assign(completions_per_second.size(), 0);
  end_ns = 0;
  first_submit_ns = UINT64_MAX;
  last_completion_ns = 0;
  stream_next_bytes = 0;
  io_errors = 0;
  first_error.clear();
  wait_min = 1;
  reaps = 0;
  submissions = 0;
  poll_busy_ns = 0;
  poll_expired = 0;
  completion_poll_ns = 0;
  probe_sleep_ns = probe_poll_ns = 0;
}

struct UringWorker::Ring {
  io_uring ring{};
  bool initialized = false;
  unsigned entries = 0;
  uint8_t* read_base = nullptr;   ///< registered buffer 0: reads land here
  uint8_t* write_base = nullptr;  ///< registered buffer 1: each write's data, filled per write
  size_t region_bytes = 0;        ///< size of the read region
  size_t write_region_bytes = 0;  ///< size of the write region: write_per_slot buffers per slot
  uint32_t write_per_slot = 1;
  bool buffers_registered = false;
  std::vector<SlotState> slots;
  std::vector<uint32_t> free_slots;
  WriteData write_data;  ///< each write's data, from the process's shared pool

  void release_buffers() {
    if (buffers_registered) io_uring_unregister_buffers(&ring);
    buffers_registered = false;
    if (read_base) munmap(read_base, region_bytes);
    if (write_base) munmap(write_base, write_region_bytes);
    read_base = write_base = nullptr;
    region_bytes = write_region_bytes = 0;
    write_per_slot = 1;
  }
  void close_ring() {
    release_buffers();
    // The registered file holds the target's open file description, and with it the guard's
    // flock; a ring's teardown after close is asynchronous, so without this a command run
    // right after this one could still find the lock held (1 refusal in 20 back-to-back
    // write-then-read runs). Unregistering drops it before this returns.
    if (initialized) io_uring_unregister_files(&ring);
    if (initialized) io_uring_queue_exit(&ring);
    initialized = false;
    entries = 0;
  }
  ~Ring() { close_ring(); }
};

namespace {

/// io_loop.h's Queue over one worker's ring: registered file 0, buffers 0 (reads) and
/// 1 (writes), the slot index as user_data.
struct UringQueue {
  io_uring* ring;
  bool failed = false;  ///< broken() was called: the worker closes the ring
  /// A trim workload (WorkerPlan::trim): the non-read I/Os are fallocate(PUNCH_HOLE |
  /// KEEP_SIZE) of their range (IORING_OP_FALLOCATE): on a file a hole, on a block device
  /// the kernel's zero-out without fallback (Write Zeroes that may deallocate: NVMe Write
  /// Zeroes with DEAC, a loop device punches its backing file), not BLKDISCARD. Success
  /// completes with 0, reported as the range's bytes.
  bool trim = false;
  const SlotState* slots = nullptr;
  uint64_t now() const { return core::monotonic_ns(); }
  void prep(uint32_t slot, bool is_read, uint8_t* buf, uint32_t bytes, uint64_t offset) {
    io_uring_sqe* sqe = io_uring_get_sqe(ring);  // never null: entries >= QD, all submitted
    if (is_read) io_uring_prep_read_fixed(sqe, 0, buf, bytes, offset, 0);
    else if (trim) [[unlikely]] io_uring_prep_fallocate(sqe, 0, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, offset, bytes);
    else io_uring_prep_write_fixed(sqe, 0, buf, bytes, offset, 1);
    sqe->flags |= IOSQE_FIXED_FILE;
    sqe->user_data = slot;
  }
  int submit() { return io_uring_submit(ring); }
  int submit_and_wait(unsigned n) { return io_uring_submit_and_wait(ring, n); }
  int submit_and_wait_timeout(unsigned n, uint64_t ns) {
    __kernel_timespec ts{static_cast<long long>(ns / kNsPerSecond), static_cast<long long>(ns % kNsPerSecond)};
    io_uring_cqe* cqe = nullptr;
    return io_uring_submit_and_wait_timeout(ring, &cqe, n, &ts, nullptr);
  }
  // One poll: run deferred completions; if none arrived, give this CPU to any runnable
  // thread (on a busy host that may be the one completing our I/O) — a no-op when idle.
  // Rule: no user-space spin on IORING_SQ_TASKRUN and no IORING_SETUP_TASKRUN_FLAG: with it a
  // reap pass posts completions stamped with the pass's earlier clock reading and lets the
  // queue drain before the refill (measured slower at QD 1 and QD 8: docs/performance.md).
  void poll() {
    io_uring_get_events(ring);
    if (io_uring_cq_ready(ring) == 0) sched_yield();
  }
  unsigned ready() { return io_uring_cq_ready(ring); }
  unsigned reap(IoCompletion* out, unsigned max) {
    io_uring_cqe* cqes[64];
    const unsigned got = io_uring_peek_batch_cqe(ring, cqes, std::min(max, 64u));
    for (unsigned i = 0; i < got; ++i) out[i] = {static_cast<uint32_t>(cqes[i]->user_data), cqes[i]->res};
    if (trim) [[unlikely]]
      for (unsigned i = 0; i < got; ++i)
        if (out[i].res == 0 && !slots[out[i].slot].is_read) out[i].res = static_cast<int32_t>(slots[out[i].slot].bytes);
    io_uring_cq_advance(ring, got);
    return got;
  }
  void sleep_until(uint64_t ns) {
    timespec ts{static_cast<time_t>(ns / kNsPerSecond), static_cast<long>(ns % kNsPerSecond)};
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr);
  }
  void broken() { failed = true; }
};

}  // namespace

bool locked_memory_unbounded() {
  static const bool unbounded = [] {
    rlimit lock{};
    if (getrlimit(RLIMIT_MEMLOCK, &lock) == 0 && lock.rlim_cur == RLIM_INFINITY) return true;
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
  }();
  return unbounded;
}

UringWorker::UringWorker(int fd, bool writable) : fd_(fd), writable_(writable), ring_(std::make_unique<Ring>()) {
  thread_ = std::thread([this] { thread_main(); });
}

UringWorker::~UringWorker() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    exit_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void UringWorker::start_cell(const WorkerPlan& plan, CellControl* control) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    plan_ = plan;
    control_ = control;
    has_cell_ = true;
  }
  wake_.notify_one();
}

void UringWorker::thread_main() {
  pthread_setname_np(pthread_self(), "ptsuite-io");
  for (;;) {
    WorkerPlan plan;
    CellControl* control = nullptr;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return has_cell_ || exit_; });
      if (exit_) {
        ring_->close_ring();  // here: only the thread that made the ring may unregister (SINGLE_ISSUER)
        return;
      }
      plan = plan_;
      control = control_;
      has_cell_ = false;
    }
    bool ok = prepare(plan);
    if (ok) {
      plan.completion_poll_ns = poll_budget_for(plan);
      ok = setup_error_.empty();
    }
    const uint32_t go_seen = control->go.load();
    {
      std::lock_guard<std::mutex> lock(control->mutex);
      ++control->ready;
      control->changed.notify_all();
    }
    control->go.wait(go_seen);
    if (ok && !control->cancelled.load()) run_cell(plan, *control);
    {  // notify under the lock: the runner may destroy `control` as soon as it sees done
      std::lock_guard<std::mutex> lock(control->mutex);
      ++control->done;
      control->changed.notify_all();
    }
  }
}

// Creates the ring with the best setup flags the kernel accepts, registers the target
// file, and (re)allocates the two buffer regions when the cell needs more than we have.
bool UringWorker::prepare(const WorkerPlan& plan) {
  setup_error_.clear();
  Ring& r = *ring_;
  const uint32_t qd = plan.queue_depth;
  if (!r.initialized || r.entries < qd) {
    r.close_ring();
    unsigned entries = 8;
    while (entries < qd) entries <<= 1;
    struct Attempt {
      unsigned flags;
      const char* name;
    };
    const Attempt attempts[] = {
        {IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_COOP_TASKRUN,
         "SINGLE_ISSUER|DEFER_TASKRUN|COOP_TASKRUN"},
        {IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN, "SINGLE_ISSUER|DEFER_TASKRUN"},
        {IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN, "SINGLE_ISSUER|COOP_TASKRUN"},
        {IORING_SETUP_COOP_TASKRUN, "COOP_TASKRUN"},
        {0, "none"},
    };
    int ret = -EINVAL;
    for (const auto& a : attempts) {
      io_uring_params params{};
      params.flags = a.flags | IORING_SETUP_CQSIZE;
      params.cq_entries = entries * 2;
      ret = io_uring_queue_init_params(entries, &r.ring, &params);
      if (ret == 0) {
        ring_flags_ = a.name;
        break;
      }
    }
    if (ret < 0) {
      setup_error_ = "io_uring_queue_init failed: " + errno_text(-ret);
      return false;
    }
    r.initialized = true;
    r.entries = entries;
    io_uring_register_ring_fd(&r.ring);  // optional speed-up; older kernels say no
    ret = io_uring_register_files(&r.ring, &fd_, 1);
    if (ret < 0) {
      setup_error_ = "io_uring_register_files failed: " + errno_text(-ret);
      r.close_ring();
      return false;
    }
  }
  const size_t need = static_cast<size_t>(qd) * plan.max_block_bytes;
  // Registered buffers are locked memory: the rotation is taken only where they are not held
  // to RLIMIT_MEMLOCK (write_buffers_per_slot), and shrinks, down to one buffer per slot, if
  // its region still cannot register; a region already registered is kept while it holds at
  // least one write buffer per slot.
  uint32_t per_slot = writable_ ? write_buffers_per_slot(need) : 1;
  if (r.region_bytes < need || r.write_region_bytes < need) {
    for (;;) {
      r.release_buffers();
      const size_t write_need = need * per_slot;
      r.read_base = static_cast<uint8_t*>(map_region(need));
      r.write_base = static_cast<uint8_t*>(map_region(write_need));
      if (!r.read_base || !r.write_base) {
        setup_error_ = "cannot allocate " + std::to_string(need + write_need) + " bytes of I/O buffers";
        r.release_buffers();
        return false;
      }
      r.region_bytes = need;
      r.write_region_bytes = write_need;
      iovec iov[2] = {{r.read_base, need}, {r.write_base, write_need}};
      const int ret = io_uring_register_buffers(&r.ring, iov, 2);
      if (ret == -ENOMEM && per_slot > 1) {
        per_slot /= 2;
        continue;
      }
      if (ret < 0) {
        setup_error_ = "io_uring_register_buffers failed: " + errno_text(-ret) +
                       (ret == -ENOMEM ? " (registered I/O buffers are locked memory: see ulimit -l)" : "");
        r.release_buffers();
        return false;
      }
      r.buffers_registered = true;
      break;
    }
  }
  r.write_per_slot = std::max<uint32_t>(1, std::min<size_t>(per_slot, r.write_region_bytes / need));
  if (writable_) r.write_data.reset();
  r.slots.assign(qd, SlotState{});
  r.free_slots.resize(qd);
  stats_.reset();
  ios_done_.store(0, std::memory_order_relaxed);
  return true;
}

uint64_t UringWorker::poll_budget_for(const WorkerPlan& plan) {
  stats_.completion_poll_ns = plan.completion_poll_ns;
  if (!plan.probe_completion_wait || plan.max_block_bytes == 0) return plan.completion_poll_ns;
  if (!plan.low_depth) return depth_spin_for(plan);
  // The answer is the host's, and a host's load changes: probed again once it is a minute old.
  if (!probe_ || core::monotonic_ns() - probe_at_ns_ > kProbeValidNs) {
    Ring& r = *ring_;
    UringQueue q{&r.ring};
    // Inside the I/O space: with AR segments its first segment, else the region itself.
    const bool segmented = !plan.segment_starts.empty();
    const uint64_t start = segmented ? plan.segment_starts.front() : plan.region_start;
    const uint64_t span = segmented ? plan.segment_bytes : plan.region_bytes;
    probe_ = std::make_unique<CompletionProbe>(probe_completion_wait(q, r.read_base, plan.max_block_bytes, start, span,
                                                                     plan.seed, model::kAutoPollBudgetNs));
    probe_at_ns_ = core::monotonic_ns();
    if (!probe_->ok && !reopen_after_failed_probe(plan)) return 0;
  }
  return adopt_probe(*probe_, model::kAutoPollBudgetNs);
}

bool UringWorker::reopen_after_failed_probe(const WorkerPlan& plan) {
  ring_->close_ring();  // a read failed, maybe still in flight: the cell starts on a fresh ring
  return prepare(plan);
}

uint64_t UringWorker::adopt_probe(const CompletionProbe& probe, uint64_t budget_ns) {
  stats_.probe_sleep_ns = probe.sleep_mean_ns;
  stats_.probe_poll_ns = probe.poll_mean_ns;
  stats_.completion_poll_ns = probe.ok && probe.poll ? budget_ns : 0;
  return stats_.completion_poll_ns;
}

uint64_t UringWorker::depth_spin_for(const WorkerPlan& plan) {
  // The answer depends on the depth and the host's load: probed again for another depth or
  // block size, or once it is a minute old.
  const bool stale = !depth_probe_ || depth_probe_qd_ != plan.queue_depth || depth_probe_bytes_ != plan.max_block_bytes ||
                     core::monotonic_ns() - depth_probe_at_ns_ > kProbeValidNs;
  if (stale) {
    Ring& r = *ring_;
    WorkerPlan reads = plan;  // the cell's depth, offsets and block sizes; reads only
    reads.read_threshold = uint64_t{1} << 32;
    reads.byte_budget = UINT64_MAX;
    reads.trim = false;
    reads.seed = plan.seed ^ kProbeStream;  // not the offsets the cell will draw
    WorkerStats scratch;
    std::atomic<uint64_t> scratch_done{0};
    const std::atomic<bool> never{false};
    bool failed = false;
    auto block = [&](bool spin) -> DepthBlock {
      if (failed) return {};
      reads.completion_poll_ns = spin ? model::kDepthSpinNs : 0;
      UringQueue q{&r.ring};
      q.slots = r.slots.data();
      const LoopMemory mem{r.read_base, r.write_base, r.slots.data(), r.free_slots.data(), nullptr};
      // A settling part first (the previous block's way lingers), then the measured part.
      for (const uint64_t ns : {kProbeSettleNs, kProbeBlockNs - kProbeSettleNs}) {
        scratch.reset();
        const uint64_t t0 = core::monotonic_ns();
        const LoopWindow window{t0, t0 + ns, &never};
        if (reads.sequential) run_io_loop(reads, window, q, mem, scratch, scratch_done, SequentialOffsets(reads), NoPacer{});
        else run_io_loop(reads, window, q, mem, scratch, scratch_done, RandomOffsets(reads), NoPacer{});
        if (q.failed || scratch.io_errors != 0) {
          failed = true;
          return {};
        }
      }
      return {static_cast<uint64_t>(scratch.read_latency.mean_ns()), scratch.read_ios};
    };
    depth_probe_ = std::make_unique<CompletionProbe>(probe_depth_wait(block));
    depth_probe_at_ns_ = core::monotonic_ns();
    depth_probe_qd_ = plan.queue_depth;
    depth_probe_bytes_ = plan.max_block_bytes;
    if (!depth_probe_->ok && !reopen_after_failed_probe(plan)) return 0;
  }
  return adopt_probe(*depth_probe_, model::kDepthSpinNs);
}

void UringWorker::run_cell(const WorkerPlan& plan, CellControl& control) {
  const bool random_arrivals = plan.arrival != model::Arrival::Fixed;
  if (plan.sequential) {
    if (plan.rate_iops > 0 && random_arrivals) loop(plan, control, SequentialOffsets(plan), arrival_pacer(plan));
    else if (plan.rate_iops > 0) loop(plan, control, SequentialOffsets(plan), RatePacer(plan.rate_iops));
    else loop(plan, control, SequentialOffsets(plan), NoPacer{});
  } else {
    if (plan.rate_iops > 0 && random_arrivals) loop(plan, control, RandomOffsets(plan), arrival_pacer(plan));
    else if (plan.rate_iops > 0) loop(plan, control, RandomOffsets(plan), RatePacer(plan.rate_iops));
    else loop(plan, control, RandomOffsets(plan), NoPacer{});
  }
}

template <class Offsets, class Pacer>
void UringWorker::loop(const WorkerPlan& plan, CellControl& control, Offsets offsets, Pacer pacer) {
  Ring& r = *ring_;
  UringQueue q{&r.ring};
  q.trim = plan.trim;
  q.slots = r.slots.data();
  const LoopMemory mem{r.read_base, r.write_base, r.slots.data(), r.free_slots.data(),
                       writable_ ? &r.write_data : nullptr, r.write_per_slot};
  const LoopWindow window{control.t0_ns, control.deadline_ns, control.abort};
  run_io_loop(plan, window, q, mem, stats_, ios_done_, offsets, pacer);
  if (q.failed) r.close_ring();  // in-flight state is unknown: the next cell starts a fresh ring
}

}  // namespace pts::engine
