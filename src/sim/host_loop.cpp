// sim/host_loop.cpp — see host_loop.h. Events are (relative time << 16 | slot) keys in a
// min-queue, so ties resolve by slot number and the run is deterministic. Each worker keeps
// its I/Os drawn up to three batches ahead (its draw sequence does not depend on timing), which
// lets the drive prefetch their mapping entries when drawn and, a batch later, the validity
// word of the page each maps to: the two random memory accesses of a host write.
#include "sim/host_loop.h"

#include <algorithm>
#include <optional>
#include <queue>
#include <string>

#include "core/clock.h"
#include "engine/rate_pacer.h"
#include "engine/workload.h"

namespace pts::sim {

namespace {

constexpr uint64_t kNsPerSecond = 1'000'000'000ull;
/// Each worker draws its I/Os in batches of kBatch, kept in a ring of three batches: when
/// it starts on batch k it draws batch k + 2 and prefetches their mapping entries, and
/// (those of batch k + 1 having arrived by then) the validity words of the pages they map to.
/// The prefetches go out in tight bursts: a prefetch whose page translation misses the TLB
/// holds retirement until its page walk is done, so spread one per I/O they were served one
/// after another; a burst keeps many walks and misses in flight at once.
constexpr uint32_t kBatch = 16;
constexpr uint32_t kRing = 3 * kBatch;

using Draw = engine::IoDraw;

/// A paced worker's schedule: the fixed one, or the arrivals of a random process
/// (engine/rate_pacer.h, the io_uring engine's pacers).
struct Pacing {
  engine::RatePacer fixed{1.0};
  std::optional<engine::ArrivalPacer> arrivals;
  void start(uint64_t t0) { arrivals ? arrivals->start(t0) : fixed.start(t0); }
  uint64_t allowed(uint64_t t) { return arrivals ? arrivals->allowed(t) : fixed.allowed(t); }
  uint64_t next_release_ns() { return arrivals ? arrivals->next_release_ns() : fixed.next_release_ns(); }
  /// The scheduled release of the next I/O to issue.
  uint64_t due_ns() { return arrivals ? arrivals->release_ns(arrivals->issued()) : fixed.release_ns(fixed.issued()); }
  void issued() { arrivals ? arrivals->issued(1) : fixed.issued(1); }
};

struct Worker {
  const engine::WorkerPlan* plan = nullptr;
  engine::Rng rng;
  engine::RandomOffsets random;
  engine::SequentialOffsets sequential;
  Pacing pacer;
  bool paced = false;
  /// Paced: free slots waiting for a release. One of them (the waiter) has a wake-up event at
  /// the next release; the others are parked without one, so a lightly loaded worker costs an
  /// event per I/O, not one per free slot.
  bool waiter = false;
  std::vector<uint32_t> parked;
  bool issuing = true;
  uint64_t issued_bytes = 0;
  Draw ring[kRing];
  uint32_t head = 0;
  engine::WorkerStats* stats = nullptr;
  uint64_t end_ns = 0;

  explicit Worker(const engine::WorkerPlan& p)
      : plan(&p), rng(p.seed, p.worker_index + 1), random(p), sequential(p) {
    if (p.rate_iops > 0) {
      if (p.arrival == model::Arrival::Fixed) pacer.fixed = engine::RatePacer(p.rate_iops);
      else pacer.arrivals.emplace(engine::arrival_pacer(p));
      paced = true;
    }
  }
  void draw_batch(const Drive& drive, uint32_t at) {
    Draw* b = ring + at;
    for (uint32_t i = 0; i < kBatch; ++i)
      b[i] = plan->sequential ? engine::draw_io(*plan, rng, sequential) : engine::draw_io(*plan, rng, random);
    if (drive.warms())
      for (uint32_t i = 0; i < kBatch; ++i) drive.prefetch(b[i].offset);
  }
  void prefetch_old_batch(const Drive& drive, uint32_t at) {
    if (drive.warms())
      for (uint32_t i = 0; i < kBatch; ++i) drive.prefetch_old(ring[at + i].offset);
  }
  void fill(const Drive& drive) {
    draw_batch(drive, 0);
    draw_batch(drive, kBatch);
    prefetch_old_batch(drive, 0);
  }
  Draw next(const Drive& drive) {
    if (head % kBatch == 0) {
      const uint32_t k = head / kBatch;
      draw_batch(drive, (k + 2) % 3 * kBatch);
      prefetch_old_batch(drive, (k + 1) % 3 * kBatch);
    }
    const Draw d = ring[head];
    head = head + 1 == kRing ? 0 : head + 1;
    return d;
  }
};

/// Min-queue of event keys: a FIFO takes every key at or above its last one (completions of
/// writes through the buffer arrive in submission order, so a write workload never touches
/// the heap), a binary heap the rest. Pop returns the smaller of the two fronts.
class EventQueue {
 public:
  explicit EventQueue(size_t capacity) { ring_.resize(capacity + 1); }
  bool empty() const { return head_ == tail_ && heap_.empty(); }
  void push(uint64_t key) {
    if (head_ == tail_ || key >= back_) {
      ring_[tail_] = key;
      tail_ = tail_ + 1 == ring_.size() ? 0 : tail_ + 1;
      back_ = key;
    } else {
      heap_.push(key);
    }
  }
  uint64_t pop() {
    if (head_ != tail_ && (heap_.empty() || ring_[head_] < heap_.top())) {
      const uint64_t k = ring_[head_];
      head_ = head_ + 1 == ring_.size() ? 0 : head_ + 1;
      return k;
    }
    const uint64_t k = heap_.top();
    heap_.pop();
    return k;
  }

 private:
  std::vector<uint64_t> ring_;  ///< one more than the events that can be queued at once
  size_t head_ = 0, tail_ = 0;
  uint64_t back_ = 0;
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<uint64_t>> heap_;
};

struct Slot {
  uint32_t worker = 0;
  bool busy = false;
  bool waiting = false;  ///< its event is the worker's wake-up for the next release
  bool is_read = false;
  uint32_t bytes = 0;
  uint64_t submit_ns = 0;
  uint64_t release_ns = 0;  ///< paced: the I/O's scheduled release (latency runs from it)
};

}  // namespace

core::Status check_spec(const model::AccessSpec& spec, const engine::IoTarget&) {
  std::vector<std::string> e;
  if (uint64_t(spec.threads) * spec.queue_depth > kMaxSlots)
    e.push_back("the simulated drive's host model runs at most " + std::to_string(kMaxSlots) +
                " outstanding I/Os (TC x QD), not " + std::to_string(uint64_t(spec.threads) * spec.queue_depth));
  if (spec.bytes_limit == 0 && !(spec.seconds * 1e9 < double(kMaxCellNs)))
    e.push_back("a simulated cell lasts at most " + std::to_string(kMaxCellNs / kNsPerSecond) + " s of virtual time");
  if (!e.empty()) return core::Error(core::ErrorKind::BadInput, e);
  return core::ok_status();
}

core::Result<LoopOutcome> run_workload(Drive& drive, const model::AccessSpec& spec, const std::atomic<bool>* abort,
                                       const engine::ProgressFn& progress, uint64_t stop_at_event,
                                       std::vector<engine::WorkerStats>* stats) {
  std::vector<std::vector<engine::WorkerStats>> per_job;
  auto out = run_jobs_workload(drive, {SimJob{spec, 0, drive.capacity_bytes()}}, abort, progress, stop_at_event,
                               stats ? &per_job : nullptr);
  if (stats && out.ok()) *stats = std::move(per_job.front());
  return out;
}

core::Result<LoopOutcome> run_jobs_workload(Drive& drive, const std::vector<SimJob>& jobs,
                                            const std::atomic<bool>* abort, const engine::ProgressFn& progress,
                                            uint64_t stop_at_event,
                                            std::vector<std::vector<engine::WorkerStats>>* stats) {
  if (jobs.empty()) return core::Error(core::ErrorKind::Internal, "a simulated cell needs a job");
  std::vector<engine::WorkerPlan> all_plans;
  std::vector<size_t> job_of;  ///< the job of each plan
  uint64_t slots_total = 0;
  for (size_t j = 0; j < jobs.size(); ++j) {
    const engine::IoTarget target{"sim", jobs[j].size_bytes, drive.geometry().lba_bytes};
    if (auto ok = check_spec(jobs[j].spec, target); !ok.ok()) return ok.error();
    auto plans = engine::plan_workers(jobs[j].spec, target);
    if (!plans.ok()) return plans.error();
    engine::shift_plans(plans.value(), jobs[j].offset_bytes);
    for (auto& p : plans.value()) {
      slots_total += p.queue_depth;
      all_plans.push_back(std::move(p));
      job_of.push_back(j);
    }
  }
  if (slots_total > kMaxSlots)
    return core::bad_input("the simulated drive's host model runs at most " + std::to_string(kMaxSlots) +
                           " outstanding I/Os (TC x QD of all jobs), not " + std::to_string(slots_total));
  const auto* plans = &all_plans;
  const model::AccessSpec& spec = jobs.front().spec;

  // A cell that only writes lets the FTL hand its mapping updates to its map thread; the
  // FTL is whole again when this returns, however it returns.
  struct WriteCell {
    Drive& drive;
    bool on;
    ~WriteCell() {
      if (on) drive.end_write_cell();
    }
  } write_cell{drive, std::all_of(plans->begin(), plans->end(), [](const auto& p) { return p.read_threshold == 0 && !p.trim; })};
  if (write_cell.on) drive.begin_write_cell();

  LoopOutcome out;
  out.t0_ns = drive.now();
  const uint64_t t0 = out.t0_ns;
  const uint64_t deadline = spec.bytes_limit ? UINT64_MAX : t0 + static_cast<uint64_t>(spec.seconds * 1e9);
  std::vector<Worker> workers;
  workers.reserve(plans->size());
  if (stats) {
    stats->assign(jobs.size(), {});
    for (size_t w = 0; w < plans->size(); ++w) (*stats)[job_of[w]].emplace_back();
  }
  std::vector<Slot> slots;
  std::vector<size_t> next_in_job(jobs.size(), 0);
  for (size_t w = 0; w < plans->size(); ++w) {
    const auto& p = (*plans)[w];
    workers.emplace_back(p);
    Worker& wk = workers.back();
    if (stats) wk.stats = &(*stats)[job_of[w]][next_in_job[job_of[w]]++];
    wk.fill(drive);
    if (wk.paced) wk.pacer.start(t0);
    for (uint32_t q = 0; q < p.queue_depth; ++q) slots.push_back({static_cast<uint32_t>(workers.size() - 1)});
  }

  EventQueue heap(slots.size());
  for (uint32_t s = 0; s < slots.size(); ++s) heap.push(s);  // every slot issues at t0
  bool stopped = false;
  uint64_t completed = 0;
  uint64_t next_progress_check = 1 << 16;
  uint64_t real_last = progress ? core::monotonic_ns() : 0;

  while (!heap.empty()) {
    const uint64_t key = heap.pop();
    const uint64_t t = t0 + (key >> 16);
    const uint32_t s = static_cast<uint32_t>(key & 0xFFFF);
    if (!stopped && (out.events == stop_at_event ||
                     ((out.events & 1023) == 0 && abort && abort->load(std::memory_order_relaxed)))) {
      stopped = true;
      out.stopped_at_event = out.events;
    }
    ++out.events;
    Slot& slot = slots[s];
    Worker& w = workers[slot.worker];
    if (slot.busy) {  // a completion
      slot.busy = false;
      ++completed;
      w.end_ns = t;
      if (engine::WorkerStats* st = w.stats) {
        // Each completion is taken on its own and refills its slot at once (wait_min 1, one
        // completion per reap): what this loop does, so the record's completion figures are
        // the simulator's own, not the io_uring engine's zeros. It never polls.
        ++st->reaps;
        st->last_completion_ns = t;
        // Paced: from the scheduled release, so a drive that falls behind is charged for the
        // wait (no coordinated omission); the figure from submission is kept beside it.
        const uint64_t latency = t - (w.paced ? slot.release_ns : slot.submit_ns);
        if (w.paced) st->submission_latency.record(t - slot.submit_ns);
        if (slot.is_read) {
          st->read_latency.record(latency);
          ++st->read_ios;
          st->read_bytes += slot.bytes;
        } else {
          st->write_latency.record(latency);
          ++st->write_ios;
          st->write_bytes += slot.bytes;
        }
        const uint64_t second = (t - t0) / kNsPerSecond;
        if (second >= st->completions_per_second.size()) st->completions_per_second.resize(second + 1, 0);
        ++st->completions_per_second[second];
      }
    }
    if (stopped || t >= deadline) w.issuing = false;
    if (!w.issuing) continue;
    if (w.issued_bytes >= w.plan->byte_budget) {
      w.issuing = false;
      continue;
    }
    uint64_t release_ns = t;
    if (w.paced) {
      if (slot.waiting) {
        slot.waiting = false;
        w.waiter = false;
      }
      if (w.pacer.allowed(t) == 0) {  // not due yet: wait for the release, or park
        if (w.waiter) {
          w.parked.push_back(s);
          continue;
        }
        w.waiter = slot.waiting = true;
        const uint64_t release = std::min(w.pacer.next_release_ns(), deadline);
        heap.push(((release - t0) << 16) | s);
        continue;
      }
      release_ns = w.pacer.due_ns();
      w.pacer.issued();
      if (!w.waiter && !w.parked.empty()) {  // a parked slot waits for the next release
        const uint32_t p = w.parked.back();
        w.parked.pop_back();
        w.waiter = slots[p].waiting = true;
        const uint64_t release = std::max(t, std::min(w.pacer.next_release_ns(), deadline));
        heap.push(((release - t0) << 16) | p);
      }
    }
    const Draw d = w.next(drive);
    const uint64_t done = d.is_read       ? drive.submit_read(t, d.offset, d.bytes)
                          : w.plan->trim ? drive.submit_trim(t, d.offset, d.bytes)
                                         : drive.submit_write(t, d.offset, d.bytes);
    w.issued_bytes += d.bytes;
    if (done == Drive::kFailed) {  // stop this worker on its first error, like fio's default
      w.issuing = false;
      if (w.stats) {
        ++w.stats->io_errors;
        if (w.stats->first_error.empty())
          w.stats->first_error = std::string(d.is_read ? "read" : w.plan->trim ? "trim" : "write") + " of " + std::to_string(d.bytes) +
                                 " B at offset " + std::to_string(d.offset) + ": " + drive.failure_reason(d.is_read);
      }
      continue;
    }
    if (done - t0 >= kMaxCellNs) [[unlikely]] {  // cannot be keyed: end the cell here
      for (auto& other : workers) other.issuing = false;
      stopped = true;
      if (out.error.empty())
        out.error = "the cell ran past " + std::to_string(kMaxCellNs / kNsPerSecond) + " s of virtual time";
      w.end_ns = std::max(w.end_ns, t);
      continue;
    }
    slot.busy = true;
    slot.is_read = d.is_read;
    slot.bytes = d.bytes;
    slot.submit_ns = t;
    slot.release_ns = release_ns;
    if (w.stats) w.stats->first_submit_ns = std::min(w.stats->first_submit_ns, t);
    heap.push(((done - t0) << 16) | s);
    if (progress && out.events >= next_progress_check) {
      next_progress_check = out.events + (1 << 16);
      const uint64_t real_now = core::monotonic_ns();
      if (real_now - real_last >= kNsPerSecond) {
        real_last = real_now;
        progress(static_cast<double>(t - t0) / 1e9, completed);
      }
    }
  }
  out.end_ns = t0;
  for (auto& w : workers) {
    out.end_ns = std::max(out.end_ns, w.end_ns);
    if (w.stats) w.stats->end_ns = w.end_ns;
  }
  drive.advance_to(out.end_ns);
  return out;
}

}  // namespace pts::sim
