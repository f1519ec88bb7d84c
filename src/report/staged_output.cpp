// report/staged_output.cpp — see staged_output.h.
#include "report/staged_output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace pts::report {

namespace {

std::string dir_of(const std::string& path) {
  const auto parent = std::filesystem::path(path).parent_path().string();
  return parent.empty() ? "." : parent;
}

core::Error cannot_write(const std::string& what, int err) {
  return core::Error(core::ErrorKind::BadInput, "cannot write " + what + ": " + std::strerror(err), err);
}

core::Status fsync_path(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return cannot_write(path, errno);
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) return core::Error(core::ErrorKind::Io, "fsync " + path + ": " + std::strerror(err), err);
  return core::ok_status();
}

}  // namespace

StagedOutput::~StagedOutput() {
  for (const auto& e : entries_)
    if (!e.temp.empty()) ::unlink(e.temp.c_str());
}

core::Result<std::string> StagedOutput::reserve(const std::string& final_path) {
  const std::string name = std::filesystem::path(final_path).filename().string();
  std::string tmpl = dir_of(final_path) + "/." + name + ".tmp-XXXXXX";
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0) return cannot_write(final_path + " (in " + dir_of(final_path) + ")", errno);
  ::fchmod(fd, 0644);  // a report is meant to be shared; mkstemp creates 0600
  ::close(fd);
  entries_.push_back({tmpl, final_path});
  return tmpl;
}

core::Status StagedOutput::stage_text(const std::string& final_path, std::string_view content) {
  auto temp = reserve(final_path);
  if (!temp) return temp.take_error();
  const int fd = ::open(temp->c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) return cannot_write(*temp, errno);
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = errno;
      ::close(fd);
      return cannot_write(final_path, err ? err : ENOSPC);
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) return cannot_write(final_path, errno);
  return core::ok_status();
}

core::Result<std::vector<std::string>> StagedOutput::commit() {
  for (const auto& e : entries_) {
    auto st = fsync_path(e.temp, O_RDONLY);
    if (!st) return st.take_error();
  }
  std::vector<std::string> done;
  for (auto& e : entries_) {
    if (::rename(e.temp.c_str(), e.final_path.c_str()) != 0) return cannot_write(e.final_path, errno);
    e.temp.clear();
    done.push_back(e.final_path);
    auto st = fsync_path(dir_of(e.final_path), O_RDONLY | O_DIRECTORY);
    if (!st) return st.take_error();
  }
  entries_.clear();
  return done;
}

}  // namespace pts::report
