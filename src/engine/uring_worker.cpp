// engine/uring_worker.cpp — the worker thread and its submit/reap loop (see uring_worker.h).
// The loop is a template over the offset generator and the pacer, chosen once per cell, so
// it has no configuration branches. One clock read before each submit (the submission time
// of the new I/Os) and one after each wait (the completion time of everything reaped).
#include "engine/uring_worker.h"

#include <liburing.h>
#include <pthread.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>

#include "core/clock.h"
#include "engine/rate_pacer.h"

namespace pts::engine {

namespace {

constexpr uint64_t kNsPerSecond = 1000000000ull;
constexpr unsigned kReapBatch = 64;

/// How many completions to wait for per io_uring_enter: one at low depth (latency), a
/// quarter of the depth (at most 16) at high depth, so each syscall submits and reaps a
/// batch like fio's iodepth_batch_complete_min.
uint32_t wait_batch_for(uint32_t queue_depth) {
  return std::clamp<uint32_t>(queue_depth / 4, 1, 16);
}

struct SlotState {
  uint64_t submit_ns = 0;
  uint64_t release_ns = 0;  ///< paced: the scheduled release time; else the submission time
  uint64_t offset = 0;
  uint32_t bytes = 0;
  uint32_t is_read = 0;
};

void* map_region(size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  madvise(p, bytes, MADV_HUGEPAGE);
  return p;
}

std::string errno_text(int err) { return std::strerror(err); }

}  // namespace

void WorkerStats::reset() {
  read_latency.clear();
  write_latency.clear();
  submission_latency.clear();
  read_ios = write_ios = read_bytes = write_bytes = 0;
  completions_per_second.assign(completions_per_second.size(), 0);
  end_ns = 0;
  stream_next_bytes = 0;
  io_errors = 0;
  first_error.clear();
  wait_min = 1;
  reaps = 0;
  poll_busy_ns = 0;
  poll_expired = 0;
}

struct UringWorker::Ring {
  io_uring ring{};
  bool initialized = false;
  unsigned entries = 0;
  uint8_t* read_base = nullptr;   ///< registered buffer 0: reads land here
  uint8_t* write_base = nullptr;  ///< registered buffer 1: random data, stamped per write
  size_t region_bytes = 0;        ///< size of each of the two regions
  bool buffers_registered = false;
  std::vector<SlotState> slots;
  std::vector<uint32_t> free_slots;
  std::vector<uint32_t> fresh;

  void release_buffers() {
    if (buffers_registered) io_uring_unregister_buffers(&ring);
    buffers_registered = false;
    if (read_base) munmap(read_base, region_bytes);
    if (write_base) munmap(write_base, region_bytes);
    read_base = write_base = nullptr;
    region_bytes = 0;
  }
  void close_ring() {
    release_buffers();
    if (initialized) io_uring_queue_exit(&ring);
    initialized = false;
    entries = 0;
  }
  ~Ring() { close_ring(); }
};

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
      if (exit_) return;
      plan = plan_;
      control = control_;
      has_cell_ = false;
    }
    const bool ok = prepare(plan);
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
  if (r.region_bytes < need) {
    r.release_buffers();
    r.read_base = static_cast<uint8_t*>(map_region(need));
    r.write_base = static_cast<uint8_t*>(map_region(need));
    if (!r.read_base || !r.write_base) {
      setup_error_ = "cannot allocate " + std::to_string(2 * need) + " bytes of I/O buffers";
      r.release_buffers();
      return false;
    }
    r.region_bytes = need;
    if (writable_) {  // incompressible: every byte from the generator
      Rng fill(plan.seed, 0x5eedull + plan.worker_index);
      auto* words = reinterpret_cast<uint64_t*>(r.write_base);
      for (size_t i = 0; i < need / sizeof(uint64_t); ++i) words[i] = fill.next();
    }
    iovec iov[2] = {{r.read_base, need}, {r.write_base, need}};
    const int ret = io_uring_register_buffers(&r.ring, iov, 2);
    if (ret < 0) {
      setup_error_ = "io_uring_register_buffers failed: " + errno_text(-ret);
      r.release_buffers();
      return false;
    }
    r.buffers_registered = true;
  }
  r.slots.assign(qd, SlotState{});
  r.free_slots.resize(qd);
  r.fresh.resize(qd);
  stats_.reset();
  ios_done_.store(0, std::memory_order_relaxed);
  return true;
}

void UringWorker::run_cell(const WorkerPlan& plan, CellControl& control) {
  if (plan.sequential) {
    if (plan.rate_iops > 0) loop(plan, control, SequentialOffsets(plan), RatePacer(plan.rate_iops));
    else loop(plan, control, SequentialOffsets(plan), NoPacer{});
  } else {
    if (plan.rate_iops > 0) loop(plan, control, RandomOffsets(plan), RatePacer(plan.rate_iops));
    else loop(plan, control, RandomOffsets(plan), NoPacer{});
  }
}

template <class Offsets, class Pacer>
void UringWorker::loop(const WorkerPlan& plan, CellControl& control, Offsets offsets, Pacer pacer) {
  Ring& r = *ring_;
  io_uring* ring = &r.ring;
  WorkerStats& st = stats_;
  Rng rng(plan.seed, plan.worker_index + 1);
  const uint32_t qd = plan.queue_depth;
  const uint32_t stride = plan.max_block_bytes;
  uint8_t* const read_base = r.read_base;
  uint8_t* const write_base = r.write_base;
  SlotState* const slots = r.slots.data();
  uint32_t* const free_slots = r.free_slots.data();
  uint32_t* const fresh = r.fresh.data();
  for (uint32_t i = 0; i < qd; ++i) free_slots[i] = qd - 1 - i;
  uint32_t nfree = qd;
  uint32_t inflight = 0;
  uint64_t issued_bytes = 0;
  const uint64_t budget = plan.byte_budget;
  const uint64_t t0 = control.t0_ns;
  const uint64_t deadline = control.deadline_ns;
  const std::atomic<bool>& abort = *control.abort;
  const uint32_t wait_batch = wait_batch_for(qd);
  const uint64_t poll_ns = plan.completion_poll_ns;
  uint64_t completed = 0;
  bool issuing = true;
  st.wait_min = poll_ns != 0 || Pacer::kEnabled ? 1 : wait_batch;
  pacer.start(t0);
  uint64_t now = core::monotonic_ns();

  for (;;) {
    uint32_t n = 0;
    if (issuing) {
      uint64_t room = nfree;
      if constexpr (Pacer::kEnabled) room = std::min<uint64_t>(room, pacer.allowed(now));
      while (n < room && issued_bytes < budget) {
        const uint32_t slot = free_slots[--nfree];
        const bool is_read = (rng.next() >> 32) < plan.read_threshold;
        const BlockChoice& block = draw_block(plan, rng);
        const uint64_t offset = offsets.next(rng, block);
        io_uring_sqe* sqe = io_uring_get_sqe(ring);  // never null: entries ≥ QD, all submitted
        if (is_read) {
          io_uring_prep_read_fixed(sqe, 0, read_base + size_t{slot} * stride, block.bytes, offset, 0);
        } else {
          uint8_t* buf = write_base + size_t{slot} * stride;
          for (uint32_t at = 0; at < block.bytes; at += 512) {  // unique data per write
            const uint64_t word = rng.next();
            std::memcpy(buf + at, &word, sizeof word);
          }
          io_uring_prep_write_fixed(sqe, 0, buf, block.bytes, offset, 1);
        }
        sqe->flags |= IOSQE_FIXED_FILE;
        sqe->user_data = slot;
        if constexpr (Pacer::kEnabled) slots[slot].release_ns = pacer.release_ns(pacer.issued() + n);
        slots[slot].offset = offset;
        slots[slot].bytes = block.bytes;
        slots[slot].is_read = is_read;
        fresh[n++] = slot;
        issued_bytes += block.bytes;
      }
      if (issued_bytes >= budget) issuing = false;
      pacer.issued(n);
    }
    inflight += n;
    if (inflight == 0) {
      if (!issuing) break;
      if constexpr (Pacer::kEnabled) {  // nothing due yet: sleep until the next release
        const uint64_t wake = std::min(pacer.next_release_ns(), deadline);
        timespec ts{static_cast<time_t>(wake / kNsPerSecond), static_cast<long>(wake % kNsPerSecond)};
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr);
        now = core::monotonic_ns();
        if (now >= deadline || abort.load(std::memory_order_relaxed)) break;
        continue;
      }
    }
    const uint64_t t_submit = core::monotonic_ns();
    for (uint32_t i = 0; i < n; ++i) {
      slots[fresh[i]].submit_ns = t_submit;
      if constexpr (!Pacer::kEnabled) slots[fresh[i]].release_ns = t_submit;
    }
    int ret;
    if constexpr (Pacer::kEnabled) {
      // Wait for a completion, but wake for the next release while still issuing.
      const uint64_t release = std::min(pacer.next_release_ns(), deadline);
      if (issuing && nfree > 0 && release > t_submit) {
        const uint64_t wait_ns = release - t_submit;
        __kernel_timespec ts{static_cast<long long>(wait_ns / kNsPerSecond), static_cast<long long>(wait_ns % kNsPerSecond)};
        io_uring_cqe* cqe = nullptr;
        ret = io_uring_submit_and_wait_timeout(ring, &cqe, 1, &ts, nullptr);
      } else {  // due now with a free slot: just submit; otherwise wait for a slot
        ret = io_uring_submit_and_wait(ring, (issuing && nfree > 0) ? 0 : 1);
      }
    } else if (poll_ns != 0) {
      // Low depth: submit, then poll (each io_uring_get_events runs deferred completions)
      // for up to poll_ns before sleeping, so this CPU does not idle between I/Os.
      ret = io_uring_submit(ring);
      if (ret >= 0 && io_uring_cq_ready(ring) == 0) {
        const uint64_t poll_until = t_submit + poll_ns;
        uint64_t t = t_submit;
        do {
          io_uring_get_events(ring);
        } while (io_uring_cq_ready(ring) == 0 && (t = core::monotonic_ns()) < poll_until);
        st.poll_busy_ns += t - t_submit;
        io_uring_cqe* cqe = nullptr;
        if (io_uring_cq_ready(ring) == 0) {
          ++st.poll_expired;
          ret = io_uring_wait_cqe(ring, &cqe);
        }
      }
    } else {
      ret = io_uring_submit_and_wait(ring, std::min(inflight, wait_batch));
    }
    if (ret < 0 && ret != -EINTR && ret != -ETIME && ret != -EAGAIN && ret != -EBUSY) {
      ++st.io_errors;
      if (st.first_error.empty()) st.first_error = "io_uring_enter failed: " + errno_text(-ret);
      r.close_ring();  // in-flight state is unknown: the next cell starts a fresh ring
      break;
    }
    now = core::monotonic_ns();
    io_uring_cqe* cqes[kReapBatch];
    uint32_t reaped = 0;
    for (;;) {
      const unsigned got = io_uring_peek_batch_cqe(ring, cqes, kReapBatch);
      if (got == 0) break;
      for (unsigned i = 0; i < got; ++i) {
        const auto slot = static_cast<uint32_t>(cqes[i]->user_data);
        const SlotState& s = slots[slot];
        // Paced: from the scheduled release, so waiting for a slot counts (no coordinated
        // omission); the figure from submission is kept beside it.
        const uint64_t latency_ns = now - s.release_ns;
        if constexpr (Pacer::kEnabled) st.submission_latency.record(now - s.submit_ns);
        if (s.is_read) {
          st.read_latency.record(latency_ns);
          ++st.read_ios;
          st.read_bytes += s.bytes;
        } else {
          st.write_latency.record(latency_ns);
          ++st.write_ios;
          st.write_bytes += s.bytes;
        }
        if (cqes[i]->res != static_cast<int>(s.bytes)) [[unlikely]] {
          ++st.io_errors;
          issuing = false;  // stop on the first error, like fio's default
          if (st.first_error.empty()) {
            const int res = cqes[i]->res;
            st.first_error = std::string(s.is_read ? "read" : "write") + " of " + std::to_string(s.bytes) +
                             " B at offset " + std::to_string(s.offset) + ": " +
                             (res < 0 ? errno_text(-res) : "short transfer of " + std::to_string(res) + " B");
          }
        }
        free_slots[nfree++] = slot;
      }
      io_uring_cq_advance(ring, got);
      reaped += got;
    }
    inflight -= reaped;
    completed += reaped;
    st.reaps += reaped != 0;
    const uint64_t second = (now - t0) / kNsPerSecond;
    if (second >= st.completions_per_second.size()) st.completions_per_second.resize(second + 1, 0);
    st.completions_per_second[second] += reaped;
    ios_done_.store(completed, std::memory_order_relaxed);
    if (now >= deadline || abort.load(std::memory_order_relaxed)) issuing = false;
    if (!issuing && inflight == 0) break;
  }
  st.end_ns = now;
  st.stream_next_bytes = offsets.position();
}

}  // namespace pts::engine
