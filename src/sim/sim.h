// sim/sim.h — the simulated drive as the rest of ptsuite sees it: an io engine (the
// namespace's I/O, engine::IoEngine), an admin transport (the controller,
// device::AdminTransport: Identify, logs, features, Format NVM, Sanitize), block access with
// bytes (purge verification, model::BlockAccess) and a clock whose time is the drive's
// virtual time (core::Clock: idle waits advance it and let background GC run). app builds an
// NVMe target over the transport (device::make_nvme_target), so purge choice, sanitize
// monitoring and verification run through their real code; nothing above these interfaces
// asks which drive it talks to. May use: core, model, engine and device interfaces.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "core/clock.h"
#include "core/result.h"
#include "device/admin_transport.h"
#include "model/block_access.h"
#include "device/target_device.h"
#include "engine/io_engine.h"
#include "model/cell.h"
#include "model/run_record.h"
#include "sim/session.h"
#include "sim/target.h"

namespace pts::sim {

/// Everything app wires for one simulated drive.
struct SimDevice {
  std::shared_ptr<DriveSession> session;
  std::shared_ptr<core::Clock> clock;                        ///< virtual time
  std::unique_ptr<device::AdminTransport> transport;         ///< the controller
  std::shared_ptr<model::BlockAccessFactory> block_access;  ///< bytes of blocks
  /// The guard's check for this drive: ok while this process holds the state file's
  /// exclusive lock (the simulated equivalent of O_EXCL), Refused for a read-only view.
  std::function<core::Status()> guard;
  uint32_t nsid = 1;  ///< the namespace make_sim_target() makes a target of (SimTarget #NSID)
};

/// The block name a namespace of a simulated drive stands under (no such node in sysfs):
/// "ptsuite-sim" for NSID 1, "ptsuite-sim-nN" for the others.
std::string sim_block_name(uint32_t nsid);

/// Opens the drive `target` names (see DriveSession::open for `writable`).
core::Result<SimDevice> open_sim_device(const SimTarget& target, bool writable);

/// The NVMe target over the drive's controller (device::make_nvme_target, so purge choice,
/// sanitize monitoring and verification are the real code): namespace `dev.nsid` in a
/// subsystem of one controller (every attached namespace listed), polling waits in virtual time, its guard the state file's
/// lock. Takes `dev.transport`. A writable drive's target is given the locked state file's
/// descriptor as its held one (the block access accepts no other).
std::unique_ptr<device::TargetDevice> make_sim_target(const std::string& path, SimDevice& dev);

/// The namespace's I/O engine: cells run in the drive's virtual time; the CellResult has the
/// same fields as the io_uring engine's, plus CellResult::simulated.
std::unique_ptr<engine::IoEngine> make_sim_engine(std::shared_ptr<DriveSession> session,
                                                  std::shared_ptr<core::Clock> clock);
/// The same over namespaces `nsids` of the drive (in order: the engine's targets, see
/// IoEngine::run_jobs); run() runs on the first. Namespaces share the drive's FTL, dies,
/// channels, write buffer and GC, so their jobs contend as on a real drive.
std::unique_ptr<engine::IoEngine> make_sim_engine(std::shared_ptr<DriveSession> session,
                                                  std::shared_ptr<core::Clock> clock, std::vector<uint32_t> nsids);

/// The controller alone (open_sim_device wires it; tests build targets over it).
std::unique_ptr<device::AdminTransport> make_sim_controller(std::shared_ptr<DriveSession> session);

/// What a run record says about the drive (RunRecord::simulated_drive).
model::SimulatedDriveInfo describe_for_record(const DriveSession& session);

}  // namespace pts::sim
