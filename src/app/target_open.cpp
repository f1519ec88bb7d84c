// app/target_open.cpp — see target_open.h.
#include "app/target_open.h"

#include <cstdio>
#include <filesystem>

#include "app/guarded_target.h"
#include "device/nvme_topology.h"
#include "sim/host_loop.h"
#include "sim/sim.h"

namespace pts::app {

namespace {

/// What a claim hands back to the command beyond the HeldTarget.
struct SimSlot {
  std::shared_ptr<sim::DriveSession> session;
  std::shared_ptr<core::Clock> clock;
  std::string path;
};

/// The `sim:` kind for the guard entry point: parse, open and lock the state file (creating
/// it when missing), and give the NVMe target the locked descriptor as its held one.
device::TargetClaimer sim_claimer(std::shared_ptr<SimSlot> slot) {
  device::TargetClaimer c;
  c.prefix = "sim:";
  c.claim = [slot](const std::string& text) -> core::Result<device::ClaimedTarget> {
    auto target = sim::parse_sim_target(text);
    if (!target.ok()) return target.error();
    auto dev = sim::open_sim_device(*target, /*writable=*/true);  // Refused while another process holds the lock
    if (!dev.ok()) return dev.error();
    device::ClaimedTarget out;
    slot->session = dev->session;
    slot->clock = dev->clock;
    slot->path = target->text();
    out.device = sim::make_sim_target(slot->path, *dev);
    out.claim = dev->session;
    out.exclusivity = "exclusive lock (flock) on the simulated drive's state file " + target->state_path +
                      ", held for the command";
    out.kind = model::TargetKind::NvmeNamespace;  // its serial (not made up) confirms it
    out.created = dev->session->created();
    out.created_path = target->state_path;
    return out;
  };
  return c;
}

}  // namespace

bool is_simulated(const std::string& target) { return sim::is_sim_target(target); }

core::Result<ProbedTarget> open_read_only(const std::string& text) {
  ProbedTarget out;
  if (!is_simulated(text)) {
    auto dev = device::open_target(text);
    if (!dev.ok()) return dev.error();
    out.path = text;
    out.device = std::move(dev.value());
    return out;
  }
  auto target = sim::parse_sim_target(text);
  if (!target.ok()) return target.error();
  auto dev = sim::open_sim_device(*target, /*writable=*/false);
  if (!dev.ok()) return dev.error();
  out.path = target->text();
  out.sim = dev->session;
  out.clock = dev->clock;
  out.device = sim::make_sim_target(out.path, *dev);
  return out;
}

core::Result<device::ConfirmRules> confirmation_rules(const std::string& target, const model::DeviceIdentity& id) {
  if (!is_simulated(target)) return device::confirmation_rules_for(target, id);
  device::ConfirmRules r;
  if (!id.serial_made_up) r.serial = id.serial;
  return r;
}

model::EngineLimits engine_limits_for(const std::string& target) {
  if (!is_simulated(target)) return engine::uring_engine_limits();
  model::EngineLimits l;
  l.engine = "the simulated drive's host loop";
  l.max_outstanding_ios = sim::kMaxSlots;
  l.max_cell_seconds = static_cast<double>(sim::kMaxCellNs) / 1e9;
  return l;
}

core::Result<WritableTarget> acquire_writable(const std::string& target, device::AcquireOptions options) {
  auto slot = std::make_shared<SimSlot>();
  options.claimers.push_back(sim_claimer(slot));
  WritableTarget out;
  auto held = device::acquire_target(target, options);
  if (!held.ok()) {
    // A state file this attempt created (then refused, e.g. no consent) leaves no trace.
    if (slot->session && slot->session->created()) {
      const std::string state = slot->session->target().state_path;
      slot->session->abandon();
      slot->session.reset();
      std::error_code ec;
      std::filesystem::remove(state, ec);
    }
    return held.error();
  }
  out.held = std::move(held.value());
  out.sim = slot->session;
  out.sim_created = out.sim && out.sim->created();
  out.clock = slot->clock ? slot->clock : std::make_shared<core::SystemClock>();
  out.path = out.sim ? slot->path : target;
  return out;
}

core::Result<std::unique_ptr<engine::IoEngine>> open_engine(WritableTarget& t, const engine::TargetInfo& info,
                                                            bool writable) {
  if (t.sim) return sim::make_sim_engine(t.sim, t.clock);
  engine::IoTarget io = info.target;
  io.fd = t.held ? t.held->fd() : -1;
  return engine::open_uring_engine(io, writable);
}

core::Result<std::unique_ptr<engine::IoEngine>> open_plan_engine(WritableTarget& t, const engine::TargetInfo& info,
                                                                 const model::TestPlan& plan,
                                                                 const std::optional<std::string>& confirm,
                                                                 bool force_signatures) {
  const auto* q = plan.params<model::QosPlan>();
  if (!q || q->namespaces.empty()) return open_engine(t, info, /*writable=*/true);
  std::vector<std::string> errors;
  if (t.sim) {
    for (uint32_t nsid : q->namespaces) {
      const sim::NamespaceExtent* ns = t.sim->drive().find_namespace(nsid);
      if (!ns || !ns->attached)
        errors.push_back("TARGET " + t.path + ": " + plan.test_id + " runs on namespaces 1 to " +
                         std::to_string(q->namespaces.size()) + " of the drive, but it has no attached namespace " +
                         std::to_string(nsid) + " (make them: ptsuite namespaces " + t.sim->target().drive_text() +
                         " --create " + std::to_string(q->namespaces.size()) + " --confirm SERIAL)");
    }
    if (!errors.empty()) return core::Error(core::ErrorKind::BadInput, errors);
    return sim::make_sim_engine(t.sim, t.clock, q->namespaces);
  }
  // A real drive: its namespaces by NSID from sysfs; the target's own through its held descriptor.
  const auto& resolved = t.held->resolved();
  auto sub = device::subsystem_of_namespace(resolved.block_name);
  if (!sub.ok()) return core::bad_input("TARGET " + t.path + ": " + plan.test_id + " needs the namespaces of its "
                                        "controller: " + sub.error().message());
  std::vector<engine::IoTarget> io;
  std::vector<bool> writable;
  for (uint32_t nsid : q->namespaces) {
    const device::NamespaceNode* node = nullptr;
    for (const auto& n : sub->namespaces)
      if (n.nsid == nsid) node = &n;
    if (!node) {
      errors.push_back("TARGET " + t.path + ": its controller has no namespace " + std::to_string(nsid) + " (" +
                       plan.test_id + " needs " + std::to_string(q->namespaces.size()) + ")");
      continue;
    }
    if (node->block == resolved.block_name) {
      io.push_back(engine_target(*t.held, t.path, info.target.size_bytes, info.target.logical_block_bytes));
    } else {
      const std::string path = "/dev/" + node->block;
      auto ni = engine::inspect_target(path, true);
      if (!ni.ok()) return ni.error();
      device::AcquireOptions o = writing_options(confirm, force_signatures);
      o.ask = nullptr;
      auto held = device::acquire_target(path, o);
      if (!held.ok()) return held.error();
      io.push_back(engine_target(**held, path, ni->target.size_bytes, ni->target.logical_block_bytes));
      t.siblings.push_back(std::move(held.value()));
    }
    writable.push_back(true);
  }
  if (!errors.empty()) return core::Error(core::ErrorKind::BadInput, errors);
  return engine::open_uring_engine(io, writable);
}

void mark_simulated(const WritableTarget& t, model::RunRecord& header) {
  if (!t.sim) return;
  header.virtual_time = true;
  header.simulated_drive = sim::describe_for_record(*t.sim);
  header.deviations.push_back(
      {"simulated-drive", "The target is a simulated drive (" + t.path +
                              "), not hardware: every figure comes from ptsuite's FTL and flash timing model, and all "
                              "times (cells, latencies, idle, timestamps) are its virtual time"});
}

bool close_target(WritableTarget& t, const char* command) {
  bool saved = true;
  if (t.sim) {
    if (auto st = t.sim->close(); !st.ok()) {
      std::fprintf(stderr, "ptsuite %s: the simulated drive's state could not be saved: %s\n", command,
                   st.error().message().c_str());
      saved = false;
    }
  }
  t.siblings.clear();
  t.held.reset();
  t.sim.reset();
  return saved;
}

void discard_created(WritableTarget& t) {
  if (!t.sim || !t.sim_created) return;
  const std::string state = t.sim->target().state_path;
  t.sim->abandon();
  t.held.reset();
  t.sim.reset();
  std::error_code ec;
  std::filesystem::remove(state, ec);
}

}  // namespace pts::app
