// device/purge_policy.cpp — purge method names, support and choice. May use: core, model.
#include "device/purge_policy.h"

#include "core/option_text.h"

namespace pts::device {

using model::PurgeMethod;

namespace {

constexpr auto& kAll = model::kAllPurgeMethods;

bool supports(const model::DeviceIdentity& id, PurgeMethod m) {
  const auto& c = id.capabilities;
  const bool nvme = id.kind == model::TargetKind::NvmeNamespace;
  switch (m) {
    case PurgeMethod::SanitizeCrypto: return nvme && c.sanitize_crypto_erase;
    case PurgeMethod::SanitizeBlock: return nvme && c.sanitize_block_erase;
    case PurgeMethod::FormatCrypto: return nvme && c.format_nvm && c.crypto_erase_in_format;
    case PurgeMethod::FormatUser: return nvme && c.format_nvm;
    case PurgeMethod::Discard: return id.kind != model::TargetKind::File && c.discard;
    case PurgeMethod::Recreate: return id.kind == model::TargetKind::File;
    case PurgeMethod::None: return true;
  }
  return false;
}

std::string why_unsupported(const model::DeviceIdentity& id, PurgeMethod m) {
  const bool nvme = id.kind == model::TargetKind::NvmeNamespace;
  switch (m) {
    case PurgeMethod::SanitizeCrypto:
      return nvme ? "the controller does not advertise Sanitize crypto erase" : "needs an NVMe drive";
    case PurgeMethod::SanitizeBlock:
      return nvme ? "the controller does not advertise Sanitize block erase" : "needs an NVMe drive";
    case PurgeMethod::FormatCrypto:
      if (!nvme) return "needs an NVMe drive";
      return id.capabilities.format_nvm ? "the controller does not support crypto erase in Format NVM"
                                        : "the controller does not support Format NVM";
    case PurgeMethod::FormatUser:
      return nvme ? "the controller does not support Format NVM" : "needs an NVMe drive";
    case PurgeMethod::Discard:
      return id.kind == model::TargetKind::File ? "needs a block device"
                                                : "the device does not accept discard";
    case PurgeMethod::Recreate: return "only for a regular file";
    case PurgeMethod::None: return "";
  }
  return "";
}

std::string join_names(const std::vector<PurgeMethod>& methods) {
  std::string out;
  for (auto m : methods) out += (out.empty() ? "" : ", ") + purge_method_name(m);
  return out;
}

}  // namespace

core::Result<std::optional<PurgeMethod>> parse_purge_method(std::string_view name) {
  if (name == "auto") return std::optional<PurgeMethod>{};
  for (auto m : kAll)
    if (name == purge_method_name(m)) return std::optional<PurgeMethod>{m};
  return core::bad_input(core::bad_option_value("--purge", name, "is not a purge method (valid: auto, " +
                                                                   join_names({std::begin(kAll), std::end(kAll)}) + ")"));
}

bool is_snia_purge(PurgeMethod method) {
  switch (method) {
    case PurgeMethod::SanitizeCrypto:
    case PurgeMethod::SanitizeBlock:
    case PurgeMethod::FormatCrypto:
    case PurgeMethod::FormatUser: return true;
    default: return false;
  }
}

std::vector<PurgeMethod> supported_purge_methods(const model::DeviceIdentity& id) {
  std::vector<PurgeMethod> out;
  for (auto m : kAll)
    if (supports(id, m)) out.push_back(m);
  return out;
}

core::Result<PurgeChoice> choose_purge_method(const model::DeviceIdentity& id,
                                              std::optional<PurgeMethod> requested) {
  if (requested) {
    if (!supports(id, *requested))
      return core::bad_input("--purge " + purge_method_name(*requested) + ": not supported by " +
                             id.path + " (" + why_unsupported(id, *requested) +
                             "); supported: " + join_names(supported_purge_methods(id)));
    return PurgeChoice{*requested, false, "chosen by the operator (--purge " +
                                              purge_method_name(*requested) + ")"};
  }
  // Sanitize erases the whole NVM subsystem: chosen by itself only when this namespace is all
  // there is (one namespace, one controller, both known); else it must be asked for by name.
  const bool alone = id.subsystem_namespaces == 1 && id.subsystem_controllers == 1;
  std::string skipped;
  for (auto m : kAll) {
    if (m == PurgeMethod::None || !supports(id, m)) continue;
    if ((m == PurgeMethod::SanitizeCrypto || m == PurgeMethod::SanitizeBlock) && !alone) {
      if (skipped.empty())
        skipped = " (Sanitize not chosen automatically: it erases the whole NVM subsystem, which has " +
                  (id.subsystem_namespaces ? std::to_string(id.subsystem_namespaces) : std::string("an unknown number of")) +
                  " namespace(s) and " +
                  (id.subsystem_controllers ? std::to_string(id.subsystem_controllers) : std::string("an unknown number of")) +
                  " controller(s); ask for it with --purge " + purge_method_name(m) + ")";
      continue;
    }
    std::string reason;
    switch (m) {
      case PurgeMethod::SanitizeCrypto: reason = "strongest supported: Sanitize crypto erase"; break;
      case PurgeMethod::SanitizeBlock:
        reason = "strongest supported: Sanitize block erase (no sanitize crypto erase)"; break;
      case PurgeMethod::FormatCrypto:
        reason = "strongest supported: Format NVM with crypto erase (no Sanitize)"; break;
      case PurgeMethod::FormatUser:
        reason = "strongest supported: Format NVM user-data erase (no Sanitize, no crypto erase in "
                 "Format)"; break;
      case PurgeMethod::Discard:
        reason = "no SNIA purge available: discard of every block (deviation)"; break;
      case PurgeMethod::Recreate:
        reason = "file target: truncated and re-allocated (deviation: not a SNIA purge)"; break;
      case PurgeMethod::None: break;
    }
    return PurgeChoice{m, true, reason + skipped};
  }
  if (!skipped.empty())
    return core::Error(core::ErrorKind::Device, id.path + ": no purge method is chosen automatically" + skipped +
                                                    "; or run with --purge none (deviation)");
  return core::Error(core::ErrorKind::Device,
                     id.path + ": supports no purge method (no Sanitize, no Format NVM, no "
                               "discard); run with --purge none to go on without one (deviation)");
}

}  // namespace pts::device
