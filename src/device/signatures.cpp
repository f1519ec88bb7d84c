// device/signatures.cpp — see signatures.h. May use: core, libblkid, fcntl.
#include "device/signatures.h"

#include <fcntl.h>

#include <blkid/blkid.h>

#include <cerrno>
#include <cstring>

namespace pts::device {

namespace {

std::string value(blkid_probe pr, const char* key) {
  const char* data = nullptr;
  size_t len = 0;
  if (blkid_probe_lookup_value(pr, key, &data, &len) != 0 || !data) return "";
  return std::string(data, strnlen(data, len));
}

/// Clears O_DIRECT for the lifetime of the object and puts the flags back.
class BufferedWhileProbing {
 public:
  explicit BufferedWhileProbing(int fd) : fd_(fd), flags_(::fcntl(fd, F_GETFL)) {
    if (flags_ >= 0 && (flags_ & O_DIRECT)) ok_ = ::fcntl(fd, F_SETFL, flags_ & ~O_DIRECT) == 0;
    else ok_ = flags_ >= 0;
  }
  ~BufferedWhileProbing() {
    if (flags_ >= 0 && (flags_ & O_DIRECT)) (void)::fcntl(fd_, F_SETFL, flags_);
  }
  bool ok() const { return ok_; }

 private:
  int fd_;
  int flags_;
  bool ok_ = false;
};

}  // namespace

core::Result<std::vector<Signature>> probe_signatures(int fd, const std::string& name) {
  BufferedWhileProbing buffered(fd);
  if (!buffered.ok())
    return core::Error(core::ErrorKind::Refused, "refused: cannot probe " + name + " for signatures (fcntl: " +
                                                     std::strerror(errno) + "); nothing was written");
  blkid_probe pr = blkid_new_probe();
  if (!pr || blkid_probe_set_device(pr, fd, 0, 0) != 0) {
    if (pr) blkid_free_probe(pr);
    return core::Error(core::ErrorKind::Refused,
                       "refused: libblkid cannot probe " + name + " for signatures; nothing was written");
  }
  blkid_probe_enable_superblocks(pr, 1);
  blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE | BLKID_SUBLKS_LABEL |
                                            BLKID_SUBLKS_UUID | BLKID_SUBLKS_MAGIC);
  blkid_probe_enable_partitions(pr, 1);
  blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC | BLKID_PARTS_FORCE_GPT);
  std::vector<Signature> found;
  int rc = 0;
  while ((rc = blkid_do_probe(pr)) == 0) {
    Signature s;
    std::string offset;
    if (!(s.type = value(pr, "TYPE")).empty()) {
      const std::string usage = value(pr, "USAGE");
      s.text = s.type + (usage == "filesystem" ? " file system" : usage.empty() ? "" : " " + usage + " signature");
      offset = value(pr, "SBMAGIC_OFFSET");
      std::string extra;
      if (auto uuid = value(pr, "UUID"); !uuid.empty()) extra = "UUID " + uuid;
      if (auto label = value(pr, "LABEL"); !label.empty()) extra += (extra.empty() ? "" : ", ") + ("label " + label);
      if (!extra.empty()) s.text += " (" + extra + ")";
    } else if (!(s.type = value(pr, "PTTYPE")).empty()) {
      s.text = s.type + " partition table";
      offset = value(pr, "PTMAGIC_OFFSET");
    } else {
      continue;
    }
    if (!offset.empty()) s.text += " at byte " + offset;
    found.push_back(std::move(s));
  }
  blkid_free_probe(pr);
  if (rc < 0)
    return core::Error(core::ErrorKind::Refused, "refused: libblkid failed while probing " + name +
                                                     " for signatures; nothing was written");
  return found;
}

core::Error signature_refusal(const std::string& name, const std::vector<Signature>& found) {
  std::string list;
  for (const auto& s : found) list += (list.empty() ? "" : "; ") + s.text;
  return core::Error(core::ErrorKind::Refused,
                     "refused: " + name + " holds data: libblkid finds " + list +
                         ". Wipe it yourself (wipefs) or pass --force-signatures to overwrite it anyway "
                         "(recorded as a deviation); nothing was written");
}

}  // namespace pts::device
