// app/target_open.cpp — see target_open.h.
#include "app/target_open.h"

#include <cstdio>

#include "app/block_access_adapter.h"
#include "device/targets.h"
#include "sim/sim.h"

namespace pts::app {

bool is_simulated(const std::string& target) { return sim::is_sim_target(target); }

core::Result<OpenedTarget> open_sim_target(const std::string& text, bool writable) {
  auto target = sim::parse_sim_target(text);
  if (!target.ok()) return target.error();
  auto dev = sim::open_sim_device(*target, writable);
  if (!dev.ok()) return dev.error();
  OpenedTarget out;
  out.path = target->text();
  out.sim = dev->session;
  out.clock = dev->clock;
  out.sim_created = dev->session->created();
  device::ResolvedTarget resolved;
  resolved.kind = model::TargetKind::NvmeNamespace;
  resolved.path = out.path;
  resolved.io_path = out.path;
  resolved.admin_path = out.path;
  resolved.nsid = 1;
  device::NvmeTargetDeps deps;
  deps.block_access = dev->block_access;
  deps.clock = dev->clock;
  std::shared_ptr<core::Clock> clock = dev->clock;
  deps.sleep = [clock](uint64_t ns) { (void)clock->idle_ns(ns); };  // polling waits pass in virtual time
  deps.guard = [g = dev->guard](const std::string&) { return g(); };
  deps.block_exists = [](const std::string&) { return false; };  // one namespace, no siblings
  out.device = device::make_nvme_target(resolved, std::move(dev->transport), std::move(deps));
  return out;
}

core::Result<OpenedTarget> open_device_target(const std::string& target, bool writable) {
  if (is_simulated(target)) return open_sim_target(target, writable);
  auto dev = device::open_target(target, make_block_access_factory());
  if (!dev.ok()) return dev.error();
  OpenedTarget out;
  out.path = target;
  out.device = std::move(dev.value());
  out.clock = std::make_shared<core::SystemClock>();
  return out;
}

core::Result<std::unique_ptr<engine::IoEngine>> open_engine(OpenedTarget& t, bool writable) {
  if (t.sim) return sim::make_sim_engine(t.sim, t.clock);
  return engine::open_uring_engine(t.io, writable);
}

void mark_simulated(const OpenedTarget& t, model::RunRecord& header) {
  if (!t.sim) return;
  header.virtual_time = true;
  header.simulated_drive = sim::describe_for_record(*t.sim);
  header.deviations.push_back(
      {"simulated-drive", "The target is a simulated drive (" + t.path +
                              "), not hardware: every figure comes from ptsuite's FTL and flash timing model, and all "
                              "times (cells, latencies, idle, timestamps) are its virtual time"});
}

bool close_target(OpenedTarget& t, const char* command) {
  if (!t.sim) return true;
  auto st = t.sim->close();
  if (st.ok()) return true;
  std::fprintf(stderr, "ptsuite %s: the simulated drive's state could not be saved: %s\n", command,
               st.error().message().c_str());
  return false;
}

}  // namespace pts::app
