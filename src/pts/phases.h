// pts/phases.h — steps every procedure shares around its own stimulus: the purge (with its
// LBA read-back check, repeated on resume until it settles), and the write cache (brought to
// the plan's state, read back after every purge and at the end of every Round; a change is a
// deviation naming where it was seen). Procedures call these instead of talking to the
// device themselves. May use: core, model, device, pts/run_context.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "core/result.h"
#include "device/target_device.h"
#include "model/plan.h"
#include "pts/run_context.h"

namespace pts::runner {

/// "no volatile write cache", "enabled", "disabled", "unknown".
const char* write_cache_name(model::WriteCacheState state);

/// Brings the write cache to the plan's state. Returns the state and, when it could not be
/// brought there, a deviation text (empty when it is as the plan requires).
std::pair<model::WriteCacheState, std::string> apply_write_cache(device::TargetDevice& dev,
                                                                 const model::TestPlan& plan);

/// True when sub-test `i` still needs its purge: none is recorded, or the recorded one did not
/// settle (failed, not verified, not accepted) and nothing has run on it yet.
bool purge_pending(const model::RunRecord& record, size_t i);

/// Purges for sub-test `i` (or records that the plan skips it), journals the PurgeRecord and
/// the VerifyPurge transition, then reads the write cache back. A failed or unverified purge
/// that the operator did not accept is a Device error; its record stays in the journal, and
/// resume purges again.
core::Status purge_step(RunContext& ctx, size_t i);

/// Reads the write cache back and compares it with the state the run established. A change
/// is a "write-cache-changed" deviation naming `where` (e.g. "at the end of Round 3 of
/// sub-test main"); the cache is then brought back to the plan's state where the drive allows.
core::Status check_write_cache(RunContext& ctx, size_t i, uint32_t round, const std::string& where);

}  // namespace pts::runner
