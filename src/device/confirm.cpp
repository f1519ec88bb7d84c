// device/confirm.cpp — consent and identity re-check. May use: core, model.
#include "device/confirm.h"

namespace pts::device {

bool confirmation_required(const model::DeviceIdentity& id, bool created_by_ptsuite) {
  return !(created_by_ptsuite && id.kind == model::TargetKind::File);
}

core::Status check_confirmation(const model::DeviceIdentity& id,
                                const std::optional<std::string>& confirm,
                                const AskSerialFn& ask) {
  std::optional<std::string> given = confirm;
  if (!given && ask)
    given = ask("This destroys all data on " + id.path + " (" + id.model + "). Type its serial to continue: ");
  if (!given)
    return core::Error(core::ErrorKind::Refused,
                       "refused: " + id.path + " would be overwritten; pass --confirm SERIAL with "
                       "the target's serial (shown by `ptsuite info " + id.path + "`)");
  if (*given != id.serial)
    return core::Error(core::ErrorKind::Refused,
                       "refused: --confirm '" + *given + "' does not match the serial of " + id.path +
                           " ('" + id.serial + "'); nothing was written");
  return core::ok_status();
}

core::Status check_identity_unchanged(const model::DeviceIdentity& before,
                                      const model::DeviceIdentity& now) {
  if (before.serial != now.serial || before.firmware != now.firmware)
    return core::Error(core::ErrorKind::Device,
                       "identity changed on " + now.path + ": serial '" + before.serial + "' firmware '" +
                           before.firmware + "' is now serial '" + now.serial + "' firmware '" +
                           now.firmware + "'; aborting before any destructive step");
  return core::ok_status();
}

}  // namespace pts::device
