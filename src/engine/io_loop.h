// engine/io_loop.h — the submit/reap loop of one worker, as a template over the submission
// queue (io_uring in uring_worker.cpp, a scripted fake in the unit tests), the offset
// generator and the pacer, chosen once per cell so the loop has no configuration branches.
//
// What it guarantees (issue #9 "Queue depth held, latency per I/O"):
// - Refill on every completion: each wait asks for one completion and every reaped slot is
//   re-issued before the next wait, so the outstanding count stays at QD (fio's default
//   completion semantics; never a batch wait that lets the queue drain).
// - Each I/O's completion time is the clock read right after the wait that reaped it: its
//   own to within one reap loop, not the time the last of a batch arrived.
// - While every worker has a CPU of its own (plan.submit_each), each I/O is submitted on its
//   own io_uring_enter (fio's default iodepth_batch_submit=1), as soon as its slot is
//   refilled. Neighbouring I/Os submitted together are merged by the block layer's plug
//   (128 KiB sequential reads at QD 8 reached the device as ~300 KiB requests), and a batch
//   reaches the device as a burst: on a loop device, whose kernel worker serves requests in
//   turn, refilling a batch with one call left that worker idle between bursts
//   (docs/performance.md, "The mechanism on a quiet host"). When the workers outnumber the
//   CPUs they are CPU-bound: a call per I/O then costs each worker CPU the kernel's workers
//   need, so a refill's I/Os go in one submission, the wait's (the queue is refilled just the
//   same before every wait; docs/performance.md, "Four targets in one cell").
// - The worker's I/O phase (WorkerStats first_submit_ns, last_completion_ns): the clock read
//   just before its first submission, and the completion time of its last reaped I/O.
// - Polling (plan.completion_poll_ns > 0): after submitting, poll until a completion
//   arrives, up to the budget; only then sleep. The time polled is recorded (CPU it cost).
//   At low depth the budget is long (a whole NAND read); above it a short spin
//   (model::kDepthSpinNs); the auto budget measures whether either pays (completion_probe.h).
// - Paced: latency runs from each I/O's scheduled release time; the figure from submission
//   is kept beside it.
//
// The Queue concept (all times monotonic ns):
//   uint64_t now();                              the clock
//   void prep(uint32_t slot, bool is_read, uint8_t* buf, uint32_t bytes, uint64_t offset);
//   int submit();                                submit prepared I/Os, do not wait
//   int submit_and_wait(unsigned n);             submit, wait for n completions
//   int submit_and_wait_timeout(unsigned n, uint64_t ns);  ... at most ns (-ETIME)
//   void poll();                                 process completions once, never sleep
//   unsigned ready();                            completions waiting to be reaped
//   unsigned reap(IoCompletion* out, unsigned max);  take up to max completions
//   void sleep_until(uint64_t ns);               idle (paced, nothing in flight)
//   void broken();                               a fatal wait error: in-flight state unknown
// May use: core, engine (std only beyond that).
#pragma once

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

#include "engine/rate_pacer.h"
#include "engine/uring_worker.h"
#include "engine/workload.h"
#include "engine/write_data.h"

namespace pts::engine {

struct IoCompletion {
  uint32_t slot = 0;
  int res = 0;  ///< bytes transferred, or -errno
};

/// Per-slot bookkeeping of one in-flight I/O.
struct SlotState {
  uint64_t submit_ns = 0;
  uint64_t release_ns = 0;  ///< paced: the scheduled release time; else the submission time
  uint64_t offset = 0;
  uint32_t bytes = 0;
  uint32_t is_read = 0;
  uint32_t write_turn = 0;  ///< which of the slot's write buffers its next write takes
};

/// Memory the loop works in: the two buffer regions, and QD entries each of slot state and
/// the free-slot stack. A slot's read buffer is read_base + slot × plan.max_block_bytes; each
/// slot owns write_buffers_per_slot write buffers from write_base + slot × that many × the
/// stride on, and its writes take them in turn (a slot has one I/O in flight, so no buffer is
/// refilled while a write still carries it).
struct LoopMemory {
  uint8_t* read_base = nullptr;
  uint8_t* write_base = nullptr;
  SlotState* slots = nullptr;
  uint32_t* free_slots = nullptr;
  WriteData* write_data = nullptr;  ///< null only for read-only plans
  uint32_t write_buffers_per_slot = 1;
};

/// The cell's shared window: start, deadline and the abort flag.
struct LoopWindow {
  uint64_t t0_ns = 0;
  uint64_t deadline_ns = UINT64_MAX;
  const std::atomic<bool>* abort = nullptr;
};

inline std::string io_error_text(int err) { return std::strerror(err); }

template <class Queue, class Offsets, class Pacer>
void run_io_loop(const WorkerPlan& plan, const LoopWindow& window, Queue& q, const LoopMemory& mem,
                 WorkerStats& st, std::atomic<uint64_t>& ios_done, Offsets offsets, Pacer pacer) {
  constexpr uint64_t kNsPerSecond = 1000000000ull;
  constexpr unsigned kReapBatch = 64;
  Rng rng(plan.seed, plan.worker_index + 1);
  const uint32_t qd = plan.queue_depth;
  const uint32_t stride = plan.max_block_bytes;
  SlotState* const slots = mem.slots;
  uint32_t* const free_slots = mem.free_slots;
  for (uint32_t i = 0; i < qd; ++i) free_slots[i] = qd - 1 - i;
  uint32_t nfree = qd;
  const uint32_t write_turns = std::max<uint32_t>(1, mem.write_buffers_per_slot);
  uint32_t inflight = 0;
  uint64_t issued_bytes = 0;
  const uint64_t budget = plan.byte_budget;
  const uint64_t t0 = window.t0_ns;
  const uint64_t deadline = window.deadline_ns;
  const std::atomic<bool>& abort = *window.abort;
  const uint64_t poll_ns = Pacer::kEnabled ? 0 : plan.completion_poll_ns;
  uint64_t completed = 0;
  bool issuing = true;
  int submit_error = 0;  ///< a fatal error of an I/O's own submission
  st.wait_min = 1;
  pacer.start(t0);
  uint64_t now = q.now();

  for (;;) {
    uint32_t n = 0;
    if (issuing) {
      uint64_t room = nfree;
      if constexpr (Pacer::kEnabled) room = std::min<uint64_t>(room, pacer.allowed(now));
      while (n < room && issued_bytes < budget) {
        const uint32_t slot = free_slots[--nfree];
        const IoDraw d = draw_io(plan, rng, offsets);
        uint8_t* buf;
        if (d.is_read) {
          buf = mem.read_base + size_t{slot} * stride;
        } else {
          uint32_t& turn = slots[slot].write_turn;
          buf = mem.write_base + (size_t{slot} * write_turns + turn) * stride;
          if (++turn == write_turns) turn = 0;
          mem.write_data->fill(buf, d.bytes, rng.next());  // unique, incompressible
        }
        q.prep(slot, d.is_read, buf, d.bytes, d.offset);
        {  // one I/O per submission, or the refill's I/Os with the wait (see above)
          slots[slot].submit_ns = q.now();
          if (st.first_submit_ns == UINT64_MAX) st.first_submit_ns = slots[slot].submit_ns;
          if constexpr (!Pacer::kEnabled) slots[slot].release_ns = slots[slot].submit_ns;
          if (plan.submit_each) {
            const int r = q.submit();
            if (r < 0 && r != -EINTR && r != -EAGAIN && r != -EBUSY && submit_error == 0) submit_error = r;
            ++st.submissions;
          }
        }
        if constexpr (Pacer::kEnabled) slots[slot].release_ns = pacer.release_ns(pacer.issued() + n);
        slots[slot].offset = d.offset;
        slots[slot].bytes = d.bytes;
        slots[slot].is_read = d.is_read;
        ++n;
        issued_bytes += d.bytes;
      }
      if (issued_bytes >= budget) issuing = false;
      if (!plan.submit_each && n != 0) ++st.submissions;  // the wait below carries them
      pacer.issued(n);
    }
    inflight += n;
    if (inflight == 0) {
      if (!issuing) break;
      if constexpr (Pacer::kEnabled) {  // nothing due yet: sleep until the next release
        q.sleep_until(std::min(pacer.next_release_ns(), deadline));
        now = q.now();
        if (now >= deadline || abort.load(std::memory_order_relaxed)) break;
        continue;
      }
    }
    const uint64_t t_submit = q.now();
    int ret;
    if constexpr (Pacer::kEnabled) {
      // Wait for a completion, but wake for the next release while still issuing.
      const uint64_t release = std::min(pacer.next_release_ns(), deadline);
      if (issuing && nfree > 0 && release > t_submit) ret = q.submit_and_wait_timeout(1, release - t_submit);
      else ret = q.submit_and_wait((issuing && nfree > 0) ? 0 : 1);  // due now: just submit
    } else {
      if (poll_ns != 0) {
        // Low depth: poll until the I/O completes, up to the budget, before sleeping.
        ret = q.submit();
        if (ret >= 0 && q.ready() == 0) {
          const uint64_t poll_until = t_submit + poll_ns;
          do {
            q.poll();
          } while (q.ready() == 0 && q.now() < poll_until);
          st.poll_busy_ns += q.now() - t_submit;
          if (q.ready() == 0) {
            ++st.poll_expired;
            ret = q.submit_and_wait(1);
          }
        }
      } else {
        ret = q.submit_and_wait(1);  // refill on every completion
      }
    }
    if (submit_error != 0) ret = submit_error;
    if (ret < 0 && ret != -EINTR && ret != -ETIME && ret != -EAGAIN && ret != -EBUSY) {
      ++st.io_errors;
      if (st.first_error.empty()) st.first_error = "io_uring_enter failed: " + io_error_text(-ret);
      q.broken();  // in-flight state is unknown: the next cell starts afresh
      break;
    }
    now = q.now();
    IoCompletion done[kReapBatch];
    uint32_t reaped = 0;
    for (;;) {
      const unsigned got = q.reap(done, kReapBatch);
      if (got == 0) break;
      for (unsigned i = 0; i < got; ++i) {
        const uint32_t slot = done[i].slot;
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
        if (done[i].res != static_cast<int>(s.bytes)) [[unlikely]] {
          ++st.io_errors;
          issuing = false;  // stop on the first error, like fio's default
          if (st.first_error.empty()) {
            const int res = done[i].res;
            st.first_error = std::string(s.is_read ? "read" : "write") + " of " + std::to_string(s.bytes) +
                             " B at offset " + std::to_string(s.offset) + ": " +
                             (res < 0 ? io_error_text(-res) : "short transfer of " + std::to_string(res) + " B");
          }
        }
        free_slots[nfree++] = slot;
      }
      reaped += got;
    }
    inflight -= reaped;
    if (reaped != 0) st.last_completion_ns = now;
    completed += reaped;
    st.reaps += reaped != 0;
    const uint64_t second = (now - t0) / kNsPerSecond;
    if (second >= st.completions_per_second.size()) st.completions_per_second.resize(second + 1, 0);
    st.completions_per_second[second] += reaped;
    ios_done.store(completed, std::memory_order_relaxed);
    if (now >= deadline || abort.load(std::memory_order_relaxed)) issuing = false;
    if (!issuing && inflight == 0) break;
  }
  st.end_ns = now;
  st.stream_next_bytes = offsets.position();
}

}  // namespace pts::engine
