// engine/completion_probe.h — the auto poll budget's measurement on a device whose completions
// are done by a kernel worker on this host's own CPUs (a loop device). There, whether the
// issuing thread should poll for a low-depth completion or sleep until it arrives depends on
// the host and its load, not on the device: polling keeps the issuing vCPU from idling (its
// wake-up is added to every latency), but it may hold the CPU the completing worker needs.
// Measured with bench/spec_vs_fio.py, 4 KiB randread QD 1 on a loop device over /dev/shm, on
// this project's 2-core VMs: polling read 117.1 k IOPS against 162.8 k sleeping one day,
// 91.3 k against 61.5 k on another, 6.7 k against 39.1 k at load 6-9, 55.0 k against 40.2 k
// on 2026-12-02. So before each such cell a worker reads a few hundred blocks each way,
// alternating (about 5 ms at 20 us a read), and polls only where that was faster; the medians
// and the choice are recorded with the cell. Reads only: the target's bytes are not changed.
// A template over the io_loop.h Queue concept, so the unit tests drive it on a fake device.
// May use: engine (std only beyond that).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "engine/io_loop.h"
#include "engine/rng.h"

namespace pts::engine {

/// What the probe measured: the median latency of its reads under each wait (0 = no probe).
struct CompletionProbe {
  uint64_t sleep_median_ns = 0;
  uint64_t poll_median_ns = 0;
  uint32_t reads_each = 0;  ///< measured reads per wait (warm-up excluded)
  bool poll = false;        ///< polling was faster: the worker polls (up to the budget)
  bool ok = false;          ///< false: a read failed; the worker sleeps
};

inline constexpr uint32_t kProbeRounds = 8;
inline constexpr uint32_t kProbeReadsPerRound = 16;
inline constexpr uint32_t kProbeWarmup = 8;
inline constexpr uint64_t kProbeStream = 0x70726f6265ull;  ///< Rng stream no worker uses ("probe")

/// Reads `bytes` at random `bytes`-aligned offsets in [start, start + span) one at a time
/// (QD 1) from slot 0 into `buf`: kProbeWarmup reads, then kProbeRounds rounds of
/// kProbeReadsPerRound reads sleeping and as many polling (up to `poll_budget_ns`, then
/// sleeping), which of the two goes first alternating by round. Latency: submission to reap.
template <class Queue>
CompletionProbe probe_completion_wait(Queue& q, uint8_t* buf, uint32_t bytes, uint64_t start, uint64_t span,
                                      uint64_t seed, uint64_t poll_budget_ns) {
  CompletionProbe out;
  const uint64_t blocks = bytes ? span / bytes : 0;
  if (blocks == 0) return out;
  Rng rng(seed, kProbeStream);
  std::vector<uint64_t> slept, polled;
  auto one = [&](bool poll) -> int64_t {
    const uint64_t offset = start + rng.below(blocks) * bytes;
    q.prep(0, true, buf, bytes, offset);
    const uint64_t t = q.now();
    int ret;
    if (poll) {
      ret = q.submit();
      while (ret >= 0 && q.ready() == 0 && q.now() - t < poll_budget_ns) q.poll();
      if (ret >= 0 && q.ready() == 0) ret = q.submit_and_wait(1);
    } else {
      ret = q.submit_and_wait(1);
    }
    IoCompletion c;
    if (ret < 0 || q.reap(&c, 1) != 1 || c.res != static_cast<int>(bytes)) return -1;
    return static_cast<int64_t>(q.now() - t);
  };
  for (uint32_t i = 0; i < kProbeWarmup; ++i)
    if (one(false) < 0) return out;
  for (uint32_t round = 0; round < kProbeRounds; ++round)
    for (uint32_t half = 0; half < 2; ++half) {
      const bool poll = (round + half) % 2 == 1;
      for (uint32_t i = 0; i < kProbeReadsPerRound; ++i) {
        const int64_t ns = one(poll);
        if (ns < 0) return out;
        (poll ? polled : slept).push_back(static_cast<uint64_t>(ns));
      }
    }
  auto median = [](std::vector<uint64_t>& v) {
    std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  out.reads_each = static_cast<uint32_t>(slept.size());
  out.sleep_median_ns = median(slept);
  out.poll_median_ns = median(polled);
  out.poll = out.poll_median_ns < out.sleep_median_ns;
  out.ok = true;
  return out;
}

}  // namespace pts::engine
