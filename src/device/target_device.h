// device/target_device.h — what the rest of ptsuite may ask of a target: identity, the
// destructive-target guard, purge + verification and the write cache. NVMe specifics (and
// libnvme) stay behind this interface; pts/ tests use a fake. May use: core, model.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "core/result.h"
#include "model/device.h"
#include "model/purge.h"

namespace pts::device {

/// Purge request: a method, or nullopt to choose the strongest supported one.
struct PurgeRequest {
  std::optional<model::PurgeMethod> method;
  bool verify = true;
  bool accept_failure = false;  ///< operator accepts a failed/unverified purge (deviation)
};

class TargetDevice {
 public:
  virtual ~TargetDevice() = default;
  /// Re-reads identity, capabilities and health from the device.
  virtual core::Result<model::DeviceIdentity> identify() = 0;
  /// Refuses (ErrorKind::Refused) a target that is mounted, partitioned, held, swap or root.
  virtual core::Status guard() = 0;
  /// Purges and verifies. Fails with ErrorKind::Device (unless accepted) on a failed or
  /// unverifiable purge; the record is filled either way when the command was sent.
  virtual core::Result<model::PurgeRecord> purge(const PurgeRequest& request) = 0;
  virtual core::Result<model::WriteCacheState> write_cache() = 0;
  virtual core::Result<model::WriteCacheState> set_write_cache(bool enabled) = 0;
};

/// Opens a target by path: an NVMe namespace (/dev/nvmeXnY), its generic node, a block
/// device or a regular file. Unknown or unsuitable targets fail with BadInput.
core::Result<std::unique_ptr<TargetDevice>> open_target(const std::string& path);

}  // namespace pts::device
