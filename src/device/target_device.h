// device/target_device.h — what the rest of ptsuite may ask of a target: identity, the
// destructive-target guard, purge + verification and the write cache. NVMe specifics (and
// libnvme) stay behind this interface; pts/ tests use a fake. May use: core, model.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/result.h"
#include "model/block_access.h"
#include "model/device.h"
#include "model/namespaces.h"
#include "model/purge.h"

namespace pts::device {

/// Purge request: a method, or nullopt to choose the strongest supported one.
struct PurgeRequest {
  std::optional<model::PurgeMethod> method;
  bool verify = true;
  bool accept_failure = false;  ///< operator accepts a failed/unverified purge (deviation)
  /// When set, receives the PurgeRecord even when purge() returns an Error (the command was
  /// sent but failed, or verification failed), so the run record and `purge --json` keep it.
  model::PurgeRecord* record_out = nullptr;
  /// Called while a long purge (Sanitize) runs: fraction done 0..1, seconds elapsed, the
  /// controller's estimate in seconds (0 = none). May be empty.
  std::function<void(double fraction_done, double elapsed_s, uint32_t estimate_s)> progress;
};

class TargetDevice {
 public:
  virtual ~TargetDevice() = default;
  /// Re-reads identity, capabilities and health from the device.
  virtual core::Result<model::DeviceIdentity> identify() = 0;
  /// Re-examines the target (guard.h: mounted in any namespace, partitioned, held, swap,
  /// root, loop backing; an on-disk partition table); Refused naming the reasons. The full
  /// check, with the exclusive open, signatures and consent, is acquire_target().
  virtual core::Status guard() = 0;
  /// Purges and verifies. Fails with ErrorKind::Device (unless accepted) on a failed or
  /// unverifiable purge; the record is filled either way when the command was sent.
  virtual core::Result<model::PurgeRecord> purge(const PurgeRequest& request) = 0;
  virtual core::Result<model::WriteCacheState> write_cache() = 0;
  /// The current value and, where the drive keeps one, the saved value and whether a change
  /// can be saved. Targets without a saved setting report only the current value.
  virtual core::Result<model::WriteCacheSetting> write_cache_setting() {
    auto now = write_cache();
    if (!now.ok()) return now.error();
    model::WriteCacheSetting s;
    s.current = *now;
    return s;
  }
  /// Sets the cache and returns the state read back. CurrentAndSaved also makes it the saved
  /// value (only where write_cache_setting().saveable; elsewhere the drive refuses it).
  virtual core::Result<model::WriteCacheState> set_write_cache(bool enabled, model::WriteCacheScope scope) = 0;
  /// Gives the target the guard's held descriptor (acquire_target(), held_target.h): purge
  /// verification, discard, file recreation and geometry then go through it, never through a
  /// second open by path. Purging needs it. Borrowed: the HeldTarget closes it.
  /// `force_signatures`: the operator's --force-signatures (also for the sibling namespaces a
  /// purge would reach).
  virtual void use_held_descriptor(int /*fd*/, bool /*force_signatures*/) {}
  /// The namespaces of the target's controller (NVMe); BadInput for targets that have none.
  virtual core::Result<model::NamespaceInventory> namespaces() {
    return core::bad_input("this target is not an NVMe namespace: it has no controller whose namespaces to list");
  }
  /// Deletes every namespace of the controller and creates `count` of `size_bytes` each,
  /// attached to it (Namespace Management and Attachment), guarded like a purge: every other
  /// namespace examined first (in use or holding a signature: Refused, nothing changed); a
  /// controller without Namespace Management: Device error, nothing changed. Needs the held
  /// descriptor (acquire_target). Returns the namespaces after.
  virtual core::Result<model::NamespaceInventory> recreate_namespaces(uint32_t /*count*/, uint64_t /*size_bytes*/) {
    return core::bad_input("this target is not an NVMe namespace: it has no namespaces to create");
  }
};

/// Opens a target by path: an NVMe namespace (/dev/nvmeXnY), its controller (/dev/nvmeX, when
/// it has one namespace), its generic node (/dev/ngXnY), a block device or a regular file.
/// Unknown or unsuitable targets fail with BadInput. `block_access` does the O_DIRECT reads
/// and writes of purge verification; without it purge() with verify fails (unverifiable).
/// Serial numbers: NVMe = Identify Controller SN; block device = sysfs device/serial, else
/// the SCSI serial VPD page, else wwid (else "BLOCK-<major>:<minor>"); loop device = "LOOP-<st_dev>:<inode>" of its backing file; regular file =
/// "FILE-<st_dev>:<inode>" (stable while the file exists; purge keeps the inode).
core::Result<std::unique_ptr<TargetDevice>> open_target(
    const std::string& path, std::shared_ptr<model::BlockAccessFactory> block_access = nullptr);

/// The namespaces of an NVMe controller given as its node (/dev/nvmeX), whatever their number:
/// none, one, or several (where open_target() wants the one to stand for). Read-only (Identify,
/// the Commands Supported and Effects log); each namespace's block device looked at by the
/// guard's in-use check. nullopt when `path` is not a controller node.
std::optional<core::Result<model::NamespaceInventory>> controller_namespaces(const std::string& path);

}  // namespace pts::device
