// model/block_access.h — the few direct block reads and writes outside a measured run (purge
// verification writes and reads a pattern), as one interface: declared here so that device/
// (which uses it) and engine/ (which implements it over liburing, engine/block_io.h) both see
// it without depending on each other; the simulator implements it over its drive's bytes, the
// tests with an in-memory fake. May use: core.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "core/result.h"

namespace pts::model {

/// Direct (uncached) access to one opened target. Offsets and lengths are multiples of the
/// target's logical block size; buffers need no particular alignment.
class BlockAccess {
 public:
  virtual ~BlockAccess() = default;
  /// Writes `data` at `offset`. Io error on failure.
  virtual core::Status write_at(uint64_t offset, std::span<const uint8_t> data) = 0;
  /// Reads `data.size()` bytes at `offset`; a short read is an error.
  virtual core::Status read_at(uint64_t offset, std::span<uint8_t> data) = 0;
  /// Makes completed writes durable (flush / fsync).
  virtual core::Status flush() = 0;
};

/// Block access over the guard's held descriptor (device/held_target.h), never by path: `fd`
/// is borrowed (open with O_DIRECT, read-write) and outlives the BlockAccess; `name` is for
/// messages.
class BlockAccessFactory {
 public:
  virtual ~BlockAccessFactory() = default;
  virtual core::Result<std::unique_ptr<BlockAccess>> open(int fd, const std::string& name) = 0;
};

}  // namespace pts::model
