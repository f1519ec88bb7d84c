// device/held_target.h — the ONE guard entry point that every writing command (spec, purge,
// run, resume) goes through. acquire_target() resolves TARGET, reads its identity, examines it
// (guard.h: partitions, mounts in every mount namespace, holders, swap, btrfs, loop backing,
// the demo path), opens it exclusively, probes signatures through that descriptor
// (signatures.h) and checks the operator's consent (confirm.h). It returns a HeldTarget: the
// one descriptor the command uses for everything it writes (engine via IoTarget::fd, purge
// verification and discard via TargetDevice), held until the command ends, and the confirmed
// identity. Exclusivity per kind:
//  - block devices and NVMe namespaces: open(O_RDWR|O_EXCL|O_DIRECT) — the kernel's exclusive
//    claim, the one mount, swapon, md, dm and another ptsuite also take, so none of them can
//    start while we hold it (EBUSY → refused, exit 3); fstat().st_rdev must be the device the
//    guard examined.
//  - regular files: open(O_RDWR|O_DIRECT), fstat() device + inode checked, and a write lease
//    (F_SETLEASE F_WRLCK) proves that no other process has the file open; the lease is then
//    released at once, not held for the command: a held lease would stall every later opener
//    (an `md5sum`, `ptsuite info`) for lease-break-time seconds and end with a signal to us,
//    and it would not stop them anyway. Another ptsuite is still refused for as long as we
//    hold our descriptor, because its lease cannot be granted while our descriptor is open.
//  - other target kinds (the simulator's `sim:`) supply their own exclusivity through a
//    TargetClaimer, e.g. an exclusive lock on their state file; consent and identity are
//    checked here all the same.
// May use: core, model, device.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "device/confirm.h"
#include "device/target_device.h"
#include "device/target_resolve.h"
#include "model/device.h"

namespace pts::device {

/// What a target kind that is not a device node or file hands the entry point.
struct ClaimedTarget {
  std::unique_ptr<TargetDevice> device;
  std::shared_ptr<void> claim;   ///< the exclusive claim (e.g. a lock on a state file), kept while held
  std::string exclusivity;       ///< in words, for the record: "exclusive lock on STATE"
  ConfirmRules rules;            ///< what confirms this target
  model::TargetKind kind = model::TargetKind::NvmeNamespace;
  /// The claim created the target (e.g. a new state file): it holds nothing to protect, so
  /// it needs no confirmation, like a file the command created (consent "created-by-ptsuite").
  bool created = false;
  std::string created_path;      ///< what was created (Consent::value)
};

/// A target kind selected by a prefix of TARGET ("sim:"), registered by app.
struct TargetClaimer {
  std::string prefix;
  std::function<core::Result<ClaimedTarget>(const std::string& target)> claim;
  /// The kind's shared hold for a measurement that only reads (hold_for_reading); null: none.
  std::function<core::Result<ClaimedTarget>(const std::string& target)> claim_shared;
};

struct AcquireOptions {
  std::optional<std::string> confirm;  ///< --confirm
  /// Several targets confirmed at once (a multi-job cell): the target is confirmed when any of
  /// these matches it, so one serial confirms every namespace of its drive. Used when `confirm`
  /// is empty.
  std::vector<std::string> confirm_any;
  AskSerialFn ask;                     ///< prompt when --confirm is missing (null: not interactive)
  /// TARGET is a file this command has just created, or (for a claimed kind) ptsuite's own:
  /// no confirmation needed
  bool created_by_ptsuite = false;
  bool force_signatures = false;       ///< --force-signatures: overwrite signatures (a deviation)
  std::string demo_path;               ///< the built-in demo target: refused without ptsuite's marker
  std::shared_ptr<model::BlockAccessFactory> block_access;  ///< purge verification I/O over the held fd
  std::vector<TargetClaimer> claimers;
  std::string root;                    ///< prefix for /proc, /sys (tests)
};

/// A target the command may write: its exclusively opened descriptor, its device object and
/// the confirmed identity. Closing (destruction) ends the claim.
class HeldTarget {
 public:
  HeldTarget() = default;
  HeldTarget(const HeldTarget&) = delete;
  HeldTarget& operator=(const HeldTarget&) = delete;
  ~HeldTarget();

  TargetDevice& device() { return *device_; }
  /// The held descriptor (O_DIRECT; read-write); -1 for kinds without one (sim).
  int fd() const { return fd_; }
  const ResolvedTarget& resolved() const { return resolved_; }
  const model::DeviceIdentity& identity() const { return identity_; }
  const model::Consent& consent() const { return consent_; }
  /// Deviations the acquisition implies (force-signatures), to be recorded by the command.
  const std::vector<std::pair<std::string, std::string>>& deviations() const { return deviations_; }

 private:
  friend core::Result<std::unique_ptr<HeldTarget>> acquire_target(const std::string&, const AcquireOptions&);
  friend core::Result<std::unique_ptr<HeldTarget>> hold_for_reading(const std::string&, const AcquireOptions&);
  std::unique_ptr<TargetDevice> device_;
  int fd_ = -1;
  std::shared_ptr<void> claim_;
  ResolvedTarget resolved_;
  model::DeviceIdentity identity_;
  model::Consent consent_;
  std::vector<std::pair<std::string, std::string>> deviations_;
};

/// The entry point (see the top of this file). Errors: BadInput (no such target, unusable),
/// Refused (the guard, the exclusive open, signatures, consent), Device (identity unreadable).
core::Result<std::unique_ptr<HeldTarget>> acquire_target(const std::string& path, const AcquireOptions& options);

/// The shared hold of a measurement that only reads (exclusive_open.h open_shared_hold, or a
/// claimer's claim_shared): its O_RDONLY|O_DIRECT descriptor and identity; no usage guard,
/// signatures or consent (nothing is written), consent method "read-only". Refused while a
/// writing ptsuite holds the target; a writing ptsuite is refused while this is held.
core::Result<std::unique_ptr<HeldTarget>> hold_for_reading(const std::string& path, const AcquireOptions& options);

/// Examines a namespace that a purge of another one would also erase (Sanitize, a Format that
/// covers every namespace): the usage guard, an exclusive open (taken and released: nobody,
/// in any mount namespace, holds it) and its signatures (refused unless `force_signatures`).
core::Status examine_sibling_namespace(const std::string& block_name, bool force_signatures,
                                       const std::string& root = "");

/// What --confirm accepts for `path` and the value to pass (for `info`); read-only.
core::Result<ConfirmRules> confirmation_rules_for(const std::string& path, const model::DeviceIdentity& id,
                                                  const std::string& root = "");

/// ptsuite's own marker on a file it created as the demo target (extended attribute
/// user.ptsuite = "demo-target"). A demo path without it is someone else's file.
core::Status mark_demo_target(const std::string& path);
bool carries_demo_marker(const std::string& path);

}  // namespace pts::device
