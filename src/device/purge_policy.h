// device/purge_policy.h — which purge a target gets: CLI method names, the methods a target
// supports, and the choice (strongest first: sanitize crypto erase → sanitize block erase →
// format with crypto erase → format user-data erase; Format with SES=0 is never a purge).
// Pure functions over model::DeviceIdentity. May use: core, model.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "model/device.h"
#include "model/purge.h"

namespace pts::device {


/// Parses a --purge value. "auto" → nullopt (choose from the capabilities); unknown names
/// fail with BadInput listing the valid ones.
core::Result<std::optional<model::PurgeMethod>> parse_purge_method(std::string_view name);

/// True for the methods that are a SNIA purge (sanitize, format with secure erase).
bool is_snia_purge(model::PurgeMethod method);

/// Every method this target supports, strongest first; always ends with None.
std::vector<model::PurgeMethod> supported_purge_methods(const model::DeviceIdentity& id);

struct PurgeChoice {
  model::PurgeMethod method = model::PurgeMethod::None;
  bool automatic = true;
  std::string reason;  ///< plain words, goes into PurgeRecord::reason
};

/// The method to run: `requested`, when the target supports it (else BadInput naming the
/// supported ones), or the strongest supported one — never Sanitize unless the subsystem is
/// known to hold exactly one namespace and one controller. Fails with Device when `requested` is
/// nullopt and the target supports no purge at all.
core::Result<PurgeChoice> choose_purge_method(const model::DeviceIdentity& id,
                                              std::optional<model::PurgeMethod> requested);

}  // namespace pts::device
