// app/cell_targets.cpp — see cell_targets.h.
#include "app/cell_targets.h"

#include <filesystem>
#include <set>

#include "app/guarded_target.h"
#include "engine/io_target.h"
#include "sim/sim.h"
#include "sim/target.h"

namespace pts::app {

namespace {

/// A target's key for "given twice": the canonical path (a symlink to a device is that device).
std::string same_key(const std::string& t) {
  if (is_simulated(t)) return t;
  std::error_code ec;
  const auto c = std::filesystem::canonical(t, ec);
  return ec ? t : c.string();
}

/// Whether one of `values` confirms `target` (a read-only look at its identity); the message
/// names what would have when none does.
std::optional<std::string> unconfirmed(const std::string& target, const std::vector<std::string>& values) {
  auto probe = open_read_only(target);
  if (!probe.ok()) return probe.error().message();
  auto id = probe->device->identify();
  if (!id.ok()) return "TARGET " + target + ": identity unreadable: " + id.error().message();
  auto rules = confirmation_rules(target, *id);
  if (!rules.ok()) return rules.error().message();
  for (const auto& v : values)
    if (device::check_confirmation(*id, *rules, v, nullptr).ok()) return std::nullopt;
  return "TARGET " + target + ": a job writes it, but it is not confirmed: give --confirm " +
         (values.empty() ? std::string("with ") : std::string("also with ")) + device::accepted_confirmations(*rules) +
         " (several targets: --confirm A,B; one serial confirms every namespace of its drive)";
}

core::Status open_simulated(const CellTargetsRequest& rq, CellTargets& out, std::vector<std::string>& errors) {
  std::vector<sim::SimTarget> parsed;
  for (const auto& t : rq.targets) {
    auto p = sim::parse_sim_target(t);
    if (!p.ok()) {
      for (const auto& m : p.error().messages) errors.push_back(m);
      continue;
    }
    if (!parsed.empty() && p->drive_text() != parsed.front().drive_text())
      errors.push_back("TARGET " + t + ": the targets of one cell must be namespaces (#NSID) of one simulated drive (" +
                       parsed.front().drive_text() + "): each drive has its own virtual clock");
    parsed.push_back(*p);
  }
  if (!errors.empty()) return core::Error(core::ErrorKind::BadInput, errors);
  bool writes = false;
  for (bool w : rq.written) writes = writes || w;
  // The namespaces must exist, and a written drive be confirmed, before anything is held.
  {
    auto probe = open_read_only(parsed.front().drive_text());
    if (!probe.ok()) return probe.error();
    for (const auto& p : parsed) {
      const sim::NamespaceExtent* ns = probe->sim->drive().find_namespace(p.namespace_id());
      if (!ns || !ns->attached)
        errors.push_back("TARGET " + p.text() + ": the simulated drive has no attached namespace " +
                         std::to_string(p.namespace_id()) + " (`ptsuite namespaces " + p.drive_text() +
                         "` lists them; --create makes them)");
    }
  }
  if (writes)
    if (auto why = unconfirmed(parsed.front().text(), rq.confirm)) errors.push_back(*why);
  if (!errors.empty()) return core::Error(core::ErrorKind::BadInput, errors);

  WritableTarget w;
  if (writes) {
    device::AcquireOptions o = writing_options(std::nullopt, rq.force_signatures);
    o.ask = nullptr;
    o.confirm_any = rq.confirm;
    auto held = acquire_writable(parsed.front().text(), o);
    if (!held.ok()) return held.error();
    w = std::move(held.value());
  } else {
    auto probe = open_read_only(parsed.front().text());
    if (!probe.ok()) return probe.error();
    if (auto st = probe->sim->hold_shared(); !st.ok()) return st.error();
    w.sim = probe->sim;
    w.clock = probe->clock;
    w.path = probe->path;
  }
  std::vector<uint32_t> nsids;
  std::string listed;
  for (const auto& p : parsed) {
    nsids.push_back(p.namespace_id());
    out.paths.push_back(p.text());
    listed += (listed.empty() ? "" : ", ") + std::to_string(p.namespace_id());
  }
  std::string how = w.held ? (w.held->consent().method == "created-by-ptsuite"
                                  ? "no confirmation needed (a drive this command created)"
                                  : "confirmed once with " + w.held->consent().method + " '" + w.held->consent().value +
                                        "'") + "; " + w.held->consent().exclusivity
                           : "read only: a shared lock (flock LOCK_SH) on its state file, held for the command";
  out.consent_lines.push_back(parsed.front().drive_text() + ": namespaces " + listed + ": " + how);
  out.sim = w.sim;
  out.clock = w.clock;
  out.engine = sim::make_sim_engine(w.sim, w.clock, nsids);
  if (w.held) out.identities.assign(parsed.size(), w.held->identity());
  out.holds.push_back(std::move(w));
  return core::ok_status();
}

}  // namespace

std::vector<std::string> confirm_values(const std::optional<std::string>& confirm) {
  std::vector<std::string> out;
  if (!confirm) return out;
  size_t start = 0;
  while (true) {
    const size_t comma = confirm->find(',', start);
    const std::string v = confirm->substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!v.empty()) out.push_back(v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

core::Result<CellTargets> open_cell_targets(const CellTargetsRequest& rq) {
  std::vector<std::string> errors;
  std::set<std::string> seen;
  size_t simulated = 0;
  for (const auto& t : rq.targets) {
    if (!seen.insert(same_key(t)).second)
      errors.push_back("TARGET " + t + ": given twice; give each target once (several jobs may share one)");
    simulated += is_simulated(t);
  }
  if (rq.targets.empty()) errors.push_back("TARGET: missing");
  if (simulated && simulated != rq.targets.size())
    errors.push_back("simulated (sim:) and real targets cannot share a cell: a simulated drive's time is virtual");
  if (!errors.empty()) return core::Error(core::ErrorKind::BadInput, errors);

  CellTargets out;
  if (simulated) {
    if (auto st = open_simulated(rq, out, errors); !st.ok()) return st.error();
    return out;
  }
  // Real targets: sizes first (nothing held), consent on a read-only look, then the holds.
  std::vector<engine::TargetInfo> infos;
  for (size_t i = 0; i < rq.targets.size(); ++i) {
    auto info = engine::inspect_target(rq.targets[i], rq.written[i]);
    if (!info.ok()) {
      for (const auto& m : info.error().messages) errors.push_back(m);
      continue;
    }
    if (!info->exists) errors.push_back("TARGET " + rq.targets[i] + ": does not exist (a cell of several targets creates none)");
    infos.push_back(*info);
  }
  for (size_t i = 0; i < rq.targets.size() && errors.empty(); ++i)
    if (rq.written[i])
      if (auto why = unconfirmed(rq.targets[i], rq.confirm)) errors.push_back(*why);
  if (!errors.empty()) return core::Error(core::ErrorKind::BadInput, errors);

  std::vector<engine::IoTarget> io;
  for (size_t i = 0; i < rq.targets.size(); ++i) {
    WritableTarget w;
    if (rq.written[i]) {
      device::AcquireOptions o = writing_options(std::nullopt, rq.force_signatures);
      o.ask = nullptr;
      o.confirm_any = rq.confirm;
      auto held = acquire_writable(rq.targets[i], o);
      if (!held.ok()) return held.error();  // the holds taken so far are released with `out`
      w = std::move(held.value());
      for (const auto& d : w.held->deviations()) out.deviations.push_back(d);
    } else {
      auto held = device::hold_for_reading(rq.targets[i], device::AcquireOptions{});
      if (!held.ok()) return held.error();
      w.held = std::move(held.value());
      w.path = rq.targets[i];
      w.clock = std::make_shared<core::SystemClock>();
    }
    out.consent_lines.push_back(consent_line(*w.held));
    out.identities.push_back(w.held->identity());
    io.push_back(engine_target(*w.held, rq.targets[i], infos[i].target.size_bytes, infos[i].target.logical_block_bytes));
    out.paths.push_back(rq.targets[i]);
    out.holds.push_back(std::move(w));
  }
  auto eng = engine::open_uring_engine(io, rq.written);
  if (!eng.ok()) return eng.error();
  out.engine = std::move(eng.value());
  out.clock = std::make_shared<core::SystemClock>();
  return out;
}

bool close_cell_targets(CellTargets& t, const char* command) {
  t.engine.reset();  // the workers go before the descriptors they borrow
  bool saved = true;
  for (auto& h : t.holds) saved = close_target(h, command) && saved;
  t.holds.clear();
  t.sim.reset();
  return saved;
}

}  // namespace pts::app
