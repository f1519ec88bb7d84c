// device/block_access.h — the few direct block reads and writes that purge verification
// needs, as an interface: device/ may not use engine/ (where liburing lives), so app/ wires
// engine::BlockIo in (app/block_access_adapter.h) and tests pass an in-memory fake.
// May use: core.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "core/result.h"

namespace pts::device {

/// Direct (uncached) access to one opened target. Offsets and lengths are multiples of the
/// target's logical block size; buffers need no particular alignment.
class BlockAccess {
 public:
  virtual ~BlockAccess() = default;
  virtual core::Status write_at(uint64_t offset, std::span<const uint8_t> data) = 0;
  virtual core::Status read_at(uint64_t offset, std::span<uint8_t> data) = 0;
  /// Makes completed writes durable (flush / fsync).
  virtual core::Status flush() = 0;
};

/// Block access over the guard's held descriptor (held_target.h), never by path: `fd` is
/// borrowed (open with O_DIRECT, read-write) and outlives the BlockAccess; `name` is for
/// messages.
class BlockAccessFactory {
 public:
  virtual ~BlockAccessFactory() = default;
  virtual core::Result<std::unique_ptr<BlockAccess>> open(int fd, const std::string& name) = 0;
};

}  // namespace pts::device
