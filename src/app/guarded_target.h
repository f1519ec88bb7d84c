// app/guarded_target.h — how the writing commands (spec, purge, run, resume) call the one
// guard entry point, device::acquire_target(): the same options everywhere (--confirm or a
// terminal prompt, --force-signatures, the demo path, block access for purge verification,
// target kinds with their own exclusivity), and the engine target over the held descriptor.
// May use: device, engine.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "device/held_target.h"
#include "engine/io_engine.h"

namespace pts::app {

/// The built-in demo target's path (PTSUITE_DEMO_TARGET, else /var/tmp/ptsuite-demo-target.img).
std::string demo_target_path();

/// Options for acquire_target(): `confirm` (without it, a prompt when stdin is a terminal).
device::AcquireOptions writing_options(const std::optional<std::string>& confirm, bool force_signatures,
                                       bool created_by_ptsuite = false);

/// The engine's target over the held descriptor (never a second open by path).
engine::IoTarget engine_target(const device::HeldTarget& held, const std::string& path, uint64_t size_bytes,
                               uint32_t logical_block_bytes);

/// One line naming what was confirmed and how the target is held, for stderr.
std::string consent_line(const device::HeldTarget& held);

}  // namespace pts::app
