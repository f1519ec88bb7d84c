// device/exclusive_open.cpp — see exclusive_open.h. May use: core, sysfs, system_view, POSIX.
#include "device/exclusive_open.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "device/sysfs.h"

namespace pts::device {

namespace {

core::Error refused(const std::string& msg, int err = 0) {
  return core::Error(core::ErrorKind::Refused, "refused: " + msg + "; nothing was written", err);
}

}  // namespace

namespace {

/// Processes with a descriptor open on block device `dev` (for the EBUSY message).
std::string processes_with_device(DevNum dev) {
  std::string out;
  const std::string self = std::to_string(::getpid());
  for (const auto& pid : sysfs::list_dir("/proc")) {
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos || pid == self) continue;
    const std::string fds = "/proc/" + pid + "/fd";
    for (const auto& fd : sysfs::list_dir(fds)) {
      struct stat st {};
      if (::stat((fds + "/" + fd).c_str(), &st) != 0 || !S_ISBLK(st.st_mode) || !(devnum_of(st.st_rdev) == dev)) continue;
      out += (out.empty() ? "" : ", ") + ("pid " + pid + " (" + sysfs::read_line("/proc/" + pid + "/comm").value_or("?") + ")");
      break;
    }
  }
  return out;
}

}  // namespace

/// A claim that no process holds can be the kernel finishing the last user's exit (an
/// io_uring's registered files are released by a worker after the process is gone): wait up
/// to a second for it before refusing.
constexpr int kSettleTries = 20;
constexpr useconds_t kSettleMicros = 50'000;

core::Result<int> open_block_exclusive(const std::string& path, DevNum expected) {
  int fd = ::open(path.c_str(), O_RDWR | O_EXCL | O_DIRECT | O_CLOEXEC);
  int err = fd < 0 ? errno : 0;
  for (int i = 0; fd < 0 && err == EBUSY && i < kSettleTries && processes_with_device(expected).empty(); ++i) {
    ::usleep(kSettleMicros);
    fd = ::open(path.c_str(), O_RDWR | O_EXCL | O_DIRECT | O_CLOEXEC);
    err = fd < 0 ? errno : 0;
  }
  if (fd < 0) {
    if (err == EBUSY) {
      const std::string who = processes_with_device(expected);
      return refused(path + " is held exclusively by another user of the device (a mount, swap, md, "
                            "device-mapper or another ptsuite, possibly in a mount namespace or container "
                            "the guard cannot see" + (who.empty() ? "" : "; open in " + who) +
                            "): open(O_EXCL) failed with EBUSY", err);
    }
    if (err == EACCES || err == EPERM || err == EROFS)
      return core::Error(core::ErrorKind::BadInput, "TARGET " + path + ": cannot open it for writing (" +
                                                        std::strerror(err) + ")", err);
    return core::Error(core::ErrorKind::BadInput, "TARGET " + path + ": cannot open it exclusively for direct I/O (" +
                                                      std::strerror(err) + ")", err);
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISBLK(st.st_mode) || !(devnum_of(st.st_rdev) == expected)) {
    const std::string got = ::fstat(fd, &st) == 0 ? devnum_text(devnum_of(st.st_rdev)) : "unknown";
    ::close(fd);
    return refused(path + " now names device " + got + ", not the device " + devnum_text(expected) +
                   " the guard examined (the node changed under us)");
  }
  if (auto st2 = lock_exclusive(fd, path); !st2.ok()) {
    ::close(fd);
    return st2.error();
  }
  return fd;
}

core::Status lock_exclusive(int fd, const std::string& path) {
  int rc = ::flock(fd, LOCK_EX | LOCK_NB);
  for (int i = 0; rc != 0 && errno == EWOULDBLOCK && i < kSettleTries; ++i) {
    ::usleep(kSettleMicros);
    rc = ::flock(fd, LOCK_EX | LOCK_NB);
  }
  if (rc == 0) return core::ok_status();
  const int err = errno;
  if (err == EWOULDBLOCK)
    return refused(path + " is being measured by another ptsuite that only reads it (it holds the target's shared "
                          "lock, flock LOCK_SH): a write now would disturb that measurement", err);
  return refused("cannot lock " + path + " exclusively (flock: " + std::string(std::strerror(err)) + ")", err);
}

core::Result<int> open_shared_hold(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    return core::Error(core::ErrorKind::BadInput, "TARGET " + path + ": cannot open it for direct I/O (" +
                                                      std::strerror(err) + ")", err);
  }
  // The same settle as lock_exclusive: a writer that just ended without closing its rings
  // (killed; a ptsuite that exits closes them on their own threads) holds its lock until the
  // kernel's asynchronous ring teardown releases the registered file.
  int rc = ::flock(fd, LOCK_SH | LOCK_NB);
  for (int i = 0; rc != 0 && errno == EWOULDBLOCK && i < kSettleTries; ++i) {
    ::usleep(kSettleMicros);
    rc = ::flock(fd, LOCK_SH | LOCK_NB);
  }
  if (rc != 0) {
    const int err = errno;
    ::close(fd);
    if (err == EWOULDBLOCK)
      return core::Error(core::ErrorKind::Refused,
                         "refused: " + path + " is held by a ptsuite that writes it (its exclusive lock, flock "
                         "LOCK_EX): a measurement now would be disturbed by it and disturb it; nothing was read", err);
    return core::Error(core::ErrorKind::Refused, "refused: cannot take the shared lock of " + path + " (flock: " +
                                                    std::strerror(err) + ")", err);
  }
  return fd;
}

std::string processes_holding(FileKey key, const std::string& root) {
  std::string out;
  const std::string self = std::to_string(::getpid());
  for (const auto& pid : sysfs::list_dir(root + "/proc")) {
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos || pid == self) continue;
    const std::string fds = root + "/proc/" + pid + "/fd";
    for (const auto& fd : sysfs::list_dir(fds)) {
      struct stat st {};
      if (::stat((fds + "/" + fd).c_str(), &st) != 0 || !(FileKey{st.st_dev, st.st_ino} == key)) continue;
      const std::string comm = sysfs::read_line(root + "/proc/" + pid + "/comm").value_or("?");
      out += (out.empty() ? "" : ", ") + ("pid " + pid + " (" + comm + ")");
      break;
    }
  }
  return out;
}

core::Result<int> open_file_exclusive(const std::string& path, FileKey expected, const std::string& root) {
  const int fd = ::open(path.c_str(), O_RDWR | O_DIRECT | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    return core::Error(core::ErrorKind::BadInput, "TARGET " + path + ": cannot open it for direct I/O (" +
                                                      std::strerror(err) + ")", err);
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !(FileKey{st.st_dev, st.st_ino} == expected)) {
    ::close(fd);
    return refused(path + " is no longer the file the guard examined (replaced while we looked)");
  }
  int rc = ::fcntl(fd, F_SETLEASE, F_WRLCK);
  int err = rc != 0 ? errno : 0;
  for (int i = 0; rc != 0 && err == EAGAIN && i < kSettleTries && processes_holding(expected, root).empty(); ++i) {
    ::usleep(kSettleMicros);
    rc = ::fcntl(fd, F_SETLEASE, F_WRLCK);
    err = rc != 0 ? errno : 0;
  }
  if (rc != 0) {
    ::close(fd);
    if (err == EAGAIN || err == EBUSY) {
      const std::string who = processes_holding(expected, root);
      return refused(path + " is open in another process" +
                     (who.empty() ? " or in the kernel (a loop device, an io_uring)" : " (" + who + ")") +
                     ": a write lease could not be taken", err);
    }
    return refused("cannot prove that no other process has " + path + " open: a write lease is not possible here (" +
                   std::string(std::strerror(err)) + ")", err);
  }
  (void)::fcntl(fd, F_SETLEASE, F_UNLCK);  // released at once: see held_target.h
  if (auto st2 = lock_exclusive(fd, path); !st2.ok()) {
    ::close(fd);
    return st2.error();
  }
  return fd;
}

}  // namespace pts::device
