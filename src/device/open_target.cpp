// device/open_target.cpp — open_target(): resolve the path, then build the matching target;
// controller_namespaces(): a controller node's namespaces, however many.
// May use: core, model, device.
#include "device/guard.h"
#include "device/libnvme_transport.h"
#include "device/nvme_namespaces.h"
#include "device/nvme_topology.h"
#include "device/target_device.h"
#include "device/target_resolve.h"
#include "device/targets.h"

namespace pts::device {

core::Result<std::unique_ptr<TargetDevice>> open_target(const std::string& path,
                                                        std::shared_ptr<model::BlockAccessFactory> block_access) {
  auto resolved = resolve_target(path);
  if (!resolved.ok()) return resolved.error();
  return make_target(*resolved, std::move(block_access));
}

core::Result<std::unique_ptr<TargetDevice>> make_target(ResolvedTarget t,
                                                        std::shared_ptr<model::BlockAccessFactory> block_access) {
  switch (t.kind) {
    case model::TargetKind::File: return make_file_target(t, std::move(block_access));
    case model::TargetKind::BlockDevice: return make_block_target(t, std::move(block_access));
    case model::TargetKind::NvmeNamespace: break;
  }
  if (t.nsid == 0) {
    auto nsid = namespace_id_of(t.io_path);  // the namespace's block node (NVME_IOCTL_ID)
    if (!nsid.ok()) return nsid.error();
    t.nsid = *nsid;
  }
  auto transport = open_libnvme_transport(t.admin_path);
  if (!transport.ok()) return transport.error();
  NvmeTargetDeps deps;
  deps.block_access = std::move(block_access);
  return make_nvme_target(t, std::move(transport.value()), std::move(deps));
}

std::optional<core::Result<model::NamespaceInventory>> controller_namespaces(const std::string& path) {
  const auto ctrl = controller_of_node(path);
  if (!ctrl) return std::nullopt;
  auto transport = open_libnvme_transport(path);
  if (!transport.ok()) return core::Result<model::NamespaceInventory>(transport.error());
  NamespaceAccess a;
  a.transport = transport.value().get();
  a.subsystem = [name = *ctrl] { return subsystem_of_controller(name); };
  a.in_use = [](const std::string& block) { return guard_block_device(block); };
  return read_namespaces(a);
}

}  // namespace pts::device
