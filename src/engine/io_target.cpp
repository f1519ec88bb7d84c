// engine/io_target.cpp — see io_target.h.
#include "engine/io_target.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace pts::engine {

namespace {

core::Error bad(const std::string& path, const std::string& what, int err = 0) {
  return core::Error(core::ErrorKind::BadInput, "target " + path + ": " + what, err);
}

std::string parent_dir(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

const char* kNoDirectIo = "direct I/O (O_DIRECT) is not supported on this file system; ptsuite never falls back to buffered I/O";

/// Direct-I/O offset alignment of an open file: >0 when known, 0 when the kernel says direct
/// I/O is not supported, -1 when the kernel cannot tell (then the probe open decided).
long dio_alignment(int fd) {
  struct statx sx {};
  if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) != 0 || !(sx.stx_mask & STATX_DIOALIGN)) return -1;
  return static_cast<long>(sx.stx_dio_offset_align);
}

core::Result<TargetInfo> inspect_missing_file(const std::string& path, bool need_write) {
  const std::string dir = parent_dir(path);
  struct stat ds {};
  if (stat(dir.c_str(), &ds) != 0) return bad(path, "directory " + dir + " does not exist", errno);
  if (!S_ISDIR(ds.st_mode)) return bad(path, dir + " is not a directory");
  TargetInfo info;
  info.target.path = path;
  info.kind = model::TargetKind::File;
  info.exists = false;
  // Probe the file system with an unnamed temporary file: nothing appears in the directory.
  int fd = open(dir.c_str(), O_TMPFILE | O_RDWR | O_DIRECT | O_CLOEXEC, 0600);
  if (fd < 0) {
    const int err = errno;
    if (err == EACCES || err == EROFS || err == EPERM) return bad(path, "directory " + dir + " is read-only", err);
    if (err == EINVAL) {
      const int plain = open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
      if (plain >= 0) {
        close(plain);
        return bad(path, kNoDirectIo, err);
      }
    }
    // O_TMPFILE unsupported: the direct-I/O check happens when the engine opens the file.
    if (need_write && access(dir.c_str(), W_OK) != 0) return bad(path, "directory " + dir + " is read-only", errno);
    return info;
  }
  const long align = dio_alignment(fd);
  close(fd);
  if (align == 0) return bad(path, kNoDirectIo);
  if (align > 0) info.target.logical_block_bytes = static_cast<uint32_t>(align);
  return info;
}

core::Result<TargetInfo> inspect_block_device(const std::string& path, bool need_write) {
  int fd = open(path.c_str(), (need_write ? O_RDWR : O_RDONLY) | O_DIRECT | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    if (need_write && (err == EACCES || err == EROFS || err == EPERM))
      return bad(path, std::string("block device is read-only or not writable (") + std::strerror(err) + ")", err);
    return bad(path, std::string("cannot open block device: ") + std::strerror(err), err);
  }
  uint64_t size = 0;
  int lbs = 0, ro = 0;
  const bool ok = ioctl(fd, BLKGETSIZE64, &size) == 0 && ioctl(fd, BLKSSZGET, &lbs) == 0;
  const bool read_only = ioctl(fd, BLKROGET, &ro) == 0 && ro != 0;
  close(fd);
  if (!ok) return bad(path, "cannot read the block device's size and logical block size");
  if (need_write && read_only) return bad(path, "block device is read-only");
  TargetInfo info;
  info.target = IoTarget{path, size, static_cast<uint32_t>(lbs)};
  info.kind = model::TargetKind::BlockDevice;
  info.exists = true;
  return info;
}

core::Result<TargetInfo> inspect_regular_file(const std::string& path, const struct stat& st, bool need_write) {
  if (need_write && (!(st.st_mode & 0222) || access(path.c_str(), W_OK) != 0))
    return bad(path, "file is read-only");
  int fd = open(path.c_str(), (need_write ? O_RDWR : O_RDONLY) | O_DIRECT | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    if (err == EINVAL) return bad(path, kNoDirectIo, err);
    if (err == EACCES || err == EROFS || err == EPERM || err == ETXTBSY)
      return bad(path, std::string("file is read-only (") + std::strerror(err) + ")", err);
    return bad(path, std::string("cannot open: ") + std::strerror(err), err);
  }
  const long align = dio_alignment(fd);
  close(fd);
  if (align == 0) return bad(path, kNoDirectIo);
  TargetInfo info;
  info.target = IoTarget{path, static_cast<uint64_t>(st.st_size), align > 0 ? static_cast<uint32_t>(align) : 512u};
  info.kind = model::TargetKind::File;
  info.exists = true;
  if (info.target.size_bytes == 0) return bad(path, "file is empty (give --size to create a new file)");
  return info;
}

}  // namespace

core::Result<TargetInfo> inspect_target(const std::string& path, bool need_write) {
  if (path.empty()) return core::bad_input("target: no path given");
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return inspect_missing_file(path, need_write);
    return bad(path, std::strerror(errno), errno);
  }
  if (S_ISBLK(st.st_mode)) return inspect_block_device(path, need_write);
  if (S_ISREG(st.st_mode)) return inspect_regular_file(path, st, need_write);
  return bad(path, "not a regular file or a block device");
}

core::Status create_file_target(const std::string& path, uint64_t size_bytes) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return bad(path, std::string("cannot create: ") + std::strerror(errno), errno);
  const int rc = posix_fallocate(fd, 0, static_cast<off_t>(size_bytes));
  close(fd);
  if (rc != 0) {
    unlink(path.c_str());
    return bad(path, "cannot allocate " + std::to_string(size_bytes) + " bytes: " + std::strerror(rc), rc);
  }
  return core::ok_status();
}

}  // namespace pts::engine
