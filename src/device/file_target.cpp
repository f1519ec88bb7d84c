// device/file_target.cpp — a regular file as a TargetDevice: serial "FILE-<st_dev>:<inode>",
// purge = recreate (truncate to zero and re-allocate, keeping the inode; a recorded
// deviation), no volatile write cache of its own (O_DIRECT bypasses the page cache).
// May use: core, model, device.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "device/guard.h"
#include "device/target_base.h"
#include "device/targets.h"

namespace pts::device {

namespace {

class FileTarget final : public TargetBase {
 public:
  FileTarget(const ResolvedTarget& t, std::shared_ptr<model::BlockAccessFactory> io)
      : TargetBase(t.io_path, std::move(io), nullptr), target_(t) {}

  core::Status guard() override { return guard_file(target_.io_path); }
  core::Result<model::WriteCacheState> write_cache() override { return model::WriteCacheState::Unknown; }
  core::Result<model::WriteCacheState> set_write_cache(bool, model::WriteCacheScope) override { return write_cache(); }

 protected:
  core::Result<model::DeviceIdentity> read_identity() override {
    struct stat st {};
    if ((held_fd() >= 0 ? ::fstat(held_fd(), &st) : ::stat(target_.io_path.c_str(), &st)) != 0)
      return core::Error(core::ErrorKind::BadInput, "TARGET " + target_.path + ": " + std::strerror(errno), errno);
    model::DeviceIdentity id;
    id.kind = model::TargetKind::File;
    id.path = target_.path;
    id.model = "regular file";
    id.serial = "FILE-" + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
    id.serial_made_up = true;
    id.interface = "file";
    id.lba_size = st.st_blksize >= 512 ? static_cast<uint32_t>(st.st_blksize) : 4096;
    id.capacity_bytes = uint64_t(st.st_size) / id.lba_size * id.lba_size;
    id.physical_block_bytes = id.lba_size;
    id.capabilities.deallocated_reads_zeroes = true;
    return id;
  }

  void execute_purge(model::PurgeMethod method, const model::DeviceIdentity&, const PurgeRequest&,
                     model::PurgeRecord& rec) override {
    if (method != model::PurgeMethod::Recreate) {
      rec.status_text = "method not applicable to a file";
      return;
    }
    const int fd = held_fd();  // the guard's descriptor: never a second open by path
    struct stat st {};
    if (fd < 0 || ::fstat(fd, &st) != 0) {
      rec.sys_errno = fd < 0 ? 0 : errno;
      rec.status_text = fd < 0 ? "recreate without the guard's held descriptor"
                               : "fstat failed: " + std::string(std::strerror(errno));
      return;
    }
    int rc = ::ftruncate(fd, 0);
    std::string how = "truncated and re-allocated";
    if (rc == 0 && st.st_size > 0) {
      rc = ::posix_fallocate(fd, 0, st.st_size);  // returns the error number itself
      if (rc == EOPNOTSUPP || rc == EINVAL) {
        how = "truncated and re-extended (sparse: no fallocate here)";
        rc = ::ftruncate(fd, st.st_size) == 0 ? 0 : errno;
      } else if (rc != 0) {
        errno = rc;
        rc = -1;
      }
    }
    if (rc == 0) rc = ::fsync(fd);
    rec.sys_errno = rc == 0 ? 0 : (rc > 0 ? rc : errno);
    rec.success = rc == 0;
    rec.status_text = rec.success ? how + " " + std::to_string(st.st_size) + " bytes (not a SNIA purge)"
                                  : "recreate failed: " + std::string(std::strerror(rec.sys_errno));
  }

  ErasedValue erased_value(model::PurgeMethod, const model::DeviceIdentity&) const override {
    return ErasedValue::Zeroes;
  }

 private:
  ResolvedTarget target_;
};

}  // namespace

std::unique_ptr<TargetDevice> make_file_target(const ResolvedTarget& target,
                                               std::shared_ptr<model::BlockAccessFactory> block_access) {
  return std::make_unique<FileTarget>(target, std::move(block_access));
}

}  // namespace pts::device
