// app/cell_targets.h — the targets of a multi-job cell (model/job.h), opened for one engine:
// every target through the one guard entry point — an exclusive hold with the operator's
// consent (device::acquire_target) where a job writes, a shared hold (device::hold_for_reading)
// where jobs only read — and one engine over all of them (the io_uring engine over the held
// descriptors, or a simulated drive's engine over its namespaces). Namespaces of one drive are
// confirmed by the drive's identity once: any one --confirm value that matches confirms each,
// and the consent lines list them. Consent is checked on a read-only look at every written
// target before any of them is held, so an unconfirmed target is bad input (exit 2) with
// nothing held or written. Several `sim:` targets must be namespaces (#NSID) of one simulated
// drive (one virtual clock); real and simulated targets do not mix. May use: every module.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/target_open.h"
#include "core/result.h"
#include "engine/io_engine.h"
#include "model/job.h"

namespace pts::app {

struct CellTargetsRequest {
  std::vector<std::string> targets;   ///< as given, each once
  std::vector<bool> written;          ///< per target: some job writes it
  std::vector<std::string> confirm;   ///< --confirm values; any one that matches confirms a target
  bool force_signatures = false;
};

struct CellTargets {
  std::vector<WritableTarget> holds;       ///< real targets: one each; a simulated drive: one
  std::vector<std::string> paths;          ///< per target, as records store them
  std::unique_ptr<engine::IoEngine> engine;
  std::vector<std::string> consent_lines;  ///< what confirmed and holds each target, for stderr
  std::vector<std::pair<std::string, std::string>> deviations;  ///< the holds' (force-signatures)
  std::shared_ptr<sim::DriveSession> sim;  ///< the simulated drive, or null
  std::shared_ptr<core::Clock> clock;      ///< its virtual clock, or the system clock
  std::vector<model::DeviceIdentity> identities;  ///< per target
};

/// "1,2,3" → {"1","2","3"}: the values of a --confirm that confirms several targets.
std::vector<std::string> confirm_values(const std::optional<std::string>& confirm);

/// Opens and holds every target (see the top of this file). BadInput lists every problem at
/// once (a target given twice, unconfirmed targets, mixed kinds, a namespace that does not
/// exist); Refused comes from the guard.
core::Result<CellTargets> open_cell_targets(const CellTargetsRequest& request);

/// Saves a simulated drive and releases every hold; false when the drive could not be saved.
bool close_cell_targets(CellTargets& targets, const char* command);

}  // namespace pts::app
