// model/access_spec.h — one access specification ("cell stimulus"): plain data that the
// engine executes and the run record stores. Validation lives in config/. May use: core.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/ar_segments.h"

namespace pts::model {

enum class AccessPattern { Random, Sequential };

/// How a paced spec (rate_iops > 0) releases its I/Os around the rate (VDbench's
/// `distribution=`): Fixed = every 1 / rate; Exponential = exponentially distributed gaps of
/// mean 1 / rate (Poisson arrivals, VDbench's default); Uniform = gaps uniform in [0, 2 / rate].
enum class Arrival { Fixed, Exponential, Uniform };

/// One entry of a block-size split: `percent` of I/Os use `bytes`.
struct BlockSizeShare {
  uint32_t bytes = 0;
  uint32_t percent = 0;
};

/// One zone of the zoned random distribution (fio's `random_distribution=zoned`): `io_pct`
/// of the I/Os go, uniformly, to the next `range_pct` of the ActiveRange. Zones follow each
/// other from the start of the ActiveRange in the order given (ECW: 50/5, 30/15, 20/80).
struct AccessZone {
  uint32_t io_pct = 0;     ///< share of the I/Os, percent (all zones sum to 100)
  double range_pct = 0;    ///< share of the ActiveRange, percent (all zones sum to 100)
};

/// A poll budget of "auto" (the default, `--poll-budget auto`): before a low-depth cell each
/// worker measures polling (up to kAutoPollBudgetNs) against sleeping on the target and polls
/// only if that was faster (engine/completion_probe.h), because which one wins depends on the
/// host and its load as much as on the device (figures: docs/performance.md). 1 ms covers a
/// NAND read (50–150 µs) and a cached write many times over.
inline constexpr uint64_t kPollBudgetAuto = UINT64_MAX;
inline constexpr uint64_t kAutoPollBudgetNs = 1'000'000;
/// Above low depth the auto budget's poll is a short spin: with several I/Os in flight the
/// next completion is usually microseconds away, and a thread that polls that long keeps its
/// CPU from halting between completions (a halted vCPU is woken by an IPI), while a longer
/// poll would hold the CPU the completion side needs. Measured per cell (completion_probe.h).
/// 2 µs: the spin pays where a completion is that close; a longer one burns its budget in
/// the gaps and meets fio-peer's IOPS and CPU per I/O together in fewer rounds (issue #28;
/// the sweep in docs/performance.md, "Not settled").
inline constexpr uint64_t kDepthSpinNs = 2'000;
/// The low-depth completion poll budget unless a definition or the operator sets one.
inline constexpr uint64_t kDefaultPollBudgetNs = kPollBudgetAuto;
inline constexpr uint64_t kMaxPollBudgetUs = 1'000'000;  ///< the largest budget accepted: 1 s

/// A workload the engine runs for a duration or a byte budget. TC = threads, QD =
/// queue_depth per thread (total OIO = TC × QD).
struct AccessSpec {
  AccessPattern pattern = AccessPattern::Random;
  uint32_t read_pct = 100;               ///< R/W mix: share of reads, decided per I/O
  uint32_t block_bytes = 4096;           ///< single block size (ignored if bs_split is set)
  std::vector<BlockSizeShare> bs_split;  ///< optional block-size mix (shares sum to 100)
  uint32_t threads = 1;                  ///< TC
  uint32_t queue_depth = 1;              ///< QD per thread
  double seconds = 60.0;                 ///< duration; ignored when bytes_limit > 0
  uint64_t bytes_limit = 0;              ///< stop after this many bytes (WIPC 2× capacity)
  double active_range_pct = 100.0;       ///< ActiveRange, % of the target's LBAs from LBA 0
  std::vector<AccessZone> zones;         ///< random access only; empty = uniform over the ActiveRange
  /// Client AR segmentation: I/Os touch only these segments of the ActiveRange (random:
  /// a segment, then a block in it; sequential: the segments in LBA order, as one space).
  ArSegmentation ar_segments;
  /// Sequential only: where each stream (one per thread) starts, a byte offset inside its
  /// slice of the ActiveRange — the previous sequential run's CellResult::stream_end_bytes,
  /// so SEQ cells sweep the ActiveRange across cells and Rounds. Empty = every stream at the
  /// start of its slice.
  std::vector<uint64_t> stream_start_bytes;
  uint64_t rate_iops = 0;                ///< pacing target for all threads; 0 = unthrottled
  /// Paced only: the arrival process around rate_iops (each thread draws its own gaps from the
  /// cell's seed, so the threads together arrive at rate_iops with the same distribution).
  Arrival arrival = Arrival::Fixed;
  /// Low depth (TC×QD ≤ 4, unthrottled): after each submit the worker polls for the
  /// completion up to this long before sleeping, so a fast device's latency never carries
  /// a CPU wake-up (definition [engine] poll_budget_us, --poll-budget). 0 = never poll;
  /// kPollBudgetAuto = by the target (engine: 1 ms, 0 on a loop device).
  uint64_t poll_budget_ns = kDefaultPollBudgetNs;
  uint64_t seed = 0;                     ///< 0 = pick one; the engine records what it used
  /// A trim workload (fio's `trim` / `randtrim`): the I/Os that are not reads deallocate
  /// their blocks instead of writing them (counted with the writes).
  bool trim = false;
};

/// "randread", "randwrite", "randrw", "read", "write", "rw", "trim", "randtrim" for a spec (fio-like).
std::string rw_name(const AccessSpec& spec);

/// "fixed", "exponential", "uniform".
const char* arrival_name(Arrival a);
/// The arrival process a name stands for; false for an unknown name.
bool parse_arrival(const std::string& name, Arrival& out);

/// Largest block size the spec can issue.
uint32_t max_block_bytes(const AccessSpec& spec);

/// A block-size split renormalised to 100 % after some of its sizes were left out (ECW's sizes
/// below a 4096-byte LBA): every kept share is scaled by 100 / (sum of the kept shares), so the
/// kept sizes keep their proportions, then rounded to whole percent by largest remainder (each
/// share is floored, and the points still missing go one each to the largest fractional parts,
/// the earlier entry first on a tie), because the engine takes whole percent summing to 100.
/// Empty when `kept` is empty or its shares sum to 0.
std::vector<BlockSizeShare> renormalised_split(const std::vector<BlockSizeShare>& kept);

/// "4 KiB 67 %, 8 KiB 10 %, …" for a split; the block size for a single-size spec.
std::string block_size_text(const AccessSpec& spec);

/// Problems with a zone list, in words ("zone shares of the I/Os sum to 90 %, not 100 %");
/// empty when valid or when `zones` is empty (uniform). Whether each zone holds a block
/// depends on the target and is checked where its size is known.
std::vector<std::string> zone_problems(const std::vector<AccessZone>& zones);

/// Parses fio's zoned syntax without the "zoned:" prefix, "50/5:30/15:20/80" (I/O % / range %
/// per zone, in order). On a syntax error returns false and says why in `why`; the sums are
/// checked by zone_problems().
bool parse_zones(const std::string& text, std::vector<AccessZone>& out, std::string& why);

/// Byte boundaries of `zones` over an ActiveRange of `range` bytes: zones.size() + 1 offsets
/// from 0 to `range`, the inner ones rounded down to a multiple of `align` (the largest block
/// size, so every I/O stays aligned to its own size). Zone i is [bounds[i], bounds[i + 1]).
std::vector<uint64_t> zone_bounds(const std::vector<AccessZone>& zones, uint64_t range, uint32_t align);

/// The same text back ("50/5:30/15:20/80"); "" for uniform.
std::string zones_text(const std::vector<AccessZone>& zones);

}  // namespace pts::model
