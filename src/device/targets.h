// device/targets.h — constructors of the three target kinds behind open_target(); internal
// to device/ (tests build NVMe targets over a scripted transport). May use: core, model,
// device.
#pragma once

#include <memory>

#include "core/clock.h"
#include "device/admin_transport.h"
#include "device/sanitize_monitor.h"
#include "device/target_device.h"
#include "device/nvme_topology.h"
#include "device/target_resolve.h"

namespace pts::device {

/// What an NVMe target needs besides the transport; tests replace clock, sleep and guard.
struct NvmeTargetDeps {
  std::shared_ptr<model::BlockAccessFactory> block_access;
  std::shared_ptr<core::Clock> clock;          ///< null = system clock
  SleepFn sleep;                               ///< null = real sleep
  std::function<core::Status(const std::string& block_name)> guard;  ///< null = guard_block_device
  /// Examines a sibling namespace a purge would also erase (force_signatures: the operator's
  /// --force-signatures). null = `guard` when a test set it, else examine_sibling_namespace().
  std::function<core::Status(const std::string& block_name, bool force_signatures)> sibling_guard;
  /// Whether a namespace's block device is in use, for the namespace list (ok: not in use).
  /// null = `guard`.
  std::function<core::Status(const std::string& block_name)> in_use;
  std::string sysfs_root;  ///< prefix for /sys (the subsystem, WWIDs): "" = the real one
  /// The NVM subsystem of the namespace `block_name` (its controllers and namespaces, for the
  /// purge-reach check). null = sysfs (subsystem_of_namespace); a simulated controller, which
  /// has no sysfs nodes, describes its own.
  std::function<core::Result<NvmeSubsystem>(const std::string& block_name)> subsystem;
  /// The `discard` purge: deallocates [0, bytes) and says what it did. null = BLKDISCARD on
  /// the held descriptor; a simulated controller, whose held descriptor is its state file,
  /// sends Dataset Management (deallocate) to its drive.
  std::function<core::Result<std::string>(uint64_t bytes)> discard;
  SanitizeWaitOptions sanitize_wait;
  uint32_t format_timeout_ms = 4 * 3600 * 1000;
};

/// The target object for a resolved path (what open_target() does after resolve_target()).
core::Result<std::unique_ptr<TargetDevice>> make_target(ResolvedTarget target,
                                                        std::shared_ptr<model::BlockAccessFactory> block_access);

std::unique_ptr<TargetDevice> make_nvme_target(const ResolvedTarget& target,
                                               std::unique_ptr<AdminTransport> transport,
                                               NvmeTargetDeps deps);
std::unique_ptr<TargetDevice> make_block_target(const ResolvedTarget& target,
                                                std::shared_ptr<model::BlockAccessFactory> block_access);
std::unique_ptr<TargetDevice> make_file_target(const ResolvedTarget& target,
                                               std::shared_ptr<model::BlockAccessFactory> block_access);

}  // namespace pts::device
