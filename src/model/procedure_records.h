// model/procedure_records.h — the two records a procedure adds to a run beyond its cells and
// Rounds: the figures it derives (findings) and the host-idle periods it asks for. May use: core.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace pts::model {

/// A figure a procedure derives from its measurements and stores, so the report
/// states it without recomputing (the cliff, a recovery ratio, the MaxIOPS point, ...).
struct Finding {
  std::string key;               ///< stable, e.g. "cliff_sample", "recovery_ratio"
  std::string label;             ///< plain words for the report
  std::optional<double> value;   ///< absent when undefined (no cliff, never recovered, ...)
  std::string unit;              ///< "IOPS", "MB/s", "ms", "min", "ratio", "sample", ...
  std::string detail;            ///< how it was derived, or why it is undefined
};

/// Host idle after a Round's cells (HIR Access B): nothing is submitted to the target. The
/// I/O counters read right before and right after prove it: the engine's own count of the
/// I/Os it completed, and the kernel's block-layer counters where the target has them.
struct IdleRecord {
  uint64_t requested_ns = 0;
  uint64_t measured_ns = 0;        ///< how long the idle took on the run's clock (virtual on a sim)
  uint64_t started_wall_ns = 0;
  uint64_t ended_wall_ns = 0;
  bool completed = false;          ///< false: cut short by the operator
  std::optional<uint64_t> engine_ios_before;  ///< absent when the engine publishes no counters
  std::optional<uint64_t> engine_ios_after;
  std::optional<uint64_t> kernel_ios_before;  ///< block-layer reads + writes completed
  std::optional<uint64_t> kernel_ios_after;
  std::optional<uint64_t> kernel_in_flight_before;  ///< requests in flight when the idle began
};

}  // namespace pts::model
