// sim/sim_device.cpp — open_sim_device(): the clock (virtual time; idle runs background GC),
// block access with bytes, the guard check and the controller, all over one DriveSession.
#include <algorithm>
#include <cstring>

#include "sim/sim.h"

#include "device/targets.h"

namespace pts::sim {

namespace {

/// The drive's clock: monotonic = its power-on time; wall = real time at attach + the
/// virtual time since; idle advances the drive (background GC) without waiting.
class SimClock final : public core::Clock {
 public:
  explicit SimClock(std::shared_ptr<DriveSession> s) : s_(std::move(s)) {}
  uint64_t monotonic_ns() override { return s_->drive().now(); }
  uint64_t wall_ns() override { return s_->wall_ns(); }
  bool idle_ns(uint64_t ns, const std::atomic<bool>* abort) override {
    if (abort && abort->load()) return false;
    if (ns == 0) return true;
    if (!s_->begin_change(RecordType::Idle).ok()) return false;
    s_->drive().idle(ns);
    s_->idled(ns);
    return !(abort && abort->load());
  }
  bool is_virtual() const override { return true; }

 private:
  std::shared_ptr<DriveSession> s_;
};

class SimBlockAccess final : public model::BlockAccess {
 public:
  SimBlockAccess(std::shared_ptr<DriveSession> s, uint32_t nsid) : s_(std::move(s)), nsid_(nsid) {}
  core::Status write_at(uint64_t offset, std::span<const uint8_t> data) override {
    if (auto st = check(offset, data.size()); !st.ok()) return st;
    offset += base();
    if (auto st = s_->begin_change(RecordType::BlockWrite); !st.ok()) return st;
    if (!s_->drive().write_blocks(offset, data)) return busy(offset);
    s_->wrote_blocks(offset, std::vector<uint8_t>(data.begin(), data.end()));
    return core::ok_status();
  }
  core::Status read_at(uint64_t offset, std::span<uint8_t> data) override {
    if (auto st = check(offset, data.size()); !st.ok()) return st;
    if (!s_->drive().read_blocks(offset + base(), data)) return busy(offset);  // changes nothing: not logged
    return core::ok_status();
  }
  core::Status flush() override { return core::ok_status(); }  // the buffer is the drive's own

 private:
  /// The namespace's offsets are its extent's on the drive.
  uint64_t base() const {
    const NamespaceExtent* ns = s_->drive().find_namespace(nsid_);
    return ns ? ns->offset_bytes : 0;
  }
  uint64_t size() const {
    const NamespaceExtent* ns = s_->drive().find_namespace(nsid_);
    return ns ? ns->size_bytes : 0;
  }
  core::Status check(uint64_t offset, size_t bytes) const {
    const uint64_t lbs = s_->drive().geometry().lba_bytes;
    if (offset % lbs || bytes % lbs || bytes == 0 || offset + bytes > size() ||
        bytes > (64u << 20))
      return core::Error(core::ErrorKind::Io, "simulated drive: block access of " + std::to_string(bytes) +
                                                  " B at " + std::to_string(offset) + " is outside the namespace or not "
                                                  "LBA aligned");
    return core::ok_status();
  }
  static core::Status busy(uint64_t offset) {
    return core::Error(core::ErrorKind::Io, "simulated drive: I/O at " + std::to_string(offset) +
                                                " refused: Sanitize In Progress");
  }
  std::shared_ptr<DriveSession> s_;
  uint32_t nsid_;
};

class SimBlockAccessFactory final : public model::BlockAccessFactory {
 public:
  SimBlockAccessFactory(std::shared_ptr<DriveSession> s, uint32_t nsid) : s_(std::move(s)), nsid_(nsid) {}
  /// `fd` is the held descriptor the guard gave: the state file's as it was locked (a new
  /// snapshot replaces the file and its descriptor, locked in turn). The drive must still
  /// hold its lock.
  core::Result<std::unique_ptr<model::BlockAccess>> open(int fd, const std::string&) override {
    if (fd < 0 || !s_->writable())
      return core::Error(core::ErrorKind::Refused, "refused: block access to the simulated drive " +
                                                       s_->target().text() +
                                                       " without its locked state file; nothing was written");
    return std::unique_ptr<model::BlockAccess>(new SimBlockAccess(s_, nsid_));
  }

 private:
  std::shared_ptr<DriveSession> s_;
  uint32_t nsid_;
};

}  // namespace

std::string sim_block_name(uint32_t nsid) { return nsid == 1 ? "ptsuite-sim" : "ptsuite-sim-n" + std::to_string(nsid); }

core::Result<SimDevice> open_sim_device(const SimTarget& target, bool writable) {
  auto s = DriveSession::open(target, writable);
  if (!s.ok()) return s.error();
  SimDevice d;
  d.session = *s;
  d.clock = std::make_shared<SimClock>(d.session);
  d.transport = make_sim_controller(d.session);
  d.block_access = std::make_shared<SimBlockAccessFactory>(d.session, target.namespace_id());
  d.nsid = target.namespace_id();
  std::weak_ptr<DriveSession> weak = d.session;
  d.guard = [weak]() -> core::Status {
    auto s = weak.lock();
    if (s && s->writable()) return core::ok_status();
    return core::Error(core::ErrorKind::Refused,
                       "refused: the simulated drive was opened read-only (its state file is not locked by this "
                       "process); nothing was written");
  };
  return d;
}

std::unique_ptr<device::TargetDevice> make_sim_target(const std::string& path, SimDevice& dev) {
  device::ResolvedTarget resolved;
  resolved.kind = model::TargetKind::NvmeNamespace;
  resolved.path = path;
  resolved.io_path = path;
  resolved.admin_path = path;
  resolved.block_name = sim_block_name(dev.nsid);  // no such node in /sys/class/block: no WWID
  resolved.nsid = dev.nsid;
  device::NvmeTargetDeps deps;
  deps.block_access = dev.block_access;
  deps.clock = dev.clock;
  std::shared_ptr<core::Clock> clock = dev.clock;
  deps.sleep = [clock](uint64_t ns) { (void)clock->idle_ns(ns); };  // polling waits pass in virtual time
  deps.guard = [g = dev.guard](const std::string&) { return g(); };
  // A simulated namespace has no block device to mount or hold: nothing outside ptsuite uses it.
  deps.in_use = [](const std::string&) { return core::ok_status(); };
  // The discard purge: Dataset Management (deallocate) of the whole namespace, logged.
  deps.discard = [s = dev.session, g = dev.guard, nsid = dev.nsid](uint64_t bytes) -> core::Result<std::string> {
    if (auto st = g(); !st.ok()) return st.error();
    const NamespaceExtent* ns = s->drive().find_namespace(nsid);
    if (!ns) return core::Error(core::ErrorKind::Io, "simulated drive: namespace " + std::to_string(nsid) + " is gone");
    const uint64_t base = ns->offset_bytes;
    bytes = std::min<uint64_t>(bytes, ns->size_bytes);
    if (auto st = s->begin_change(RecordType::Deallocate); !st.ok()) return st.error();
    const uint64_t trimmed = s->drive().ftl().counters().trimmed;
    const uint64_t done = s->drive().submit_trim(s->drive().now(), base, bytes);
    if (done == Drive::kFailed) return core::Error(core::ErrorKind::Io, "simulated drive: Dataset Management refused: Sanitize In Progress");
    s->drive().advance_to(done);
    s->deallocated(base, bytes);
    return "Dataset Management (deallocate) of " + std::to_string(bytes) + " bytes done on the simulated drive: " +
           std::to_string(s->drive().ftl().counters().trimmed - trimmed) + " mapped pages unmapped (not a SNIA purge)";
  };
  // Its namespaces as sysfs would list them: the default one as "ptsuite-sim", others by NSID.
  deps.subsystem = [s = dev.session](const std::string&) -> core::Result<device::NvmeSubsystem> {
    device::NvmeSubsystem sub;
    sub.name = "ptsuite-sim-subsys";
    sub.controllers = {"ptsuite-sim-ctrl"};
    for (const auto& n : s->drive().namespaces())
      if (n.attached) sub.namespaces.push_back(device::NamespaceNode{sim_block_name(n.nsid), n.nsid, {"ptsuite-sim-ctrl"}});
    return sub;
  };
  auto target = device::make_nvme_target(resolved, std::move(dev.transport), std::move(deps));
  if (dev.session->state_fd() >= 0) target->use_held_descriptor(dev.session->state_fd(), false);
  return target;
}

model::SimulatedDriveInfo describe_for_record(const DriveSession& s) {
  model::SimulatedDriveInfo info;
  info.target = s.target().text();
  info.profile = s.target().params.profile;
  for (const auto& [k, v] : all_values(s.target().params))
    info.parameters += (info.parameters.empty() ? "" : ",") + k + "=" + v;
  info.state_file = s.target().state_path;
  info.state_format = kStateFormatVersion;
  info.note = "simulated drive: every time in this record (timestamps, cell durations, latencies, idle and gaps) "
              "is the drive's virtual time, anchored to the real time the process attached; CPU figures are the "
              "simulator's own";
  return info;
}

}  // namespace pts::sim
