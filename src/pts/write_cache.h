// pts/write_cache.h — the operator's write-cache setting around a run: read before the run
// first changes the cache (RunRecord.write_cache_original), and set back — the saved value
// where the drive keeps one, then the current one — when the run ends (complete, failed,
// interrupted) and when a resume of it ends. A run killed with SIGKILL leaves the cache as the
// test set it until `ptsuite resume` ends (`ptsuite info` shows it). Bringing the cache to the
// plan's state during the run is phases.h. May use: core, model, device, pts/run_context.
#pragma once

#include <string>

#include "core/result.h"
#include "device/target_device.h"
#include "model/run_record.h"
#include "pts/run_context.h"

namespace pts::runner {

/// The write cache as the target reports it now; current = Unknown when it cannot be read
/// (then nothing is restored at the end).
model::WriteCacheSetting read_write_cache_setting(device::TargetDevice& dev);

/// "enabled, saved disabled"; "disabled (not saveable)".
std::string write_cache_setting_text(const model::WriteCacheSetting& setting);

/// What restore_write_cache did.
struct WriteCacheRestore {
  bool attempted = false;  ///< false: the run had nothing to set back (no cache, a file)
  bool ok = false;
  std::string text;        ///< in words, for the journal and the summary
};

/// Sets the cache of `dev` (the held target) back to record.write_cache_original.
WriteCacheRestore restore_write_cache(device::TargetDevice& dev, const model::RunRecord& record);

/// restore_write_cache() journaled as a "WriteCacheRestored" transition. A restore that fails
/// says so in the transition and does not fail the run: its results stand.
core::Status restore_write_cache_step(RunContext& ctx);

}  // namespace pts::runner
