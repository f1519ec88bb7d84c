// device/block_ops.h — block-device ioctls the device layer needs: geometry (BLKGETSIZE64,
// BLKSSZGET, BLKPBSZGET) and BLKDISCARD of the whole device (a recorded deviation, not a
// SNIA purge). May use: core, model.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"
#include "model/purge.h"

namespace pts::device {

struct BlockGeometry {
  uint64_t size_bytes = 0;
  uint32_t logical_block_bytes = 512;
  uint32_t physical_block_bytes = 0;
};

/// Geometry of a block device node (opened read-only by path: for `info`).
core::Result<BlockGeometry> block_geometry(const std::string& path);
/// Geometry through an open descriptor (the guard's held one); `name` for messages.
core::Result<BlockGeometry> block_geometry(int fd, const std::string& name);

/// Discards [0, bytes) through `fd`, the guard's exclusively held descriptor of the device
/// (`name` for messages); fills status_text, sys_errno and success of `rec`.
void discard_all(int fd, const std::string& name, uint64_t bytes, model::PurgeRecord& rec);

}  // namespace pts::device
