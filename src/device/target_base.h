// device/target_base.h — what every target kind shares: the identity cache and the purge
// flow (re-read identity → guard → choose method → write the verification pattern → run the
// method → verify → PurgeRecord), so NVMe, block and file targets only supply their own
// steps. Internal to device/. May use: core, model, device.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/clock.h"
#include "device/purge_verify.h"
#include "device/target_device.h"

namespace pts::device {

class TargetBase : public TargetDevice {
 public:
  core::Result<model::DeviceIdentity> identify() final;
  core::Result<model::PurgeRecord> purge(const PurgeRequest& request) final;
  void use_held_descriptor(int fd, bool force_signatures) final {
    held_fd_ = fd;
    force_signatures_ = force_signatures;
  }

 protected:
  TargetBase(std::string io_path, std::shared_ptr<model::BlockAccessFactory> block_access,
             std::shared_ptr<core::Clock> clock);

  /// Reads identity, capabilities and health from the device.
  virtual core::Result<model::DeviceIdentity> read_identity() = 0;
  /// Runs `method`; fills opcode/nsid/cdw/status/polls/success of `record`.
  virtual void execute_purge(model::PurgeMethod method, const model::DeviceIdentity& id,
                             const PurgeRequest& request, model::PurgeRecord& record) = 0;
  /// What sampled blocks must read as after `method`.
  virtual ErasedValue erased_value(model::PurgeMethod method, const model::DeviceIdentity& id) const = 0;
  /// Extra guard before a purge (e.g. other namespaces a Sanitize also erases).
  virtual core::Status guard_purge(model::PurgeMethod) { return core::ok_status(); }

  core::Clock& clock() { return *clock_; }
  /// The guard's held descriptor, or -1 (read-only use such as `info`).
  int held_fd() const { return held_fd_; }
  bool force_signatures() const { return force_signatures_; }
  /// Refuses a device whose first blocks hold a partition table (read through the block
  /// access over the held descriptor; skipped without one, e.g. for `info`).
  core::Status guard_partition_table();

 private:
  /// A failed or unverified purge: `err`, or ok when the operator accepted it (recorded).
  core::Status fail_unless_accepted(model::PurgeRecord& rec, const PurgeRequest& req, core::Error err);

  std::string io_path_;
  std::shared_ptr<model::BlockAccessFactory> block_access_;
  std::shared_ptr<core::Clock> clock_;
  int held_fd_ = -1;
  bool force_signatures_ = false;
  std::optional<model::DeviceIdentity> known_;  ///< first identity read; later reads must match
};

/// Blocks sampled by purge verification.
inline constexpr uint32_t kVerifySampleBlocks = 64;

}  // namespace pts::device
