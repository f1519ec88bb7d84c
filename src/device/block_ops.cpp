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
  BlockGeometry g;
  int lbs = 0;
  unsigned int pbs = 0;
  int rc = ::ioctl(fd, BLKGETSIZE64, &g.size_bytes);
  if (rc == 0) rc = ::ioctl(fd, BLKSSZGET, &lbs);
  if (rc == 0) rc = ::ioctl(fd, BLKPBSZGET, &pbs);
  int err = errno;
  ::close(fd);
  if (rc != 0)
    return core::Error(core::ErrorKind::BadInput, "TARGET " + path + ": cannot read its size: " + std::strerror(err), err);
  g.logical_block_bytes = static_cast<uint32_t>(lbs);
  g.physical_block_bytes = pbs;
  return g;
}

void discard_all(const std::string& path, uint64_t bytes, model::PurgeRecord& rec) {
  int fd = ::open(path.c_str(), O_RDWR | O_EXCL | O_CLOEXEC);
  if (fd < 0) {
    rec.sys_errno = errno;
    rec.status_text = "open " + path + " exclusively failed: " + std::strerror(errno);
    return;
  }
  uint64_t range[2] = {0, bytes};
  int rc = ::ioctl(fd, BLKDISCARD, range);
  rec.sys_errno = rc == 0 ? 0 : errno;
  ::close(fd);
  rec.success = rc == 0;
  rec.status_text = rc == 0 ? "BLKDISCARD of " + std::to_string(bytes) + " bytes done (not a SNIA purge)"
                            : std::string("BLKDISCARD failed: ") + std::strerror(rec.sys_errno);
}

}  // namespace pts::device
