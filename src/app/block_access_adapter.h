// app/block_access_adapter.h — wires engine::BlockIo (liburing, O_DIRECT) into the device
// layer's BlockAccess interface, which purge verification uses. May use: device, engine.
#pragma once

#include <memory>

#include "device/block_access.h"

namespace pts::app {

/// The BlockAccessFactory to hand to device::open_target().
std::shared_ptr<device::BlockAccessFactory> make_block_access_factory();

}  // namespace pts::app
