// device/nvme_topology.h — where an NVMe namespace sits in its NVM subsystem, read from sysfs,
// never by building nvmeXnY names (instance numbers differ from NSIDs once a namespace is
// deleted and re-created, and the subsystem's number differs from the controller's under
// multipath): the subsystem (/sys/class/nvme-subsystem/*), its controllers, every namespace
// block device (a multipath head in the subsystem directory, or a controller's own namespace)
// with the NSID sysfs gives it and the controllers that reach it. Also: the block device a
// generic node (/dev/ngXnY) stands for (its controller from sysfs + its NSID), and the WWID
// the kernel derives from a namespace's identifiers, to cross-check a generic node against
// the block device it resolved to. Paths are joined to a root prefix (fake trees in tests).
// May use: core, sysfs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace pts::device {

struct NamespaceNode {
  std::string block;                     ///< sysfs block name with a /dev node: nvme0n1 (a head under multipath)
  uint32_t nsid = 0;
  std::vector<std::string> controllers;  ///< controllers that reach it: nvme0, nvme1
};

struct NvmeSubsystem {
  std::string name;                      ///< nvme-subsys0
  std::vector<std::string> controllers;  ///< nvme0, nvme1
  std::vector<NamespaceNode> namespaces;
};

/// The subsystem of namespace block device `block` (nvme0n1), with every controller and
/// namespace. BadInput when sysfs does not describe it.
core::Result<NvmeSubsystem> subsystem_of_namespace(const std::string& block, const std::string& root = "");
/// The subsystem of controller `ctrl` (nvme0).
core::Result<NvmeSubsystem> subsystem_of_controller(const std::string& ctrl, const std::string& root = "");

/// The namespace block device controller `ctrl` reaches as `nsid`, if any.
std::optional<std::string> namespace_block(const NvmeSubsystem& sub, const std::string& ctrl, uint32_t nsid);

/// The block device generic node `ng` stands for, given the NSID the node answers: under
/// multipath the node belongs to the subsystem (its sysfs parent, e.g. nvme-subsys2) and
/// stands for the head with that NSID; without, it belongs to a controller and stands for
/// that controller's namespace with that NSID. BadInput naming what was found otherwise.
core::Result<std::string> block_of_generic(const std::string& ng, uint32_t nsid, const std::string& root = "");

/// Namespace identifiers, as Identify Namespace and the Namespace Identification Descriptor
/// list report them (zero = not reported).
struct NamespaceIds {
  std::vector<uint8_t> uuid;   ///< 16 bytes or empty
  std::vector<uint8_t> nguid;  ///< 16 bytes or empty
  std::vector<uint8_t> eui64;  ///< 8 bytes or empty
};

/// Lower-case hex of `bytes`; "" when they are all zero.
std::string hex_id(const std::vector<uint8_t>& bytes);

/// The WWID Linux shows in /sys/block/<ns>/wwid for these identifiers: "uuid.<8-4-4-4-12>",
/// else "eui.<NGUID>", else "eui.<EUI-64>", else "nvme.<vid>-<serial hex>-<model hex>-<nsid>"
/// (serial and model without trailing blanks), as drivers/nvme/host/core.c wwid_show().
std::string expected_wwid(const NamespaceIds& ids, uint16_t vid, const std::string& serial,
                          const std::string& model, uint32_t nsid);

}  // namespace pts::device
