// engine/completion_probe.h — the auto poll budget's measurement. At low depth, whether the
// issuing thread should poll for a completion or sleep until it arrives depends on the host
// and its load as much as on the device: polling keeps the issuing CPU from idling (its
// wake-up is added to every latency), but it may hold a CPU the completion needs (a loop
// device's kernel worker; under a hypervisor, the thread that serves a virtio disk). The same
// target has gone either way from one day to the next (docs/performance.md, "Completion probe
// at low depth"). So before a low-depth cell with the auto budget each worker reads at QD 1
// both ways, alternating in blocks of 20 ms, and polls (up to 1 ms) only if that was faster;
// the means and the choice are recorded with the cell. Reads only: the target's bytes are not
// changed.
// Above low depth the same question is asked at the cell's own depth (probe_depth_wait): a
// short spin (model::kDepthSpinNs) before sleeping spares the worker's CPU the halt and the
// IPI that wakes it for each completion, but holds a CPU the completion side may need. On a
// loop device over /dev/shm on this project's 2-vCPU VM the spin has paid at QD 8 and not at
// QD 32 (docs/performance.md, "Engine against fio"): which one wins depends on the depth and
// the host, so it is measured, not set.
// A template over the io_loop.h Queue concept, so the unit tests drive it on a fake device.
// May use: engine (std only beyond that).
#pragma once

#include <cstdint>

#include "engine/io_loop.h"
#include "engine/rng.h"

namespace pts::engine {

/// What the probe measured: the mean latency of its reads under each wait (0 = no probe).
struct CompletionProbe {
  uint64_t sleep_mean_ns = 0;
  uint64_t poll_mean_ns = 0;
  uint32_t reads_sleeping = 0, reads_polling = 0;  ///< measured reads (warm-up excluded)
  bool poll = false;        ///< polling was faster: the worker polls (up to the budget)
  bool ok = false;          ///< false: a read failed; the worker sleeps
};

inline constexpr uint32_t kProbeRounds = 4;
inline constexpr uint32_t kProbeMinReads = 16;  ///< per block, however long the reads take
inline constexpr uint32_t kProbeWarmup = 8;
/// Each block of one wait lasts at least this long, and only its reads after the first
/// kProbeSettleNs count: the way one waits takes milliseconds to show, and the previous
/// block's way lingers. On a virtio disk under this project's hypervisor polling read 85 us
/// against 92 us sleeping in blocks of 16 reads (1.5 ms), but 99-107 us against 59-61 us
/// (medians) in 50 ms cells and 117 against 70 us sustained (a vCPU that never idles slows
/// the thread serving the disk); on a loop device, sleeping reads right after a polling block
/// took 10 us, in a sleeping cell 20.6 us. 4 rounds of 2 x 20 ms: about 160 ms per probe.
inline constexpr uint64_t kProbeBlockNs = 20'000'000;
inline constexpr uint64_t kProbeSettleNs = 5'000'000;
inline constexpr uint64_t kProbeStream = 0x70726f6265ull;  ///< Rng stream no worker uses ("probe")

/// Reads `bytes` at random `bytes`-aligned offsets in [start, start + span) one at a time
/// (QD 1) from slot 0 into `buf`: kProbeWarmup reads, then kProbeRounds rounds of a block
/// sleeping and a block polling (up to `poll_budget_ns`, then sleeping), each block `block_ns`
/// long and at least kProbeMinReads counted reads after its first `settle_ns`, which of the two
/// goes first alternating by round. Latency: submission to reap. Polling wins if its mean is
/// lower.
template <class Queue>
CompletionProbe probe_completion_wait(Queue& q, uint8_t* buf, uint32_t bytes, uint64_t start, uint64_t span,
                                      uint64_t seed, uint64_t poll_budget_ns, uint64_t block_ns = kProbeBlockNs,
                                      uint64_t settle_ns = kProbeSettleNs) {
  CompletionProbe out;
  const uint64_t blocks = bytes ? span / bytes : 0;
  if (blocks == 0) return out;
  Rng rng(seed, kProbeStream);
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
  uint64_t sum[2] = {0, 0}, count[2] = {0, 0};
  for (uint32_t round = 0; round < kProbeRounds; ++round)
    for (uint32_t half = 0; half < 2; ++half) {
      const uint32_t poll = (round + half) % 2;
      const uint64_t t0 = q.now();
      for (uint32_t counted = 0; counted < kProbeMinReads || q.now() - t0 < block_ns;) {
        const bool settled = q.now() - t0 >= settle_ns;
        const int64_t ns = one(poll == 1);
        if (ns < 0) return out;
        if (!settled) continue;
        sum[poll] += static_cast<uint64_t>(ns);
        ++count[poll];
        ++counted;
      }
    }
  out.reads_sleeping = static_cast<uint32_t>(count[0]);
  out.reads_polling = static_cast<uint32_t>(count[1]);
  out.sleep_mean_ns = sum[0] / count[0];
  out.poll_mean_ns = sum[1] / count[1];
  out.poll = out.poll_mean_ns < out.sleep_mean_ns;
  out.ok = true;
  return out;
}

/// One block of the depth probe: reads at the cell's depth for a while, one way of waiting.
struct DepthBlock {
  uint64_t mean_ns = 0;  ///< the reads' mean latency (submission to reap); 0: a read failed
  uint64_t reads = 0;
};

/// Spinning must buy at least this much (percent lower mean latency) over sleeping: it costs
/// CPU, and the probe's blocks differ by up to ~8 % where the two ways are even (on the loop
/// device at QD 32 and 128 the means were within 3-8 % either way from run to run, at QD 8 the
/// spin was 23-53 % lower).
inline constexpr uint64_t kDepthSpinGainPct = 10;

/// Above low depth: `block(spin)` runs one block of reads at the cell's depth, spinning up to
/// model::kDepthSpinNs before each sleep or not, and reports the reads' mean latency. Runs
/// kProbeRounds rounds of one block each way, which goes first alternating by round; spinning
/// wins if the mean of its blocks' means is at least kDepthSpinGainPct lower (at a fixed
/// depth, lower mean latency is higher IOPS, by Little's law).
template <class Block>
CompletionProbe probe_depth_wait(Block block) {
  CompletionProbe out;
  uint64_t sum[2] = {0, 0}, reads[2] = {0, 0};
  for (uint32_t round = 0; round < kProbeRounds; ++round)
    for (uint32_t half = 0; half < 2; ++half) {
      const uint32_t spin = (round + half) % 2;
      const DepthBlock b = block(spin == 1);
      if (b.mean_ns == 0) return out;
      sum[spin] += b.mean_ns;
      reads[spin] += b.reads;
    }
  out.reads_sleeping = static_cast<uint32_t>(reads[0]);
  out.reads_polling = static_cast<uint32_t>(reads[1]);
  out.sleep_mean_ns = sum[0] / kProbeRounds;
  out.poll_mean_ns = sum[1] / kProbeRounds;
  out.poll = out.poll_mean_ns * 100 <= out.sleep_mean_ns * (100 - kDepthSpinGainPct);
  out.ok = true;
  return out;
}

}  // namespace pts::engine
