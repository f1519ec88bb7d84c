// device/held_target.cpp — acquire_target(), the one guard entry point (see held_target.h).
// May use: core, model, device, POSIX (stat, xattr).
#include "device/held_target.h"

#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "device/exclusive_open.h"
#include "device/guard.h"
#include "device/signatures.h"
#include "device/system_view.h"
#include "device/targets.h"

namespace pts::device {

namespace {

constexpr const char* kMarkerName = "user.ptsuite";
constexpr const char* kDemoMarker = "demo-target";

/// Words for the processes whose mount namespace could not be read (see system_view.h).
std::string unexamined_note(const SystemView& v) {
  if (v.unexamined.empty()) return "";
  std::string list;
  for (const auto& u : v.unexamined) list += (list.empty() ? "" : ", ") + u;
  return "; mount namespaces not readable: " + list + " (a mount there holds the exclusive claim, so it cannot " +
         "coexist with this descriptor)";
}

core::Error refused(const std::string& msg) {
  return core::Error(core::ErrorKind::Refused, "refused: " + msg + "; nothing was written");
}

/// The loop device `name`'s backing file, as the system view saw it.
const LoopEntry* loop_entry(const SystemView& view, const std::string& name) {
  for (const auto& l : view.loops)
    if (l.name == name) return &l;
  return nullptr;
}

/// Examines a block device (sysfs + the system view) and decides.
core::Result<BlockUsage> examine_block(const ResolvedTarget& t, const std::string& root, SystemView& view) {
  auto usage = collect_block_usage(t.block_name, root);
  if (!usage.ok()) return usage.error();
  view = read_system_view(root);
  if (auto g = evaluate_guard(*usage, view); !g.ok()) return g.error();
  return usage;
}

/// On-disk signatures through the held descriptor: libblkid, plus ptsuite's own look at the
/// first 8 KiB for a GPT header that lacks the protective MBR libblkid wants.
core::Result<std::vector<Signature>> find_signatures(int fd, const std::string& name) {
  auto found = probe_signatures(fd, name);
  if (!found.ok()) return found;
  bool table = false;
  for (const auto& s : *found) table = table || s.type == "gpt" || s.type == "dos" || s.type == "PMBR";
  if (table) return found;
  void* buf = nullptr;
  if (posix_memalign(&buf, 4096, kPartitionProbeBytes) != 0) return found;
  const ssize_t n = ::pread(fd, buf, kPartitionProbeBytes, 0);
  if (n == static_cast<ssize_t>(kPartitionProbeBytes)) {
    const std::string own = detect_partition_table({static_cast<const uint8_t*>(buf), kPartitionProbeBytes});
    if (!own.empty()) found->push_back({own, own + " partition table (ptsuite's own check of the first 8 KiB)"});
  }
  std::free(buf);
  return found;
}

}  // namespace

HeldTarget::~HeldTarget() {
  device_.reset();  // the device object borrows the descriptor
  if (fd_ >= 0) ::close(fd_);
}

core::Status mark_demo_target(const std::string& path) {
  if (::setxattr(path.c_str(), kMarkerName, kDemoMarker, std::strlen(kDemoMarker), 0) != 0)
    return core::Error(core::ErrorKind::BadInput, "demo target " + path + ": cannot set ptsuite's marker (" +
                                                      std::string(kMarkerName) + "): " + std::strerror(errno),
                       errno);
  return core::ok_status();
}

bool carries_demo_marker(const std::string& path) {
  char buf[32] = {};
  const ssize_t n = ::getxattr(path.c_str(), kMarkerName, buf, sizeof buf - 1);
  return n == static_cast<ssize_t>(std::strlen(kDemoMarker)) && std::memcmp(buf, kDemoMarker, n) == 0;
}

core::Status examine_sibling_namespace(const std::string& block_name, bool force_signatures, const std::string& root) {
  auto usage = collect_block_usage(block_name, root);
  if (!usage.ok()) return usage.error();
  if (auto g = evaluate_guard(*usage, read_system_view(root)); !g.ok()) return g;
  auto fd = open_block_exclusive(root + "/dev/" + block_name, usage->dev);
  if (!fd.ok()) return fd.error();
  auto sigs = find_signatures(*fd, "/dev/" + block_name);
  ::close(*fd);
  if (!sigs.ok()) return sigs.error();
  if (!sigs->empty() && !force_signatures) return signature_refusal("/dev/" + block_name, *sigs);
  return core::ok_status();
}

core::Result<ConfirmRules> confirmation_rules_for(const std::string& path, const model::DeviceIdentity& id,
                                                  const std::string& root) {
  auto t = resolve_target(path, root);
  if (!t.ok()) return t.error();
  if (t->kind == model::TargetKind::File) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return core::bad_input("TARGET " + path + ": " + std::strerror(errno));
    return confirm_rules(id, std::nullopt, FileKey{st.st_dev, st.st_ino}, "file", path);
  }
  auto usage = collect_block_usage(t->block_name, root);
  if (!usage.ok()) return usage.error();
  if (t->is_loop) {
    const SystemView view = read_system_view(root);
    if (const LoopEntry* l = loop_entry(view, t->block_name))
      return confirm_rules(id, usage->dev, l->backing, "backing-file", l->backing_path);
  }
  return confirm_rules(id, usage->dev, std::nullopt, "", "");
}

namespace {

/// What holding a file or block target gives: the exclusive descriptor, the exclusivity in
/// words for the record, and what --confirm accepts besides the identity.
struct Hold {
  int fd = -1;
  std::string exclusivity;
  ConfirmRules rules;
};

/// A regular file: the demo path's marker, the file guard, then an O_DIRECT descriptor under a
/// write lease.
core::Result<Hold> hold_file(const ResolvedTarget& t, const std::string& path, const AcquireOptions& o) {
  struct stat st {};
  if (::stat(t.io_path.c_str(), &st) != 0) return core::bad_input("TARGET " + path + ": " + std::strerror(errno));
  const FileKey key{st.st_dev, st.st_ino};
  if (!o.demo_path.empty()) {
    struct stat ds {};
    if (::stat(o.demo_path.c_str(), &ds) == 0 && FileKey{ds.st_dev, ds.st_ino} == key &&
        !carries_demo_marker(t.io_path))
      return refused(path + " is the demo target's path (" + o.demo_path + ") but does not carry ptsuite's marker (" +
                     kMarkerName + "): it is not a file ptsuite made; move it away or set PTSUITE_DEMO_TARGET");
  }
  const SystemView view = read_system_view(o.root);
  if (auto g = evaluate_file_guard(path, key, view); !g.ok()) return g.error();
  auto fd = open_file_exclusive(t.io_path, key, o.root);
  if (!fd.ok()) return fd.error();
  Hold h;
  h.fd = *fd;
  h.exclusivity = "O_DIRECT descriptor on " + t.io_path + " (inode " + std::to_string(key.ino) +
                  ") held for the command; a write lease proved no other process had it open";
  h.rules.file = key;
  h.rules.file_method = "file";
  h.rules.file_path = t.io_path;
  return h;
}

/// A block device: the usage guard, an O_EXCL descriptor, then the guard again under the claim
/// (a mount that raced the first look is caught).
core::Result<Hold> hold_block(const ResolvedTarget& t, const AcquireOptions& o) {
  SystemView view;
  auto usage = examine_block(t, o.root, view);
  if (!usage.ok()) return usage.error();
  auto fd = open_block_exclusive(t.io_path, usage->dev);  // EBUSY: a user the examination could not see
  if (!fd.ok()) {
    core::Error e = fd.error();
    std::string& m = e.messages.front();
    if (const auto at = m.rfind("; nothing was written"); at != std::string::npos && !view.unexamined.empty())
      m.insert(at, unexamined_note(view));
    return e;
  }
  SystemView again;
  if (auto recheck = examine_block(t, o.root, again); !recheck.ok()) {
    ::close(*fd);
    return recheck.error();
  }
  Hold h;
  h.fd = *fd;
  h.exclusivity = "O_RDWR|O_EXCL|O_DIRECT descriptor on " + t.io_path + " (" + devnum_text(usage->dev) +
                  ") held for the command" + unexamined_note(again);
  h.rules.block_dev = usage->dev;
  if (t.is_loop)
    if (const LoopEntry* l = loop_entry(again, t.block_name)) {
      h.rules.file = l->backing;
      h.rules.file_method = "backing-file";
      h.rules.file_path = l->backing_path;
    }
  return h;
}

/// Signatures on the held descriptor: refused, or with --force-signatures the deviation to record.
core::Result<std::optional<std::pair<std::string, std::string>>> check_signatures(int fd, const std::string& path,
                                                                                 bool force) {
  auto sigs = find_signatures(fd, path);
  if (!sigs.ok()) return sigs.error();
  if (sigs->empty()) return std::optional<std::pair<std::string, std::string>>{};
  if (!force) return signature_refusal(path, *sigs);
  std::string list;
  for (const auto& s : *sigs) list += (list.empty() ? "" : "; ") + s.text;
  return std::optional<std::pair<std::string, std::string>>{std::pair<std::string, std::string>{
      "force-signatures",
      "--force-signatures: " + path + " held data that libblkid recognises (" + list +
          "); the operator chose to overwrite it"}};
}

}  // namespace

core::Result<std::unique_ptr<HeldTarget>> acquire_target(const std::string& path, const AcquireOptions& o) {
  auto held = std::make_unique<HeldTarget>();
  ConfirmRules rules;
  model::Consent consent;
  bool claimed_kind = false, claim_created = false;
  std::string created_path;

  // A target kind with its own exclusivity (sim:): it opens and claims, we check consent.
  for (const auto& c : o.claimers) {
    if (path.rfind(c.prefix, 0) != 0) continue;
    auto claimed = c.claim(path);
    if (!claimed.ok()) return claimed.error();
    held->device_ = std::move(claimed->device);
    held->claim_ = std::move(claimed->claim);
    held->resolved_.kind = claimed->kind;
    held->resolved_.path = path;
    consent.exclusivity = claimed->exclusivity;
    rules = claimed->rules;
    claimed_kind = true;
    claim_created = claimed->created;
    created_path = claimed->created_path;
    break;
  }

  if (!held->device_) {
    auto resolved = resolve_target(path, o.root);
    if (!resolved.ok()) return resolved.error();
    held->resolved_ = *resolved;
    const ResolvedTarget& t = held->resolved_;
    auto dev = make_target(t, o.block_access);
    if (!dev.ok()) return dev.error();
    held->device_ = std::move(dev.value());
    auto hold = t.kind == model::TargetKind::File ? hold_file(t, path, o) : hold_block(t, o);
    if (!hold.ok()) return hold.error();
    held->fd_ = hold->fd;
    consent.exclusivity = std::move(hold->exclusivity);
    rules = std::move(hold->rules);
    auto forced = check_signatures(held->fd_, path, o.force_signatures);
    if (!forced.ok()) return forced.error();
    if (*forced) held->deviations_.push_back(**forced);
    held->device_->use_held_descriptor(held->fd_, o.force_signatures);
  }

  auto id = held->device_->identify();
  if (!id.ok()) return id.error();
  held->identity_ = *id;
  ConfirmRules with_identity = rules;
  if (!id->serial_made_up) with_identity.serial = id->serial;
  with_identity.wwid = id->wwid;

  if (o.created_by_ptsuite && held->resolved_.kind == model::TargetKind::File) {
    consent.method = "created-by-ptsuite";
    consent.value = held->resolved_.io_path;
  } else if (claimed_kind && (claim_created || o.created_by_ptsuite)) {
    consent.method = "created-by-ptsuite";
    consent.value = created_path.empty() ? path : created_path;
  } else {
    std::optional<core::Result<model::Consent>> c;
    if (!o.confirm && !o.confirm_any.empty()) {
      for (const auto& value : o.confirm_any) {  // any one of them: a drive's serial confirms its namespaces
        auto tried = check_confirmation(*id, with_identity, value, nullptr, o.root + "/dev/disk/by-id");
        if (!c || tried.ok()) c = std::move(tried);
        if (c->ok()) break;
      }
    } else {
      c = check_confirmation(*id, with_identity, o.confirm, o.ask, o.root + "/dev/disk/by-id");
    }
    if (!c->ok()) return c->error();
    consent.method = (*c)->method;
    consent.value = (*c)->value;
  }
  held->consent_ = consent;
  return held;
}

core::Result<std::unique_ptr<HeldTarget>> hold_for_reading(const std::string& path, const AcquireOptions& o) {
  auto held = std::make_unique<HeldTarget>();
  model::Consent consent;
  consent.method = "read-only";
  for (const auto& c : o.claimers) {
    if (path.rfind(c.prefix, 0) != 0 || !c.claim_shared) continue;
    auto claimed = c.claim_shared(path);
    if (!claimed.ok()) return claimed.error();
    held->device_ = std::move(claimed->device);
    held->claim_ = std::move(claimed->claim);
    held->resolved_.kind = claimed->kind;
    held->resolved_.path = path;
    consent.exclusivity = claimed->exclusivity;
    break;
  }
  if (!held->device_) {
    auto resolved = resolve_target(path, o.root);
    if (!resolved.ok()) return resolved.error();
    held->resolved_ = *resolved;
    auto dev = make_target(held->resolved_, nullptr);
    if (!dev.ok()) return dev.error();
    held->device_ = std::move(dev.value());
    auto fd = open_shared_hold(held->resolved_.io_path);
    if (!fd.ok()) return fd.error();
    held->fd_ = *fd;
    consent.exclusivity = "O_RDONLY|O_DIRECT descriptor on " + held->resolved_.io_path +
                          " under a shared lock (flock LOCK_SH), held for the command: a writing ptsuite is refused "
                          "meanwhile";
  }
  auto id = held->device_->identify();
  if (!id.ok()) return id.error();
  held->identity_ = *id;
  consent.value = id->serial;
  held->consent_ = consent;
  return held;
}

}  // namespace pts::device
