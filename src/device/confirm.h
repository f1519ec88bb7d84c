// device/confirm.h — the operator's consent to destroy a target's data, and the identity
// re-check before every destructive phase. Used by `purge` and `run`. Prints nothing: the
// interactive question is asked through a callback that app/ supplies. May use: core, model.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "core/result.h"
#include "model/device.h"

namespace pts::device {

/// Asks the operator to type the serial; returns what was typed (nullopt on end of input).
using AskSerialFn = std::function<std::optional<std::string>(const std::string& question)>;

/// A file ptsuite created itself for this run needs no confirmation; anything else does.
bool confirmation_required(const model::DeviceIdentity& id, bool created_by_ptsuite);

/// Checks consent: `confirm` (the --confirm value) must equal the target's serial. Without
/// --confirm, `ask` (null when not interactive) is used to prompt for it. Fails with
/// Refused on a mismatch or when no confirmation can be had.
core::Status check_confirmation(const model::DeviceIdentity& id,
                                const std::optional<std::string>& confirm,
                                const AskSerialFn& ask = nullptr);

/// Fails with Device when serial or firmware of `now` differ from `before` (another drive
/// behind the same path, or a firmware change mid-run).
core::Status check_identity_unchanged(const model::DeviceIdentity& before,
                                      const model::DeviceIdentity& now);

}  // namespace pts::device
