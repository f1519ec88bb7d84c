// app/target_open.h — the one place that picks the implementations for a TARGET string: a
// `sim:` target becomes a simulated drive (an NVMe target over the simulated controller, its
// engine, its engine limits and its virtual clock); anything else is a real target (device/,
// the io_uring engine, the system clock). Writable targets come only from the one guard entry
// point, device::acquire_target(), to which this file hands the `sim:` kind's claimer: its
// exclusivity is an exclusive lock on the state file, its consent the drive's serial (what
// `ptsuite info sim:...` shows), its held descriptor the locked state file's. Commands above
// this ask nothing about which kind it is. May use: every module.
#pragma once

#include <memory>
#include <optional>
#include <vector>
#include <string>

#include "core/clock.h"
#include "core/result.h"
#include "device/confirm.h"
#include "device/held_target.h"
#include "device/target_device.h"
#include "engine/io_engine.h"
#include "engine/io_target.h"
#include "model/engine_limits.h"
#include "model/run_record.h"
#include "sim/session.h"

namespace pts::app {

/// True for "sim:..." targets.
bool is_simulated(const std::string& target);

/// A target opened read-only (info, plan, the identity probe before the guard).
struct ProbedTarget {
  std::string path;                              ///< as records store it (sim: the canonical form)
  std::unique_ptr<device::TargetDevice> device;
  std::shared_ptr<sim::DriveSession> sim;        ///< null for real targets
  std::shared_ptr<core::Clock> clock;            ///< a simulated drive's virtual clock (null: real)
};

/// Opens TARGET without changing it: a simulated drive's state file is read, never locked
/// or created (a missing one shows the drive a first writing command would make).
core::Result<ProbedTarget> open_read_only(const std::string& target);

/// What --confirm accepts for TARGET (`info`): a simulated drive's serial; a real target's
/// rules from the guard (device::confirmation_rules_for).
core::Result<device::ConfirmRules> confirmation_rules(const std::string& target, const model::DeviceIdentity& id);

/// The limits of the engine that will run on TARGET (resolve_plan checks every spec).
model::EngineLimits engine_limits_for(const std::string& target);

/// A target a command may write: held through the one guard entry point.
struct WritableTarget {
  std::unique_ptr<device::HeldTarget> held;
  std::shared_ptr<sim::DriveSession> sim;        ///< null for real targets
  std::shared_ptr<core::Clock> clock;            ///< the system clock, or the drive's virtual clock
  std::string path;                              ///< as records store it (sim: canonical, with @STATE)
  bool sim_created = false;                      ///< this command created the state file
  /// The other namespaces of its controller a plan runs on (open_plan_engine), each held
  /// through the guard as the target is; released with it.
  std::vector<std::unique_ptr<device::HeldTarget>> siblings;
};

/// device::acquire_target(target, options) with the `sim:` claimer added.
core::Result<WritableTarget> acquire_writable(const std::string& target, device::AcquireOptions options);

/// The engine for a held target: the simulated drive's, or io_uring over the held descriptor
/// (`info` is the real target's inspection; unused for a simulated drive).
core::Result<std::unique_ptr<engine::IoEngine>> open_engine(WritableTarget& t, const engine::TargetInfo& info,
                                                            bool writable);

/// The engine a plan runs on: open_engine(), or for a plan whose cells address several namespaces
/// of the target's controller (model::QosPlan::namespaces) one engine over all of them — a
/// simulated drive's namespaces share its session; a real drive's others are held through the
/// guard with the same --confirm (`confirm`: one serial confirms every namespace of its drive).
/// BadInput when a namespace does not exist.
core::Result<std::unique_ptr<engine::IoEngine>> open_plan_engine(WritableTarget& t, const engine::TargetInfo& info,
                                                                 const model::TestPlan& plan,
                                                                 const std::optional<std::string>& confirm,
                                                                 bool force_signatures);

/// Marks a run record as made on a simulated drive: virtual_time, simulated_drive and the
/// "simulated-drive" deviation (a simulated drive never poses as a real one).
void mark_simulated(const WritableTarget& t, model::RunRecord& header);

/// Commits the simulated drive's last checkpoint and releases the target (no checkpoint for
/// real targets); problems are printed with `command` as prefix. False when the drive could
/// not be saved.
bool close_target(WritableTarget& t, const char* command);

/// Releases the target and removes a state file this command created (a command that
/// failed before using the drive leaves no trace).
void discard_created(WritableTarget& t);

}  // namespace pts::app
