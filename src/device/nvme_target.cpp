// device/nvme_target.cpp — an NVMe namespace as a TargetDevice: identify through admin
// commands, purge by Sanitize (polled) or Format NVM (SES 1/2, never 0), volatile write
// cache through Get/Set Features. Commands go through AdminTransport only.
// May use: core, model, device.
#include <time.h>

#include <cerrno>
#include <cstring>
#include <algorithm>

#include "device/block_ops.h"
#include "device/guard.h"
#include "device/nvme_commands.h"
#include "device/nvme_decode.h"
#include "device/held_target.h"
#include "device/nvme_identity.h"
#include "device/nvme_namespaces.h"
#include "device/nvme_topology.h"
#include "device/pcie_link.h"
#include "device/sysfs.h"
#include "device/target_base.h"
#include "device/targets.h"

namespace pts::device {

namespace {

using model::PurgeMethod;

core::Error command_error(const std::string& what, const AdminCompletion& c) {
  if (c.sys_errno) return core::Error(core::ErrorKind::Device, what + ": " + std::strerror(c.sys_errno), c.sys_errno);
  core::Error e(core::ErrorKind::Device, what + ": " + nvme_status_text(c.sct, c.sc, c.dnr));
  e.nvme = core::NvmeStatus{c.sct, c.sc, c.dnr};
  return e;
}

void real_sleep(uint64_t ns) {
  timespec ts{static_cast<time_t>(ns / 1'000'000'000ull), static_cast<long>(ns % 1'000'000'000ull)};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

class NvmeTarget final : public TargetBase {
 public:
  NvmeTarget(const ResolvedTarget& t, std::unique_ptr<AdminTransport> transport, NvmeTargetDeps deps)
      : TargetBase(t.io_path, deps.block_access, deps.clock),
        target_(t),
        transport_(std::move(transport)),
        deps_(std::move(deps)) {
    if (!deps_.sleep) deps_.sleep = real_sleep;
    if (!deps_.sibling_guard) {
      if (deps_.guard)
        deps_.sibling_guard = [g = deps_.guard](const std::string& name, bool) { return g(name); };
      else
        deps_.sibling_guard = [root = deps_.sysfs_root](const std::string& name, bool force) {
          return examine_sibling_namespace(name, force, root);
        };
    }
    if (!deps_.guard)
      deps_.guard = [root = deps_.sysfs_root](const std::string& name) { return guard_block_device(name, root); };
  }

  core::Status guard() override {
    if (auto g = deps_.guard(target_.block_name); !g.ok()) return g;
    return guard_partition_table();
  }

  core::Result<model::WriteCacheState> write_cache() override {
    auto id = identify_raw();
    if (!id.ok()) return id.error();
    if (!ctrl_.vwc_present()) return model::WriteCacheState::NotPresent;
    AdminCompletion c = transport_->submit(nvme::get_volatile_write_cache());
    if (!c.ok()) return command_error("Get Features (Volatile Write Cache)", c);
    return (c.cdw0 & 1u) ? model::WriteCacheState::Enabled : model::WriteCacheState::Disabled;
  }

  /// ONCS bit 4 lets Get Features select the saved value and the capabilities; the feature is
  /// saveable only when its capabilities say so (QEMU's controller, for one, sets ONCS bit 4
  /// but keeps the write cache current-only and rejects SV = 1: Feature Identifier Not Saveable).
  core::Result<model::WriteCacheSetting> write_cache_setting() override {
    model::WriteCacheSetting s;
    auto now = write_cache();
    if (!now.ok()) return now.error();
    s.current = *now;
    if (s.current == model::WriteCacheState::NotPresent || !ctrl_.oncs_save_select()) return s;
    AdminCompletion cap = transport_->submit(nvme::get_volatile_write_cache(nvme::FeatureSelect::SupportedCapabilities));
    if (!cap.ok()) return command_error("Get Features (Volatile Write Cache, supported capabilities)", cap);
    if (!(cap.cdw0 & nvme::kFeatureCapSaveable)) return s;
    AdminCompletion saved = transport_->submit(nvme::get_volatile_write_cache(nvme::FeatureSelect::Saved));
    if (!saved.ok()) return command_error("Get Features (Volatile Write Cache, saved value)", saved);
    s.saveable = true;
    s.saved = (saved.cdw0 & 1u) ? model::WriteCacheState::Enabled : model::WriteCacheState::Disabled;
    return s;
  }

  /// CurrentAndSaved sends SV = 1 (the caller checked write_cache_setting().saveable): the
  /// test's setting then survives a controller reset during a long run; ptsuite sets the
  /// operator's setting back, current and saved, when the run ends (pts/phases.h).
  core::Result<model::WriteCacheState> set_write_cache(bool enabled, model::WriteCacheScope scope) override {
    auto id = identify_raw();
    if (!id.ok()) return id.error();
    if (!ctrl_.vwc_present()) return model::WriteCacheState::NotPresent;
    const bool save = scope == model::WriteCacheScope::CurrentAndSaved;
    if (save && !ctrl_.oncs_save_select())  // never sent: the controller would reject SV = 1
      return core::Error(core::ErrorKind::Internal,
                         "Set Features (Volatile Write Cache) with SV = 1 asked of a controller without ONCS bit 4");
    AdminCompletion c = transport_->submit(nvme::set_volatile_write_cache(
        enabled, save ? nvme::FeatureSave::SaveAcrossPowerCycles : nvme::FeatureSave::CurrentOnly));
    if (!c.ok()) return command_error(std::string("Set Features (Volatile Write Cache ") +
                                          (enabled ? "enable" : "disable") + (save ? ", saved" : "") + ")", c);
    return write_cache();
  }

 protected:
  core::Result<model::DeviceIdentity> read_identity() override {
    auto id = identify_raw();
    if (!id.ok()) return id;
    AdminCompletion s = transport_->submit(nvme::get_smart_log());
    if (s.ok())
      if (auto log = nvme::decode_smart_log(s.data); log.ok()) id->health = nvme_health(*log);
    if (!target_.block_name.empty()) id->pcie_link = read_pcie_link(target_.block_name);
    return id;
  }

  void execute_purge(PurgeMethod method, const model::DeviceIdentity& id, const PurgeRequest& req,
                     model::PurgeRecord& rec) override {
    AdminCommand cmd;
    switch (method) {
      case PurgeMethod::SanitizeCrypto: cmd = nvme::sanitize(nvme::Sanact::CryptoErase); break;
      case PurgeMethod::SanitizeBlock: cmd = nvme::sanitize(nvme::Sanact::BlockErase); break;
      case PurgeMethod::FormatCrypto:
      case PurgeMethod::FormatUser:
        cmd = nvme::format_nvm(id.namespace_id, layout_,
                               method == PurgeMethod::FormatCrypto ? nvme::Ses::CryptographicErase
                                                                   : nvme::Ses::UserDataErase,
                               deps_.format_timeout_ms);
        break;
      case PurgeMethod::Discard:  // Dataset Management through the block layer (deviation)
        if (deps_.discard) {
          auto done = deps_.discard(id.capacity_bytes);
          rec.success = done.ok();
          rec.sys_errno = done.ok() ? 0 : done.error().sys_errno;
          rec.status_text = done.ok() ? *done : done.error().message();
          return;
        }
        discard_all(held_fd(), target_.io_path, id.capacity_bytes, rec);
        return;
      default:
        rec.status_text = "method not applicable to an NVMe namespace";
        return;
    }
    rec.opcode = cmd.opcode;
    rec.nsid = cmd.nsid;
    rec.cdw = {cmd.cdw10, cmd.cdw11, cmd.cdw12, cmd.cdw13, cmd.cdw14, cmd.cdw15};
    SanitizeProgressFn progress;
    if (req.progress)
      progress = [&req](double f, uint64_t elapsed_ns, uint32_t est) { req.progress(f, elapsed_ns / 1e9, est); };
    SanitizeBefore before;
    std::string earlier;
    if (cmd.opcode == nvme::kOpSanitize) {
      // Read the log before sending: wait out a sanitize already in progress (a new one would
      // be refused, or confused with it), then remember the state to match our completion to.
      auto state = read_sanitize_state(*transport_);
      if (state.ok() && state->status == nvme::SanitizeLog::InProgress) {
        AdminCommand theirs = cmd;
        theirs.cdw10 = state->scdw10;
        SanitizeOutcome w = wait_for_sanitize(*transport_, theirs, clock(), deps_.sleep, deps_.sanitize_wait, progress);
        earlier = "waited " + std::to_string(w.polls) + " log reads for a sanitize already in progress (" + w.text + "); ";
        if (!w.success) {
          rec.status_text = earlier + "ours was not sent";
          return;
        }
        state = read_sanitize_state(*transport_);
      }
      if (!state.ok()) {
        rec.status_text = state.error().message() + "; the sanitize was not sent";
        return;
      }
      before = *state;
    }
    AdminCompletion c = transport_->submit(cmd);
    rec.sys_errno = c.sys_errno;
    if (!c.sys_errno) {
      rec.status_sct = c.sct;
      rec.status_sc = c.sc;
    }
    if (!c.ok()) {
      rec.status_text = c.sys_errno ? std::string("ioctl failed: ") + std::strerror(c.sys_errno)
                                    : nvme_status_text(c.sct, c.sc, c.dnr);
      return;
    }
    if (cmd.opcode != nvme::kOpSanitize) {
      rec.success = true;
      rec.status_text = nvme_status_text(0, 0);
      return;
    }
    SanitizeOutcome w =
        wait_for_sanitize(*transport_, cmd, clock(), deps_.sleep, deps_.sanitize_wait, progress, before);
    rec.progress_polls = w.polls;
    rec.success = w.success;
    rec.status_text = earlier + w.text +
                      (w.estimate_s ? " (controller estimate " + std::to_string(w.estimate_s) + " s)" : "");
    if (w.log_errno) rec.sys_errno = w.log_errno;
    if (w.log_sct || w.log_sc) {
      rec.status_sct = w.log_sct;
      rec.status_sc = w.log_sc;
    }
  }

  ErasedValue erased_value(PurgeMethod, const model::DeviceIdentity&) const override {
    switch (ns_.dealloc_read_value()) {
      case 1: return ErasedValue::Zeroes;
      case 2: return ErasedValue::Ones;
      default: return ErasedValue::NotPattern;
    }
  }

  core::Status guard_purge(PurgeMethod method) override {
    // Sanitize erases the whole NVM subsystem; a Format with secure erase (SES 1 or 2) covers
    // every namespace when FNA bit 0 or bit 1 says so: every other namespace of the subsystem
    // must be examinable and not in use. The siblings come from sysfs (subsystem → controllers
    // → namespaces, each with the NSID sysfs gives it), never from building nvmeXnY names.
    const bool sanitize = method == PurgeMethod::SanitizeCrypto || method == PurgeMethod::SanitizeBlock;
    const bool format = method == PurgeMethod::FormatUser || method == PurgeMethod::FormatCrypto;
    const bool all = sanitize || (format && (ctrl_.fna_format_all_ns() || ctrl_.fna_secure_erase_all_ns()));
    if (!all) return core::ok_status();
    const std::string why = sanitize ? " (Sanitize erases every namespace)" : " (this Format applies to every namespace)";
    auto refuse = [&](const std::string& what) {
      return core::Error(core::ErrorKind::Refused, "refused: " + what + why + "; nothing was written");
    };
    auto sub = subsystem();
    if (!sub.ok()) return refuse("the other namespaces of " + target_.path + " cannot be examined: " + sub.error().message());
    // Namespaces the controller reports that this host has no block device for cannot be
    // examined; for a Sanitize also those only allocated (attached elsewhere, or nowhere).
    std::vector<uint32_t> reported;
    AdminCompletion c = transport_->submit(nvme::identify_active_namespaces());
    if (c.ok()) reported = nvme::decode_ns_list(c.data);
    if (sanitize && ctrl_.oacs_ns_mgmt()) {
      AdminCompletion a = transport_->submit(nvme::identify_allocated_namespaces());
      if (a.ok())
        for (uint32_t n : nvme::decode_ns_list(a.data))
          if (std::find(reported.begin(), reported.end(), n) == reported.end()) reported.push_back(n);
    }
    for (uint32_t nsid : reported) {
      const bool seen = std::any_of(sub->namespaces.begin(), sub->namespaces.end(),
                                    [&](const NamespaceNode& n) { return n.nsid == nsid; });
      if (!seen)
        return refuse("namespace " + std::to_string(nsid) + " of " + sub->name +
                      " has no block device on this host, so it cannot be examined");
    }
    for (const auto& n : sub->namespaces) {
      if (n.block == target_.block_name) continue;
      if (auto g = deps_.sibling_guard(n.block, force_signatures()); !g.ok()) {
        core::Error e = g.error();
        std::string& m = e.messages.front();
        const auto at = m.rfind("; nothing was written");
        m.insert(at == std::string::npos ? m.size() : at, " — /dev/" + n.block + " is namespace " +
                                                              std::to_string(n.nsid) + " of " + sub->name + why);
        return e;
      }
    }
    return core::ok_status();
  }

  core::Result<model::NamespaceInventory> namespaces() override { return read_namespaces(namespace_access()); }

  core::Result<model::NamespaceInventory> recreate_namespaces(uint32_t count, uint64_t size_bytes) override {
    if (held_fd() < 0)
      return core::Error(core::ErrorKind::Internal, "namespace re-creation without the guard's held descriptor");
    if (auto g = deps_.guard(target_.block_name); !g.ok()) return g.error();
    return device::recreate_namespaces(namespace_access(), count, size_bytes);
  }

 private:
  NamespaceAccess namespace_access() {
    NamespaceAccess a;
    a.transport = transport_.get();
    a.subsystem = [this] { return subsystem(); };
    a.in_use = [this](const std::string& block) { return deps_.in_use ? deps_.in_use(block) : deps_.guard(block); };
    a.examine = [this](const std::string& block) { return deps_.sibling_guard(block, force_signatures()); };
    a.own_block = target_.block_name;
    return a;
  }

  core::Result<NvmeSubsystem> subsystem() const {
    if (deps_.subsystem) return deps_.subsystem(target_.block_name);
    return subsystem_of_namespace(target_.block_name, deps_.sysfs_root);
  }

  /// Identify Controller + Namespace; keeps the raw structures for purge decisions.
  core::Result<model::DeviceIdentity> identify_raw() {
    AdminCompletion c = transport_->submit(nvme::identify_controller());
    if (!c.ok()) return command_error("Identify Controller", c);
    auto ctrl = nvme::decode_id_ctrl(c.data);
    if (!ctrl.ok()) return ctrl.error();
    AdminCompletion n = transport_->submit(nvme::identify_namespace(target_.nsid));
    if (!n.ok()) return command_error("Identify Namespace " + std::to_string(target_.nsid), n);
    auto ns = nvme::decode_id_ns(n.data);
    if (!ns.ok()) return ns.error();
    if (ns->lba_bytes() == 0 || ns->nsze == 0)
      return core::Error(core::ErrorKind::BadInput,
                         "TARGET " + target_.path + ": namespace " + std::to_string(target_.nsid) +
                             " is inactive or has an unusable LBA format");
    ctrl_ = *ctrl;
    ns_ = *ns;
    layout_ = {ns_.current_lbaf(), ns_.metadata_at_end(), uint8_t(ns_.dps & 0x7), bool(ns_.dps & 0x8)};
    model::DeviceIdentity id = nvme_identity(ctrl_, ns_, target_.nsid, target_.path);
    // Identifiers: the descriptor list (NVMe 1.3+) when the controller answers it, else
    // Identify Namespace's NGUID / EUI-64.
    NamespaceIds ids{{}, ns_.nguid, ns_.eui64};
    AdminCompletion d = transport_->submit(nvme::identify_ns_descriptors(target_.nsid));
    if (d.ok()) {
      auto desc = nvme::decode_ns_descriptors(d.data);
      if (!desc.uuid.empty()) ids.uuid = desc.uuid;
      if (!desc.nguid.empty()) ids.nguid = desc.nguid;
      if (!desc.eui64.empty()) ids.eui64 = desc.eui64;
    }
    id.nguid = hex_id(ids.nguid);
    id.eui64 = hex_id(ids.eui64);
    const std::string sys = deps_.sysfs_root + "/sys/class/block/" + target_.block_name;
    id.wwid = sysfs::read_line(sys + "/wwid").value_or("");
    if (auto sub = subsystem(); sub.ok()) {
      id.subsystem_namespaces = static_cast<uint32_t>(sub->namespaces.size());
      id.subsystem_controllers = static_cast<uint32_t>(sub->controllers.size());
    }
    // A generic or controller node was resolved to this block device through sysfs: the
    // identifiers the controller reports must give the WWID the block device has.
    if (target_.admin_path != target_.io_path && !id.wwid.empty()) {
      const std::string want = expected_wwid(ids, ctrl_.vid, ctrl_.sn, ctrl_.mn, target_.nsid);
      if (want != id.wwid)
        return core::Error(core::ErrorKind::Refused,
                           "refused: " + target_.admin_path + " (namespace " + std::to_string(target_.nsid) +
                               ") resolved to /dev/" + target_.block_name + ", but its identifiers give WWID " +
                               want + " where /dev/" + target_.block_name + " has " + id.wwid +
                               "; nothing was written");
    }
    return id;
  }

  ResolvedTarget target_;
  std::unique_ptr<AdminTransport> transport_;
  NvmeTargetDeps deps_;
  nvme::IdCtrl ctrl_;
  nvme::IdNs ns_;
  nvme::FormatLayout layout_;
};

}  // namespace

std::unique_ptr<TargetDevice> make_nvme_target(const ResolvedTarget& target,
                                               std::unique_ptr<AdminTransport> transport,
                                               NvmeTargetDeps deps) {
  return std::make_unique<NvmeTarget>(target, std::move(transport), std::move(deps));
}

}  // namespace pts::device
