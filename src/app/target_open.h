// app/target_open.h — the one place that picks the implementations for a TARGET string: a
// `sim:` target becomes a simulated drive (an NVMe target over the simulated controller, its
// engine and its virtual clock); anything else is opened by device::open_target with the
// io_uring engine and the system clock. Commands above this ask nothing about which it is.
// May use: every module.
#pragma once

#include <memory>
#include <string>

#include "core/clock.h"
#include "core/result.h"
#include "device/target_device.h"
#include "engine/io_engine.h"
#include "engine/io_target.h"
#include "model/run_record.h"
#include "sim/session.h"

namespace pts::app {

struct OpenedTarget {
  std::string path;                            ///< as records store it (sim: the canonical form)
  std::unique_ptr<device::TargetDevice> device;
  std::shared_ptr<core::Clock> clock;          ///< the system clock, or the drive's virtual clock
  std::shared_ptr<sim::DriveSession> sim;      ///< null for real targets
  /// Real targets: the drive's I/O path for the engine (after inspect_target).
  engine::IoTarget io;
  /// Simulated drives: the state file did not exist before this command.
  bool sim_created = false;
};

/// True for "sim:..." targets.
bool is_simulated(const std::string& target);

/// Opens a simulated drive. `writable`: lock its state file for this process (created when
/// missing); read-only never writes (info, plan).
core::Result<OpenedTarget> open_sim_target(const std::string& target, bool writable);

/// Opens any target for identity, guard and purge (`device::open_target` for real ones, with
/// liburing block access wired for verification).
core::Result<OpenedTarget> open_device_target(const std::string& target, bool writable);

/// The engine for an opened target: the simulated drive's, or io_uring on `t.io`.
core::Result<std::unique_ptr<engine::IoEngine>> open_engine(OpenedTarget& t, bool writable);

/// Marks a run record as made on a simulated drive: virtual_time, simulated_drive and the
/// "simulated-drive" deviation (a simulated drive never poses as a real one).
void mark_simulated(const OpenedTarget& t, model::RunRecord& header);

/// Commits the simulated drive's last checkpoint (no-op for real targets); its problems are
/// printed with `command` as prefix. Returns false when the drive could not be saved.
bool close_target(OpenedTarget& t, const char* command);

}  // namespace pts::app
