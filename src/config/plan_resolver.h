// config/plan_resolver.h — turns a validated TestDefinition, the operator's RunOptions and
// the target's identity into the model::TestPlan that pts/ executes, plus every departure
// from the spec as a plain-words Deviation: the run-wide settings here, the sub-tests and the
// procedure's own parameters by its row of the procedure table (procedure.h). Pure: no I/O.
// May use: core, model.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/definition.h"
#include "config/resolved_plan.h"
#include "config/run_options.h"
#include "core/result.h"
#include "model/device.h"
#include "model/engine_limits.h"
#include "model/plan.h"
#include "model/run_record.h"

namespace pts::config {

/// Resolves the plan. For the steady-Rounds procedure, cells come in spec order (R/W mix outer, block size inner) with ids
/// like "rw65-bs4096"; cells whose block size is below (or not a multiple of) the target's
/// LBA size are kept but marked not applicable with the reason, and recorded as a deviation.
/// WIPC: SEQ write over the ActiveRange at the definition's WIPC block size (Throughput: the
/// sub-test block size) with WIPC's own TC/QD (definition, --wipc-threads/--wipc-oio);
/// bytes_limit = multiple × the user capacity (not × the ActiveRange), rounded down to a
/// multiple of the block size.
/// Deviations: cell seconds ≠ spec, max rounds ≠ spec, --continue-past-max, ActiveRange ≠
/// the class's spec value, TC/QD ≠ required/recommended, purge none, file target, cells not
/// applicable. BadInput errors (all at once): unknown edition/class, an edition/class the
/// definition does not define, a Tracking Variable whose cell is not applicable, zero
/// capacity, WIPC smaller than one block, max rounds < window, and every cell or WIPC spec
/// beyond `limits` — what the engine that will run the plan can run (ring entries, buffer
/// sizes, TC × QD memory, minimum cell length); the engine publishes them, app passes them in,
/// so nothing exceeds them at the first device I/O. `model::EngineLimits{}` checks none.
core::Result<ResolvedPlan> resolve_plan(const TestDefinition& definition, const RunOptions& options,
                                        const model::DeviceIdentity& identity, const model::EngineLimits& limits);

/// Worst-case duration of a resolved plan: the Rounds exactly (a cell lasts its own
/// spec.seconds: a DIRTH pre-write is longer than a sweep point; a sub-test with phases of its
/// own by its procedure's rule), WIPC estimated at an assumed sequential write rate (its real time
/// depends on the drive).
inline constexpr double kAssumedWipcWriteMbps = 1000.0;
struct PlanDuration {
  struct SubTest {
    std::string id;
    uint32_t applicable_cells = 0;
    double round_seconds = 0;       ///< applicable cells × cell seconds
    double max_rounds_seconds = 0;  ///< max rounds × round seconds
    uint64_t wipc_bytes = 0;
    double wipc_seconds = 0;        ///< wipc_bytes at assumed_write_mbps
    /// Worst case of this sub-test by its procedure's rule: max_rounds_seconds for Rounds,
    /// WSAT's time limit, HIR's phases, ...; `how` says which.
    double seconds = 0;
    std::string how;
  };
  std::vector<SubTest> subtests;
  double rounds_seconds = 0;  ///< sum of the sub-tests' worst cases, excluding WIPC
  double wipc_seconds = 0;    ///< every sub-test's WIPC at assumed_write_mbps
  double assumed_write_mbps = kAssumedWipcWriteMbps;  ///< MB/s = 10^6 B/s
  bool unbounded = false;     ///< continue_past_max: no upper bound
};

PlanDuration estimate_duration(const model::TestPlan& plan, double assumed_write_mbps = kAssumedWipcWriteMbps);

/// The nominal identity used by `ptsuite plan` without a TARGET: a 1 TiB NVMe namespace with
/// 512-byte LBAs (model "nominal"), so that WIPC bytes and cell applicability can be shown.
model::DeviceIdentity nominal_identity(uint64_t capacity_bytes = 1ull << 40, uint32_t lba_size = 512);

}  // namespace pts::config
