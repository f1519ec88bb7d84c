// engine/block_io.h — model::BlockAccess over io_uring: a small synchronous O_DIRECT
// read/write helper for the few block reads and writes outside a measured run (purge
// verification). One ring of depth 2, one aligned bounce buffer; nothing here is on a hot
// path. May use: core, model.
#pragma once

#include <memory>
#include <string>

#include "core/result.h"
#include "model/block_access.h"

namespace pts::engine {

/// Opens `path` with O_DIRECT (never buffered) and sets up the ring. BadInput when it cannot
/// be opened for direct I/O.
core::Result<std::unique_ptr<model::BlockAccess>> open_block_io(const std::string& path, bool writable);

/// Sets up the ring over a borrowed descriptor (open with O_DIRECT; not closed here), e.g.
/// the guard's exclusively opened one. `name` is used in messages.
core::Result<std::unique_ptr<model::BlockAccess>> borrow_block_io(int fd, const std::string& name);

/// The factory device::open_target() uses for purge verification: borrow_block_io on the
/// guard's held descriptor.
std::shared_ptr<model::BlockAccessFactory> block_io_factory();

}  // namespace pts::engine
