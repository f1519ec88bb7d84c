// device/block_ops.cpp — see block_ops.h. May use: core, model, Linux block ioctls.
#include "device/block_ops.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace pts::device {

core::Result<BlockGeometry> block_geometry(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return core::Error(core::ErrorKind::BadInput, "TARGET " + path + ": " + std::strerror(errno), errno);
  auto g = block_geometry(fd, path);
  ::close(fd);
  return g;
}

core::Result<BlockGeometry> block_geometry(int fd, const std::string& path) {
  BlockGeometry g;
  int lbs = 0;
  unsigned int pbs = 0;
  int rc = ::ioctl(fd, BLKGETSIZE64, &g.size_bytes);
  if (rc == 0) rc = ::ioctl(fd, BLKSSZGET, &lbs);
  if (rc == 0) rc = ::ioctl(fd, BLKPBSZGET, &pbs);
  int err = errno;
  if (rc != 0)
    return core::Error(core::ErrorKind::BadInput, "TARGET " + path + ": cannot read its size: " + std::strerror(err), err);
  g.logical_block_bytes = static_cast<uint32_t>(lbs);
  g.physical_block_bytes = pbs;
  return g;
}

void discard_all(int fd, const std::string& name, uint64_t bytes, model::PurgeRecord& rec) {
  if (fd < 0) {
    rec.status_text = "discard of " + name + " without the guard's held descriptor";
    return;
  }
  uint64_t range[2] = {0, bytes};
  int rc = ::ioctl(fd, BLKDISCARD, range);
  rec.sys_errno = rc == 0 ? 0 : errno;
  rec.success = rc == 0;
  rec.status_text = rc == 0 ? "BLKDISCARD of " + std::to_string(bytes) + " bytes done (not a SNIA purge)"
                            : std::string("BLKDISCARD failed: ") + std::strerror(rec.sys_errno);
}

}  // namespace pts::device
