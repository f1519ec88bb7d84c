// core/atomic_file.cpp — see atomic_file.h.
#include "core/atomic_file.h"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace pts::core {

static std::string dir_of(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

Status fsync_directory(const std::string& dir) {
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) {
    const int e = errno;
    return Error(ErrorKind::Io, "cannot open directory " + dir + " to fsync it: " + std::strerror(e), e);
  }
  int rc;
  while ((rc = ::fsync(dfd)) != 0 && errno == EINTR) {
  }
  const int e = rc ? errno : 0;
  ::close(dfd);
  if (rc != 0 && e != EINVAL)  // EINVAL: a file system that cannot sync directories (nothing to do)
    return Error(ErrorKind::Io, "fsync of directory " + dir + " failed: " + std::strerror(e), e);
  return ok_status();
}

Status create_directories_durable(const std::string& dir) {
  if (dir.empty()) return Error(ErrorKind::BadInput, "empty directory name");
  std::string path;
  size_t pos = 0;
  while (pos <= dir.size()) {
    size_t next = dir.find('/', pos);
    if (next == std::string::npos) next = dir.size();
    path = dir.substr(0, next);
    pos = next + 1;
    if (path.empty() || path == "." || path == "..") continue;
    if (::mkdir(path.c_str(), 0755) == 0) {
      if (auto st = fsync_directory(dir_of(path)); !st.ok()) return st;
    } else if (errno != EEXIST) {
      const int e = errno;
      return Error(ErrorKind::BadInput, "cannot create directory " + path + ": " + std::strerror(e), e);
    } else {
      struct stat st {};
      if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        return Error(ErrorKind::BadInput, path + " exists and is not a directory");
    }
  }
  return ok_status();
}

Status atomic_write_file(const std::string& path, std::string_view content) {
  std::string tmp = path + ".tmp.XXXXXX";
  int fd = ::mkostemp(tmp.data(), O_CLOEXEC);  // O_CREAT|O_EXCL: never an existing file or a symlink
  if (fd < 0) {
    int e = errno;
    return Error(ErrorKind::BadInput, "cannot write " + path + ": " + std::strerror(e), e);
  }
  ::fchmod(fd, 0644);
  size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return Error(ErrorKind::Io, "write " + tmp + ": " + std::strerror(e), e);
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    return Error(ErrorKind::Io, "fsync " + tmp + ": " + std::strerror(e), e);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    return Error(ErrorKind::BadInput, "cannot write " + path + ": " + std::strerror(e), e);
  }
  return fsync_directory(dir_of(path));
}

Result<std::string> read_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    return Error(ErrorKind::BadInput, "cannot read " + path + ": " + std::strerror(e), e);
  }
  std::string out;
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      ::close(fd);
      return Error(ErrorKind::BadInput, "cannot read " + path + ": " + std::strerror(e), e);
    }
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

}  // namespace pts::core
