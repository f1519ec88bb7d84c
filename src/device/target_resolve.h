// device/target_resolve.h — turns a TARGET path into what it is: an NVMe namespace (given as
// its block node, generic node /dev/ngXnY or controller /dev/nvmeX), another block device,
// or a regular file. Unknown paths and unsuitable character devices fail with BadInput.
// Generic and controller nodes resolve through sysfs (nvme_topology.h). May use: core,
// model, sysfs, nvme_topology.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/result.h"
#include "model/device.h"

namespace pts::device {

struct ResolvedTarget {
  model::TargetKind kind = model::TargetKind::File;
  std::string path;        ///< as given
  std::string io_path;     ///< node for data I/O: /dev/nvme0n1, /dev/loop3, or the file
  std::string block_name;  ///< sysfs block name (nvme0n1, loop3); empty for files
  std::string admin_path;  ///< NVMe: node that takes admin commands (namespace, ng or ctrl)
  uint32_t nsid = 0;       ///< NVMe: namespace id from sysfs; 0 = ask the node
  bool is_loop = false;
};

/// Classifies `path`. `root` prefixes /sys (tests). The path must exist.
core::Result<ResolvedTarget> resolve_target(const std::string& path, const std::string& root = "");

/// The sysfs name (nvme0) of the NVMe controller whose character node `path` is; nullopt for
/// anything else (a namespace, a generic node, a file, a missing path).
std::optional<std::string> controller_of_node(const std::string& path, const std::string& root = "");

/// The NSID an NVMe node answers for (NVME_IOCTL_ID on a generic or namespace node).
using NsidOfNode = std::function<core::Result<uint32_t>(const std::string& node)>;
core::Result<uint32_t> nsid_of_node(const std::string& node);

/// A character device whose sysfs name is `name` (ng0n1, nvme0): a generic node resolves to
/// the namespace block device its controller (sysfs) reaches with its NSID (`nsid_of`, the
/// node's own answer) — never by renaming ngXnY to nvmeXnY; a controller to its one
/// namespace. Exposed for fake-sysfs tests.
core::Result<ResolvedTarget> resolve_char_node(const std::string& path, const std::string& name,
                                               const std::string& root, const NsidOfNode& nsid_of);

}  // namespace pts::device
