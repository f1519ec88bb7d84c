// engine/io_target.h — finds out what a target path is before any I/O: a block device
// (size via BLKGETSIZE64, logical block via BLKSSZGET) or a regular file (its size; created
// and filled when missing and a size is given), whether direct I/O works there and with which
// alignment (STATX_DIOALIGN; without it, probe reads and writes with O_DIRECT), whether it
// may be written, and how much of a file is holes or unwritten extents (FIEMAP, else
// SEEK_DATA/SEEK_HOLE: reads there are answered by the file system, never by the device). Inspection never
// changes the target. May use: core, model.
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
  /// Where a file's logical block (its O_DIRECT alignment) came from: "STATX_DIOALIGN", "probe"
  /// (the kernel could not say; the smallest aligned O_DIRECT transfer that worked), or "" for
  /// a block device (BLKSSZGET) and a missing file whose directory could not be probed.
  std::string alignment_source;
  /// An existing file: bytes that are holes or unwritten (fallocated) extents, and the first
  /// such offset. A read there never reaches the device.
  uint64_t unwritten_bytes = 0;
  uint64_t first_unwritten_offset = 0;
};

/// Inspects TARGET without changing it. Fails with BadInput (message naming the path) when
/// its directory is missing, it is neither a regular file nor a block device, direct I/O is
/// not supported there, or `need_write` and it (or, for a new file, its directory) is
/// read-only.
core::Result<TargetInfo> inspect_target(const std::string& path, bool need_write);

/// Creates the missing regular file `path` with `size_bytes` allocated (fallocate) and then
/// written once from start to end with incompressible data through O_DIRECT (and fsync'd), so
/// that no read of it is answered from a hole or an unwritten extent. Fails (and removes
/// what it made) if the file exists, or the space or the writes fail.
core::Status create_file_target(const std::string& path, uint64_t size_bytes);

/// Holes and unwritten extents of the open file `fd` in [0, size_bytes): FIEMAP (gaps, and
/// extents flagged UNWRITTEN, whatever the page cache holds); without FIEMAP, SEEK_DATA/
/// SEEK_HOLE (which calls an unwritten range data once it has been read into the cache); a
/// file system with neither reports everything as data. Sets the two TargetInfo fields.
core::Status find_unwritten(int fd, uint64_t size_bytes, TargetInfo& info);

}  // namespace pts::engine
