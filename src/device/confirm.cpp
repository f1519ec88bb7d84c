// device/confirm.cpp — consent and identity re-check. May use: core, model, sysfs, system_view, stat.
#include "device/confirm.h"

#include <sys/stat.h>

#include "device/sysfs.h"

namespace pts::device {

namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

/// The by-id name `given` ("/dev/disk/by-id/X" or "X") when it resolves to `dev`.
bool is_by_id_of(const std::string& given, DevNum dev, const std::string& by_id_root) {
  if (given.empty()) return false;
  std::string path = given;
  const std::string prefix = "/dev/disk/by-id/";
  if (path.rfind(prefix, 0) == 0) path = by_id_root + "/" + path.substr(prefix.size());
  else if (path.find('/') == std::string::npos) path = by_id_root + "/" + path;
  else return false;
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISBLK(st.st_mode) && devnum_of(st.st_rdev) == dev;
}

bool names_file(const std::string& given, FileKey key) {
  struct stat st {};
  return !given.empty() && ::stat(given.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         FileKey{st.st_dev, st.st_ino} == key;
}

std::string file_words(const ConfirmRules& r) {
  if (r.file_method == "backing-file") return "the path of its backing file (" + r.file_path + ")";
  if (r.file_method == "state-file") return "the path of its state file (" + r.file_path + ")";
  return "its path (" + r.file_path + ")";
}

}  // namespace

ConfirmRules confirm_rules(const model::DeviceIdentity& id, std::optional<DevNum> block_dev,
                           std::optional<FileKey> file, const std::string& file_method,
                           const std::string& file_path) {
  ConfirmRules r;
  if (!id.serial_made_up) r.serial = id.serial;
  r.wwid = id.wwid;
  r.block_dev = block_dev;
  r.file = file;
  r.file_method = file_method;
  r.file_path = file_path;
  return r;
}

std::string accepted_confirmations(const ConfirmRules& r) {
  std::vector<std::string> ways;
  if (!r.serial.empty()) ways.push_back("its serial " + r.serial);
  if (!r.wwid.empty()) ways.push_back("its WWID " + r.wwid);
  if (r.block_dev) ways.push_back("a /dev/disk/by-id/ name of it");
  if (r.file) ways.push_back(file_words(r));
  if (ways.empty()) return "nothing (it has no serial, WWID, by-id name or backing file to confirm it with)";
  std::string out;
  for (size_t i = 0; i < ways.size(); ++i) out += (i == 0 ? "" : i + 1 == ways.size() ? " or " : ", ") + ways[i];
  return out;
}

std::string preferred_confirmation(const ConfirmRules& r, const std::string& by_id_root) {
  if (!r.serial.empty()) return r.serial;
  if (!r.wwid.empty()) return r.wwid;
  if (r.file) return r.file_path;
  if (r.block_dev)  // the first by-id name that resolves to the device
    for (const auto& name : sysfs::list_dir(by_id_root))
      if (is_by_id_of(name, *r.block_dev, by_id_root)) return "/dev/disk/by-id/" + name;
  return "";
}

core::Result<model::Consent> check_confirmation(const model::DeviceIdentity& id, const ConfirmRules& rules,
                                                const std::optional<std::string>& confirm, const AskSerialFn& ask,
                                                const std::string& by_id_root) {
  const std::string accepted = accepted_confirmations(rules);
  std::optional<std::string> given = confirm;
  if (!given && ask)
    given = ask("This destroys all data on " + id.path + " (" + id.model + "). To continue type " + accepted + ": ");
  if (!given)
    return core::Error(core::ErrorKind::Refused, "refused: " + id.path + " would be overwritten; pass --confirm with " +
                                                     accepted + " (shown by `ptsuite info " + id.path +
                                                     "`); nothing was written");
  model::Consent c;
  c.value = *given;
  if (!rules.serial.empty() && *given == rules.serial) c.method = "serial";
  else if (!rules.wwid.empty() && *given == rules.wwid) c.method = "wwid";
  else if (rules.block_dev && is_by_id_of(*given, *rules.block_dev, by_id_root)) c.method = "by-id";
  else if (rules.file && names_file(*given, *rules.file)) c.method = rules.file_method;
  if (!c.method.empty()) return c;
  std::string why = "refused: --confirm " + quoted(*given) + " does not confirm " + id.path + ": it takes " + accepted;
  if (id.serial_made_up && *given == id.serial)
    why += " (" + id.serial + " is a name ptsuite made up, not the device's own identity)";
  return core::Error(core::ErrorKind::Refused, why + "; nothing was written");
}

core::Status check_identity_unchanged(const model::DeviceIdentity& before, const model::DeviceIdentity& now) {
  std::vector<std::string> changed;
  auto text = [&](const char* name, const std::string& a, const std::string& b) {
    if (!a.empty() && a != b) changed.push_back(std::string(name) + " " + quoted(a) + " is now " + quoted(b));
  };
  auto number = [&](const char* name, uint64_t a, uint64_t b) {
    if (a != 0 && a != b) changed.push_back(std::string(name) + " " + std::to_string(a) + " is now " + std::to_string(b));
  };
  text("serial", before.serial, now.serial);
  text("firmware", before.firmware, now.firmware);
  text("model", before.model, now.model);
  number("NSID", before.namespace_id, now.namespace_id);
  text("NGUID", before.nguid, now.nguid);
  text("EUI-64", before.eui64, now.eui64);
  text("WWID", before.wwid, now.wwid);
  number("capacity (bytes)", before.capacity_bytes, now.capacity_bytes);
  number("LBA size (bytes)", before.lba_size, now.lba_size);
  if (before.lba_format_index != now.lba_format_index && before.kind == model::TargetKind::NvmeNamespace)
    changed.push_back("LBA format " + std::to_string(before.lba_format_index) + " is now " +
                      std::to_string(now.lba_format_index));
  if (changed.empty()) return core::ok_status();
  std::string msg = "refused: identity changed on " + now.path + " (not the device it was): ";
  for (size_t i = 0; i < changed.size(); ++i) msg += (i ? "; " : "") + changed[i];
  return core::Error(core::ErrorKind::Refused, msg + "; nothing was written");
}

}  // namespace pts::device
