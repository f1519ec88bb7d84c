// unit-tests/engine/io_loop_test.cpp — the worker loop (engine/io_loop.h) on a fake device
// with scripted completions in fake time: the outstanding count stays at QD at every wait and
// on the device the whole time,
// each I/O's recorded latency is its own (not the time the last of a batch arrived), low
// depth polls until the I/O completes up to the budget and records what polling cost, a
// paced run on a device made slow on purpose measures from the schedule, write data is
// unique per write, and the worker's I/O phase runs from its first submission to its last
// completion. The auto budget's completion probe (engine/completion_probe.h) on the same
// fake: it polls where a sleeping wait pays a wake-up, sleeps where polling costs more, and
// reads only, inside the range it was given.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <deque>
#include <functional>
#include <unordered_set>
#include <vector>

#include "engine/completion_probe.h"
#include "engine/io_loop.h"

using namespace pts;
using namespace pts::engine;

namespace {

/// A device whose I/O number k completes `latency(k)` after its submission, in fake time.
/// The clock moves only when the loop waits, polls or sleeps.
struct FakeDevice {
  std::function<uint64_t(uint64_t)> latency;
  uint64_t clock = 1'000'000;
  uint64_t poll_step_ns = 1'000;
  uint64_t wake_ns = 0;  ///< a wait that had to sleep returns this much after the completion
  int res_override = 0;  ///< nonzero: every completion carries this result (an I/O error)
  std::vector<uint64_t> offsets;  ///< every prepared I/O's offset
  uint64_t writes = 0;
  struct Io {
    uint32_t slot;
    uint32_t bytes;
    uint64_t index;
    uint64_t submit_ns;
    uint64_t done_ns;
  };
  std::vector<Io> prepared, inflight;
  std::deque<IoCompletion> cq;
  uint64_t next_index = 0;
  uint64_t true_latency_sum = 0;  ///< Σ (done - submit) of every I/O delivered
  uint64_t delivered = 0;
  struct Wait {
    uint64_t at_ns;
    size_t outstanding;  ///< submitted, not yet reaped
  };
  std::vector<Wait> waits;
  /// Σ in flight on the device × time, over [start, until): the kernel's "weighted time".
  uint64_t weighted_until = UINT64_MAX, inflight_ns = 0, watched_ns = 0;
  std::vector<uint8_t*> write_buffers_seen;
  std::vector<uint32_t> write_slots_seen;  ///< the slot of each write, beside its buffer
  uint64_t first_submit_ns = UINT64_MAX;  ///< when the first I/O reached the device
  uint64_t last_done_ns = 0;              ///< when the last delivered I/O completed

  uint64_t now() const { return clock; }
  void advance(uint64_t to) {
    const uint64_t end = std::min(to, weighted_until);
    if (end > clock) {
      inflight_ns += inflight.size() * (end - clock);
      watched_ns += end - clock;
    }
    clock = std::max(clock, to);
  }
  void prep(uint32_t slot, bool is_read, uint8_t* buf, uint32_t bytes, uint64_t offset) {
    prepared.push_back({slot, bytes, next_index++, 0, 0});
    offsets.push_back(offset);
    if (!is_read) {
      write_buffers_seen.push_back(buf);
      write_slots_seen.push_back(slot);
      ++writes;
    }
  }
  size_t largest_submission = 0;  ///< most I/Os one submit call carried to the device
  void flush() {
    largest_submission = std::max(largest_submission, prepared.size());
    for (Io io : prepared) {
      io.submit_ns = clock;
      first_submit_ns = std::min(first_submit_ns, clock);
      io.done_ns = clock + latency(io.index);
      inflight.push_back(io);
    }
    prepared.clear();
  }
  void deliver_due() {
    std::stable_sort(inflight.begin(), inflight.end(), [](const Io& a, const Io& b) { return a.done_ns < b.done_ns; });
    size_t n = 0;
    while (n < inflight.size() && inflight[n].done_ns <= clock) {
      cq.push_back({inflight[n].slot, res_override ? res_override : static_cast<int>(inflight[n].bytes)});
      true_latency_sum += inflight[n].done_ns - inflight[n].submit_ns;
      last_done_ns = std::max(last_done_ns, inflight[n].done_ns);
      ++delivered;
      ++n;
    }
    inflight.erase(inflight.begin(), inflight.begin() + static_cast<long>(n));
  }
  void note_wait() { waits.push_back({clock, inflight.size() + cq.size()}); }
  int submit() {
    flush();
    deliver_due();
    return 0;
  }
  int submit_and_wait(unsigned n) {
    flush();
    note_wait();
    deliver_due();
    const bool sleeps = cq.size() < n && !inflight.empty();
    while (cq.size() < n && !inflight.empty()) {
      advance(std::min_element(inflight.begin(), inflight.end(),
                               [](const Io& a, const Io& b) { return a.done_ns < b.done_ns; })->done_ns);
      deliver_due();
    }
    if (sleeps) advance(clock + wake_ns);
    return 0;
  }
  int submit_and_wait_timeout(unsigned n, uint64_t ns) {
    flush();
    note_wait();
    const uint64_t limit = clock + ns;
    deliver_due();
    while (cq.size() < n) {
      uint64_t next = UINT64_MAX;
      for (const Io& io : inflight) next = std::min(next, io.done_ns);
      if (next > limit) {
        advance(limit);
        return -ETIME;
      }
      advance(next);
      deliver_due();
    }
    return 0;
  }
  void poll() {
    advance(clock + poll_step_ns);
    deliver_due();
  }
  unsigned ready() const { return static_cast<unsigned>(cq.size()); }
  unsigned reap(IoCompletion* out, unsigned max) {
    unsigned n = 0;
    while (n < max && !cq.empty()) {
      out[n++] = cq.front();
      cq.pop_front();
    }
    return n;
  }
  void sleep_until(uint64_t ns) { advance(ns); }
  void broken() {}
};

/// Runs the loop over `dev` for `seconds` of fake time; returns the worker's stats.
struct LoopRun {
  WorkerPlan plan;
  WorkerStats stats;
  std::vector<uint8_t> reads, writes;
  std::vector<SlotState> slots;
  std::vector<uint32_t> free_slots;
  WriteData write_data;
  uint32_t write_buffers_per_slot = 1;
};

WorkerPlan plan_for(uint32_t qd, uint32_t read_pct, uint64_t rate_iops, uint64_t poll_ns) {
  model::AccessSpec spec;
  spec.queue_depth = qd;
  spec.read_pct = read_pct;
  spec.rate_iops = rate_iops;
  spec.seed = 42;
  auto plans = plan_workers(spec, IoTarget{"fake", 1ull << 30, 512});
  EXPECT_TRUE(plans.ok());
  WorkerPlan p = plans.value().front();
  p.completion_poll_ns = poll_ns;
  return p;
}

template <class Device>
void run(LoopRun& r, Device& dev, double seconds) {
  const uint32_t qd = r.plan.queue_depth;
  r.reads.assign(size_t{qd} * r.plan.max_block_bytes, 0);
  r.writes.assign(size_t{qd} * r.write_buffers_per_slot * r.plan.max_block_bytes, 0);
  r.slots.assign(qd, SlotState{});
  r.free_slots.assign(qd, 0);
  r.write_data.reset();
  const LoopMemory mem{r.reads.data(), r.writes.data(), r.slots.data(), r.free_slots.data(),
                       &r.write_data, r.write_buffers_per_slot};
  static const std::atomic<bool> never{false};
  const LoopWindow window{dev.clock, dev.clock + static_cast<uint64_t>(seconds * 1e9), &never};
  std::atomic<uint64_t> done{0};
  if (r.plan.sequential)
    run_io_loop(r.plan, window, dev, mem, r.stats, done, SequentialOffsets(r.plan), NoPacer{});
  else if (r.plan.rate_iops > 0)
    run_io_loop(r.plan, window, dev, mem, r.stats, done, RandomOffsets(r.plan), RatePacer(r.plan.rate_iops));
  else
    run_io_loop(r.plan, window, dev, mem, r.stats, done, RandomOffsets(r.plan), NoPacer{});
}

/// Latencies that differ per I/O and arrive out of order: 10 µs … 130 µs.
uint64_t scattered(uint64_t k) { return 10'000 + (k * 7919 % 13) * 10'000; }

}  // namespace

TEST(IoLoop, OutstandingCountStaysAtQueueDepthAtEveryWait) {
  for (uint32_t qd : {1u, 8u, 32u, 128u}) {
    FakeDevice dev;
    dev.latency = scattered;
    LoopRun r;
    r.plan = plan_for(qd, 100, 0, 0);
    const uint64_t deadline = dev.clock + 20'000'000;
    dev.weighted_until = deadline;
    run(r, dev, 0.02);
    // The device itself held QD the whole time (what /proc/diskstats would show): a loop
    // that waits for a batch lets it drain while it waits.
    ASSERT_EQ(dev.watched_ns, 20'000'000u);
    EXPECT_EQ(dev.inflight_ns, uint64_t{qd} * dev.watched_ns) << "QD " << qd << ": average in flight "
        << static_cast<double>(dev.inflight_ns) / static_cast<double>(dev.watched_ns);
    ASSERT_GT(dev.waits.size(), 100u) << "QD " << qd;
    size_t full = 0;
    for (const auto& w : dev.waits) {
      if (w.at_ns >= deadline) continue;  // the tail drains after the deadline
      EXPECT_EQ(w.outstanding, qd) << "QD " << qd << " at " << w.at_ns;
      ++full;
    }
    EXPECT_GT(full, 100u);
    EXPECT_EQ(r.stats.wait_min, 1u);
    EXPECT_EQ(r.stats.read_ios, dev.delivered);
  }
}

TEST(IoLoop, EachIoGetsItsOwnCompletionTime) {
  // At QD 32 the scripted latencies differ per I/O and complete out of order; the loop
  // must record each one's own latency: the sum of recorded latencies equals the sum of
  // the device's true ones exactly (the fake clock stands still while the loop reaps),
  // and min / max are the script's.
  FakeDevice dev;
  dev.latency = scattered;
  LoopRun r;
  r.plan = plan_for(32, 100, 0, 0);
  run(r, dev, 0.05);
  ASSERT_GT(r.stats.read_ios, 10'000u);
  EXPECT_EQ(r.stats.read_latency.samples(), dev.delivered);
  EXPECT_EQ(r.stats.read_latency.sum_ns(), dev.true_latency_sum);
  EXPECT_EQ(r.stats.read_latency.min_ns(), 10'000u);
  EXPECT_EQ(r.stats.read_latency.max_ns(), 130'000u);
  EXPECT_GT(r.stats.reaps, 0u);
}

/// 20 ms of QD 8 reads of scattered latency on `dev`.
LoopRun scattered_reads(FakeDevice& dev, bool sequential, bool submit_each) {
  dev.latency = scattered;
  LoopRun r;
  r.plan = plan_for(8, 100, 0, 0);
  r.plan.sequential = sequential;
  r.plan.submit_each = submit_each;
  run(r, dev, 0.02);
  return r;
}

TEST(IoLoop, EveryIoReachesTheDeviceInASubmissionOfItsOwn) {
  // Neighbouring I/Os submitted together are merged by the block layer's plug into larger
  // requests than the test's block size, and a batch reaches a device as a burst: every I/O,
  // sequential or random, is submitted on its own (fio's iodepth_batch_submit=1) and keeps
  // its own submission time (the latency sum stays the device's exactly).
  for (const bool sequential : {true, false}) {
    FakeDevice dev;
    const LoopRun r = scattered_reads(dev, sequential, true);
    ASSERT_GT(r.stats.read_ios, 1'000u);
    EXPECT_EQ(dev.largest_submission, 1u);
    EXPECT_EQ(r.stats.read_latency.sum_ns(), dev.true_latency_sum);
    EXPECT_EQ(r.stats.submissions, r.stats.read_ios);  // counted: one per I/O
  }
}

TEST(IoLoop, WorkersThatOutnumberTheCpusSubmitEachRefillInOneCallAndStillHoldTheQueue) {
  // submit_each false: the I/Os of a refill go to the device with the wait, in one call; the
  // queue is still refilled before every wait (each wait sees all QD outstanding), and the
  // stats count one submission per refill.
  FakeDevice dev;
  const LoopRun r = scattered_reads(dev, false, false);
  ASSERT_GT(r.stats.read_ios, 1'000u);
  EXPECT_GT(dev.largest_submission, 1u);
  EXPECT_LE(dev.largest_submission, 8u);
  ASSERT_FALSE(dev.waits.empty());
  // Every wait holds QD outstanding but those of the drain after the cell's end (at most QD).
  const auto held = std::count_if(dev.waits.begin(), dev.waits.end(), [](const auto& w) { return w.outstanding == 8; });
  EXPECT_GE(static_cast<size_t>(held) + 8, dev.waits.size());
  EXPECT_LT(r.stats.submissions, r.stats.read_ios);
  EXPECT_GE(r.stats.submissions + 8, dev.waits.size());  // a refill before every wait but the drain's
  EXPECT_EQ(r.stats.read_latency.sum_ns(), dev.true_latency_sum);
}

TEST(IoLoop, SubmitEachWhileEveryWorkerHasACpu) {
  model::AccessSpec spec;
  spec.threads = 1;
  EXPECT_TRUE(submit_each_for(spec, 2));
  spec.threads = 2;
  EXPECT_FALSE(submit_each_for(spec, 2));
  spec.threads = 4;
  EXPECT_FALSE(submit_each_for(spec, 2));
  EXPECT_TRUE(submit_each_for(spec, 8));
}

TEST(IoLoop, LowDepthPollsUntilTheIoCompletesWithinTheBudget) {
  // 80 µs reads, a 200 µs budget: every wait is a poll that ends with the completion, no
  // sleep; the CPU the polling cost is recorded and equals the time the I/Os took.
  FakeDevice dev;
  dev.latency = [](uint64_t) { return 80'000ull; };
  LoopRun r;
  r.plan = plan_for(1, 100, 0, 200'000);
  run(r, dev, 0.01);
  ASSERT_GT(r.stats.read_ios, 100u);
  EXPECT_EQ(r.stats.poll_expired, 0u);
  EXPECT_EQ(r.stats.poll_busy_ns, r.stats.read_ios * 80'000u);
  EXPECT_TRUE(dev.waits.empty()) << "slept in the kernel although the budget covered every I/O";
  EXPECT_EQ(r.stats.read_latency.sum_ns(), dev.true_latency_sum);
}

TEST(IoLoop, LowDepthSleepsOnceTheBudgetIsUsedUp) {
  // 300 µs reads, a 50 µs budget: each poll expires, then the loop sleeps for the rest;
  // the latency is still the I/O's own.
  FakeDevice dev;
  dev.latency = [](uint64_t) { return 300'000ull; };
  LoopRun r;
  r.plan = plan_for(1, 100, 0, 50'000);
  run(r, dev, 0.01);
  ASSERT_GT(r.stats.read_ios, 10u);
  EXPECT_EQ(r.stats.poll_expired, r.stats.read_ios);
  EXPECT_EQ(r.stats.poll_busy_ns, r.stats.read_ios * 50'000u);
  EXPECT_EQ(r.stats.read_latency.sum_ns(), r.stats.read_ios * 300'000u);
}

TEST(IoLoop, PacedLatencyRunsFromTheScheduleOnASlowDevice) {
  // 1000 IOPS asked of a QD 1 device that takes 2 ms per I/O: I/O k is due at k ms but can
  // only start when k-1 completes (2k ms) and completes at 2(k+1) ms, so its latency from
  // the schedule is (k + 2) ms while its latency from submission is 2 ms.
  FakeDevice dev;
  dev.latency = [](uint64_t) { return 2'000'000ull; };
  LoopRun r;
  r.plan = plan_for(1, 100, 1000, 0);
  run(r, dev, 0.1);
  const uint64_t n = r.stats.read_ios;
  ASSERT_EQ(n, 50u);  // 100 ms / 2 ms
  uint64_t expected = 0;
  for (uint64_t k = 0; k < n; ++k) expected += (k + 2) * 1'000'000;
  EXPECT_EQ(r.stats.read_latency.sum_ns(), expected);
  EXPECT_EQ(r.stats.submission_latency.samples(), n);
  EXPECT_EQ(r.stats.submission_latency.sum_ns(), n * 2'000'000);
}

TEST(IoLoop, PacedLatencyOnAFastDeviceIsTheDevicesOwn) {
  // The same schedule on a 300 µs device: every I/O starts on time, so both figures agree.
  FakeDevice dev;
  dev.latency = [](uint64_t) { return 300'000ull; };
  LoopRun r;
  r.plan = plan_for(1, 100, 1000, 0);
  run(r, dev, 0.1);
  ASSERT_GE(r.stats.read_ios, 99u);
  EXPECT_EQ(r.stats.read_latency.sum_ns(), r.stats.read_ios * 300'000u);
  EXPECT_EQ(r.stats.submission_latency.sum_ns(), r.stats.read_ios * 300'000u);
}

TEST(IoLoop, RecordsTheWorkersIoPhaseFromFirstSubmissionToLastCompletion) {
  FakeDevice dev;
  dev.latency = scattered;
  LoopRun r;
  r.plan = plan_for(8, 100, 0, 0);
  const uint64_t t0 = dev.clock;
  run(r, dev, 0.02);
  EXPECT_EQ(r.stats.first_submit_ns, dev.first_submit_ns);
  EXPECT_EQ(r.stats.first_submit_ns, t0);  // nothing moves the fake clock before it
  EXPECT_EQ(r.stats.last_completion_ns, dev.last_done_ns);
  EXPECT_GT(r.stats.last_completion_ns, t0 + 20'000'000u);  // the tail drains after the deadline
  EXPECT_EQ(r.stats.end_ns, r.stats.last_completion_ns);
  // Paced at 1000 IOPS with 10-130 us latencies and the deadline half-way between two
  // releases: the worker sleeps to the deadline after its last I/O completed.
  FakeDevice slow;
  slow.latency = scattered;
  LoopRun p;
  p.plan = plan_for(1, 100, 1000, 0);
  const uint64_t p0 = slow.clock;
  run(p, slow, 0.0105);
  EXPECT_EQ(p.stats.read_ios, 11u);  // released at 0, 1, ..., 10 ms
  EXPECT_EQ(p.stats.first_submit_ns, p0);
  EXPECT_EQ(p.stats.last_completion_ns, slow.last_done_ns);
  EXPECT_LT(p.stats.last_completion_ns, p0 + 10'200'000u);
  EXPECT_EQ(p.stats.end_ns, p0 + 10'500'000u);  // the measured duration's end
}

TEST(IoLoop, EveryWriteCarriesUniqueData) {
  // QD 4 writes reuse four slot buffers; each write's 8-byte words must never repeat any
  // word of another write (a drive that deduplicates or compresses finds nothing).
  FakeDevice dev;
  dev.latency = [](uint64_t) { return 20'000ull; };
  LoopRun r;
  r.plan = plan_for(4, 0, 0, 0);
  std::unordered_set<uint64_t> words;
  words.reserve(2'000'000);
  size_t total = 0;
  // Capture each write's contents as it is prepared (before the slot is reused).
  struct Capturing : FakeDevice {
    std::unordered_set<uint64_t>* words;
    size_t* total;
    void prep(uint32_t slot, bool is_read, uint8_t* buf, uint32_t bytes, uint64_t off) {
      for (uint32_t at = 0; at < bytes; at += 8) {
        uint64_t w;
        std::memcpy(&w, buf + at, 8);
        words->insert(w);
        ++*total;
      }
      FakeDevice::prep(slot, is_read, buf, bytes, off);
    }
  } cap;
  cap.latency = dev.latency;
  cap.words = &words;
  cap.total = &total;
  run(r, cap, 0.012);
  ASSERT_GT(r.stats.write_ios, 2000u);  // > 8 MiB: past the write-data pool many times
  EXPECT_EQ(total, r.stats.write_ios * 512);
  EXPECT_EQ(words.size(), total) << "some 8-byte word repeats across writes";
}

TEST(IoLoop, EachSlotTakesItsOwnWriteBuffersInTurn) {
  // QD 4 with 3 write buffers per slot: every write's buffer lies in its slot's own three
  // (a slot has one I/O in flight, so no buffer in flight is refilled), a slot's consecutive
  // writes take different ones, and all twelve are used.
  FakeDevice dev;
  dev.latency = scattered;
  LoopRun r;
  r.plan = plan_for(4, 0, 0, 0);
  r.write_buffers_per_slot = 3;
  run(r, dev, 0.005);
  ASSERT_GT(dev.write_buffers_seen.size(), 100u);
  const size_t stride = r.plan.max_block_bytes;
  std::vector<int64_t> last(4, -1);
  std::unordered_set<size_t> used;
  for (size_t i = 0; i < dev.write_buffers_seen.size(); ++i) {
    const size_t at = static_cast<size_t>(dev.write_buffers_seen[i] - r.writes.data());
    ASSERT_EQ(at % stride, 0u);
    const size_t index = at / stride;
    const uint32_t slot = dev.write_slots_seen[i];
    ASSERT_EQ(index / 3, slot) << "write " << i << " took buffer " << index << " of another slot";
    EXPECT_NE(static_cast<int64_t>(index), last[slot]) << "slot " << slot << " reused its buffer at once";
    last[slot] = static_cast<int64_t>(index);
    used.insert(index);
  }
  EXPECT_EQ(used.size(), 12u);
}

TEST(CompletionProbe, PollsWhereASleepingWaitPaysAWakeUp) {
  // 20 µs reads; a sleeping wait returns 15 µs after the completion (the idle CPU's wake-up),
  // polling sees it within 1 µs: the probe measures both and chooses to poll.
  FakeDevice dev;
  dev.latency = [](uint64_t) { return 20'000ull; };
  dev.wake_ns = 15'000;
  std::vector<uint8_t> buf(4096);
  const CompletionProbe p = probe_completion_wait(dev, buf.data(), 4096, 0, 1ull << 30, 7, 1'000'000);
  ASSERT_TRUE(p.ok);
  EXPECT_TRUE(p.poll);
  EXPECT_EQ(p.sleep_mean_ns, 35'000u);
  EXPECT_EQ(p.poll_mean_ns, 20'000u);
  // Blocks of kProbeBlockNs, the reads after the first kProbeSettleNs counted: 35 µs reads
  // from 5.005 ms on, 20 µs reads from 5 ms on, each block until 20 ms have passed.
  EXPECT_EQ(p.reads_sleeping, kProbeRounds * 429);
  EXPECT_EQ(p.reads_polling, kProbeRounds * 750);
}

TEST(CompletionProbe, SleepsWherePollingCostsMore) {
  // No wake-up cost, but each poll takes 30 µs (a CPU shared with the completing worker):
  // a 20 µs read is seen at 30 µs polling, at 20 µs sleeping.
  FakeDevice dev;
  dev.latency = [](uint64_t) { return 20'000ull; };
  dev.poll_step_ns = 30'000;
  std::vector<uint8_t> buf(4096);
  const CompletionProbe p = probe_completion_wait(dev, buf.data(), 4096, 0, 1ull << 30, 7, 1'000'000);
  ASSERT_TRUE(p.ok);
  EXPECT_FALSE(p.poll);
  EXPECT_EQ(p.sleep_mean_ns, 20'000u);
  EXPECT_EQ(p.poll_mean_ns, 30'000u);
}

TEST(CompletionProbe, ReadsOnlyOneAtATimeInsideItsRange) {
  FakeDevice dev;
  dev.latency = [](uint64_t) { return 10'000ull; };
  std::vector<uint8_t> buf(8192);
  const uint64_t start = 1ull << 20, span = 64 * 8192;
  // Short blocks, no settling: each holds its minimum of reads.
  const CompletionProbe p = probe_completion_wait(dev, buf.data(), 8192, start, span, 7, 1'000'000, 1, 0);
  ASSERT_TRUE(p.ok);
  EXPECT_EQ(dev.writes, 0u);
  EXPECT_EQ(p.reads_sleeping, kProbeRounds * kProbeMinReads);
  EXPECT_EQ(dev.offsets.size(), kProbeWarmup + 2 * kProbeRounds * kProbeMinReads);
  for (uint64_t o : dev.offsets) {
    EXPECT_GE(o, start);
    EXPECT_LT(o, start + span);
    EXPECT_EQ((o - start) % 8192, 0u);
  }
  for (const auto& w : dev.waits) EXPECT_LE(w.outstanding, 1u);
}

TEST(CompletionProbe, AFailedReadEndsTheProbeWithoutAChoice) {
  FakeDevice dev;
  dev.latency = [](uint64_t) { return 10'000ull; };
  dev.wake_ns = 15'000;
  dev.res_override = -5;  // EIO
  std::vector<uint8_t> buf(4096);
  const CompletionProbe p = probe_completion_wait(dev, buf.data(), 4096, 0, 1ull << 30, 7, 1'000'000);
  EXPECT_FALSE(p.ok);
  EXPECT_FALSE(p.poll);
  EXPECT_EQ(dev.offsets.size(), 1u);
}

/// The depth probe as the worker runs it: blocks of the loop itself at the plan's depth, reads
/// only, spinning up to model::kDepthSpinNs or sleeping.
CompletionProbe depth_probe_on(FakeDevice& dev) {
  return probe_depth_wait([&](bool spin) -> DepthBlock {
    LoopRun r;
    r.plan = plan_for(8, 100, 0, spin ? model::kDepthSpinNs : 0);
    run(r, dev, 0.005);
    if (r.stats.io_errors != 0) return {};
    return {static_cast<uint64_t>(r.stats.read_latency.mean_ns()), r.stats.read_ios};
  });
}

TEST(CompletionProbe, AtDepthSpinsWhereASleepingWaitPaysAWakeUp) {
  // QD 8 of reads each taking a quarter to three quarters of model::kDepthSpinNs (scattered),
  // so the next completion is inside the spin's reach; a sleeping wait returns 40 µs after
  // the completion (a halted vCPU's wake-up): spinning sees the next one without it.
  FakeDevice dev;
  dev.latency = [](uint64_t k) { return model::kDepthSpinNs / 4 + (k * 7919 % 13) * model::kDepthSpinNs / 24; };
  dev.wake_ns = 40'000;
  const CompletionProbe p = depth_probe_on(dev);
  ASSERT_TRUE(p.ok);
  EXPECT_TRUE(p.poll);
  EXPECT_LT(p.poll_mean_ns * 100, p.sleep_mean_ns * (100 - kDepthSpinGainPct));
  EXPECT_GT(p.reads_polling, p.reads_sleeping) << p.poll_mean_ns << " vs " << p.sleep_mean_ns;
  EXPECT_EQ(dev.writes, 0u);
}

TEST(CompletionProbe, AtDepthSleepsWhereSpinningCostsMore) {
  // No wake-up cost, but each poll step takes 30 µs (a CPU the completing worker needs).
  FakeDevice dev;
  dev.latency = [](uint64_t) { return 20'000ull; };
  dev.poll_step_ns = 30'000;
  const CompletionProbe p = depth_probe_on(dev);
  ASSERT_TRUE(p.ok);
  EXPECT_FALSE(p.poll);
  EXPECT_GT(p.poll_mean_ns, p.sleep_mean_ns);
}

TEST(CompletionProbe, AtDepthASpinThatGainsLessThanItsMarginSleeps) {
  // Blocks whose spinning mean is 5 % lower than sleeping: within the probe's noise, not worth
  // the CPU; 12 % lower: spins.
  for (const auto& [spin_ns, spins] : {std::pair{95'000ull, false}, std::pair{88'000ull, true}}) {
    const CompletionProbe p = probe_depth_wait([&](bool spin) { return DepthBlock{spin ? spin_ns : 100'000ull, 1000}; });
    ASSERT_TRUE(p.ok);
    EXPECT_EQ(p.poll, spins) << spin_ns;
    EXPECT_EQ(p.sleep_mean_ns, 100'000u);
    EXPECT_EQ(p.poll_mean_ns, spin_ns);
    EXPECT_EQ(p.reads_polling, kProbeRounds * 1000);
  }
}

TEST(CompletionProbe, AtDepthAFailedReadEndsTheProbeWithoutAChoice) {
  FakeDevice dev;
  dev.latency = [](uint64_t) { return 10'000ull; };
  dev.res_override = -5;  // EIO
  const CompletionProbe p = depth_probe_on(dev);
  EXPECT_FALSE(p.ok);
  EXPECT_FALSE(p.poll);
}
