// engine/block_io.h — a small synchronous O_DIRECT read/write helper over io_uring, for the
// few block reads and writes outside a measured run (purge verification). One ring of depth
// 2, one aligned bounce buffer; nothing here is on a hot path. May use: core.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "core/result.h"

namespace pts::engine {

class BlockIo {
 public:
  virtual ~BlockIo() = default;
  /// Writes `data` at `offset` (both multiples of the logical block size). Io error on failure.
  virtual core::Status write_at(uint64_t offset, std::span<const uint8_t> data) = 0;
  /// Reads `data.size()` bytes at `offset`; a short read is an error.
  virtual core::Status read_at(uint64_t offset, std::span<uint8_t> data) = 0;
  /// fsync through the ring (flushes the device's volatile cache for block devices).
  virtual core::Status flush() = 0;
};

/// Opens `path` with O_DIRECT (never buffered) and sets up the ring. BadInput when it cannot
/// be opened for direct I/O.
core::Result<std::unique_ptr<BlockIo>> open_block_io(const std::string& path, bool writable);

/// Sets up the ring over a borrowed descriptor (open with O_DIRECT; not closed here), e.g.
/// the guard's exclusively opened one. `name` is used in messages.
core::Result<std::unique_ptr<BlockIo>> borrow_block_io(int fd, const std::string& name);

}  // namespace pts::engine
