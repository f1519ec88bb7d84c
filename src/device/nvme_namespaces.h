// device/nvme_namespaces.h — a controller's namespaces through Namespace Management and
// Attachment (NVMe Base 2.0 §5.22, §5.23): the inventory (allocated or active NSIDs, each one's
// size, LBA format, use, whether attached, its block device and whether the guard finds it in
// use) and their re-creation: every other namespace examined (in use or holding a signature:
// refused), then deleted, then `count` created and attached to this controller. A controller
// without Namespace Management (OACS bit 3 clear, or — where it keeps the Commands Supported and
// Effects log — Management or Attachment not listed there) is told so (Device error) before
// anything is sent that changes it. Commands go through AdminTransport only (libnvme behind
// it). May use: core, model, device.
#pragma once

#include <functional>
#include <string>

#include "core/result.h"
#include "device/admin_transport.h"
#include "device/nvme_topology.h"
#include "model/namespaces.h"

namespace pts::device {

struct NamespaceAccess {
  AdminTransport* transport = nullptr;
  /// The subsystem as the host sees it (block devices by NSID); may fail (then none are named).
  std::function<core::Result<NvmeSubsystem>()> subsystem;
  /// The guard's look at a namespace's block device (ok: not in use).
  std::function<core::Status(const std::string& block)> in_use;
  /// The full examination before it is deleted (in use, exclusive open, signatures).
  std::function<core::Status(const std::string& block)> examine;
  std::string own_block;  ///< the held target's own block device (examined by the guard already)
};

core::Result<model::NamespaceInventory> read_namespaces(const NamespaceAccess& a);

core::Result<model::NamespaceInventory> recreate_namespaces(const NamespaceAccess& a, uint32_t count,
                                                            uint64_t size_bytes);

}  // namespace pts::device
