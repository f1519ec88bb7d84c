// engine/io_target.h — finds out what a target path is before any I/O: a block device
// (size via BLKGETSIZE64, logical block via BLKSSZGET) or a regular file (its size; created
// with fallocate when missing and a size is given), whether direct I/O works there
// (STATX_DIOALIGN, or a probe open with O_DIRECT) and whether it may be written. Inspection
// never changes the target. May use: core, model.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"
#include "engine/io_engine.h"
#include "model/device.h"

namespace pts::engine {

struct TargetInfo {
  IoTarget target;       ///< path, size (0 while a file is missing), logical block bytes
  model::TargetKind kind = model::TargetKind::File;
  bool exists = false;   ///< false: a regular file that create_file_target() would make
};

/// Inspects TARGET without changing it. Fails with BadInput (message naming the path) when
/// its directory is missing, it is neither a regular file nor a block device, direct I/O is
/// not supported there, or `need_write` and it (or, for a new file, its directory) is
/// read-only.
core::Result<TargetInfo> inspect_target(const std::string& path, bool need_write);

/// Creates the missing regular file `path` with `size_bytes` allocated (fallocate, so the
/// blocks exist; they read as zeroes until written). Fails if the file already exists.
core::Status create_file_target(const std::string& path, uint64_t size_bytes);

}  // namespace pts::engine
