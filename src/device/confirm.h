// device/confirm.h — the operator's consent to destroy a target's data, and the identity
// re-check before every destructive phase. Prints nothing: the interactive question is asked
// through a callback that app/ supplies. A serial ptsuite made up (BLOCK-…, LOOP-…, FILE-…) or
// an empty one identifies nothing and is never a confirmation: such targets are confirmed with
// their WWID, a /dev/disk/by-id name, a loop device's backing file or a file target's own
// path (what is accepted is in ConfirmRules). May use: core, model, system_view.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "device/system_view.h"
#include "model/device.h"

namespace pts::device {

/// Asks the operator to type the confirmation; returns what was typed (nullopt on end of input).
using AskSerialFn = std::function<std::optional<std::string>(const std::string& question)>;

/// What a target may be confirmed with.
struct ConfirmRules {
  std::string serial;              ///< a real serial (empty when made up or missing)
  std::string wwid;                ///< the block device's WWID (empty when none)
  std::optional<DevNum> block_dev; ///< a /dev/disk/by-id name resolving to this device confirms it
  std::optional<FileKey> file;     ///< a path naming this file (device + inode) confirms it
  std::string file_method;         ///< Consent::method for `file`: "backing-file", "file", "state-file"
  std::string file_path;           ///< that file's path as ptsuite knows it (shown in messages)
};

/// The rules for a target whose identity is `id`. `block_dev`: its device number (block
/// targets); `file`/`file_method`/`file_path`: the file that confirms it (a loop device's
/// backing file, a file target itself).
ConfirmRules confirm_rules(const model::DeviceIdentity& id, std::optional<DevNum> block_dev,
                           std::optional<FileKey> file, const std::string& file_method,
                           const std::string& file_path);

/// What --confirm accepts, in words ("its serial S123, its WWID eui.00…, or a /dev/disk/by-id/ name").
std::string accepted_confirmations(const ConfirmRules& rules);

/// The value a script should pass as --confirm (the serial when real, else the WWID, a
/// by-id name, or the file's path); "" when nothing can confirm the target.
std::string preferred_confirmation(const ConfirmRules& rules, const std::string& by_id_root = "/dev/disk/by-id");

/// Checks consent: `confirm` (the --confirm value; without it `ask` prompts, null when not
/// interactive) must match one of `rules`. Returns what it matched; Refused otherwise.
core::Result<model::Consent> check_confirmation(const model::DeviceIdentity& id, const ConfirmRules& rules,
                                                const std::optional<std::string>& confirm,
                                                const AskSerialFn& ask = nullptr,
                                                const std::string& by_id_root = "/dev/disk/by-id");

/// Fails with Refused when `now` is not the device `before` describes: serial, firmware,
/// model, NSID, NGUID, EUI-64, WWID, capacity, LBA size or LBA format differ (another drive
/// behind the same path, a firmware change, a reformat). A field empty or 0 in `before` (a
/// record older than the field) is not compared.
core::Status check_identity_unchanged(const model::DeviceIdentity& before, const model::DeviceIdentity& now);

}  // namespace pts::device
