// model/namespaces.h — a controller's namespaces as `ptsuite namespaces` lists them and a
// namespace re-creation records them (device/nvme_namespaces.h reads and changes them).
// May use: core.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pts::model {

struct NamespaceEntry {
  uint32_t nsid = 0;
  uint64_t size_bytes = 0;
  uint32_t lba_bytes = 0;        ///< data size of its LBA format
  uint32_t lba_format = 0;       ///< index of its LBA format
  uint64_t used_bytes = 0;       ///< blocks holding data (NUSE) × LBA size
  bool attached = false;         ///< attached to this controller (active)
  std::string block;             ///< its block device (nvme0n2), "" when none
  bool in_use = false;           ///< mounted, held, swap ... (the guard's examination)
  std::string in_use_why;
};

struct NamespaceInventory {
  bool management = false;       ///< the controller supports Namespace Management and Attachment
  std::string management_missing;  ///< why it does not ("" when it does)
  uint32_t max_namespaces = 0;   ///< how many it supports (NN)
  uint16_t controller_id = 0;
  uint64_t total_bytes = 0;      ///< NVM capacity (0: not reported)
  uint64_t unallocated_bytes = 0;
  std::vector<NamespaceEntry> namespaces;
};

/// What `namespaces --create` did, for the record it prints.
struct NamespaceChange {
  std::string target;
  std::string serial;
  std::string consent;           ///< how it was confirmed
  uint64_t started_wall_ns = 0;
  NamespaceInventory before, after;
  uint32_t created = 0;
  uint64_t size_bytes = 0;
};

}  // namespace pts::model
