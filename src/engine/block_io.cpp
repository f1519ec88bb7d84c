// engine/block_io.cpp — model::BlockAccess over liburing: each call submits one SQE and waits for its
// CQE. May use: core, liburing.
#include "engine/block_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <liburing.h>

namespace pts::engine {

namespace {

constexpr size_t kAlign = 4096;

class UringBlockIo final : public model::BlockAccess {
 public:
  UringBlockIo(int fd, std::string path, bool owns_fd) : fd_(fd), path_(std::move(path)), owns_fd_(owns_fd) {}
  ~UringBlockIo() override {
    if (ring_ok_) io_uring_queue_exit(&ring_);
    std::free(buf_);
    if (owns_fd_) ::close(fd_);
  }

  core::Status init() {
    int rc = io_uring_queue_init(2, &ring_, 0);
    if (rc < 0) return core::Error(core::ErrorKind::Io, "io_uring setup failed: " + std::string(std::strerror(-rc)), -rc);
    ring_ok_ = true;
    return core::ok_status();
  }

  core::Status write_at(uint64_t offset, std::span<const uint8_t> data) override {
    if (auto st = reserve(data.size()); !st.ok()) return st;
    std::memcpy(buf_, data.data(), data.size());
    return run(true, offset, data.size());
  }

  core::Status read_at(uint64_t offset, std::span<uint8_t> data) override {
    if (auto st = reserve(data.size()); !st.ok()) return st;
    if (auto st = run(false, offset, data.size()); !st.ok()) return st;
    std::memcpy(data.data(), buf_, data.size());
    return core::ok_status();
  }

  core::Status flush() override {
    io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
    io_uring_prep_fsync(sqe, fd_, 0);
    return complete("fsync", 0, 0);
  }

 private:
  core::Status reserve(size_t bytes) {
    if (bytes <= cap_) return core::ok_status();
    std::free(buf_);
    buf_ = nullptr;
    cap_ = 0;
    size_t rounded = (bytes + kAlign - 1) / kAlign * kAlign;
    if (posix_memalign(&buf_, kAlign, rounded) != 0)
      return core::Error(core::ErrorKind::Internal, "out of memory for a " + std::to_string(rounded) + " byte buffer");
    cap_ = rounded;
    return core::ok_status();
  }

  core::Status run(bool write, uint64_t offset, size_t bytes) {
    io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
    if (write) io_uring_prep_write(sqe, fd_, buf_, static_cast<unsigned>(bytes), offset);
    else io_uring_prep_read(sqe, fd_, buf_, static_cast<unsigned>(bytes), offset);
    return complete(write ? "write" : "read", offset, bytes);
  }

  core::Status complete(const char* what, uint64_t offset, size_t bytes) {
    int rc = io_uring_submit(&ring_);
    io_uring_cqe* cqe = nullptr;
    if (rc >= 0) rc = io_uring_wait_cqe(&ring_, &cqe);
    if (rc < 0) return io_error(what, offset, -rc);
    const int res = cqe->res;
    io_uring_cqe_seen(&ring_, cqe);
    if (res < 0) return io_error(what, offset, -res);
    if (size_t(res) != bytes)
      return core::Error(core::ErrorKind::Io, std::string(what) + " at byte " + std::to_string(offset) + " of " + path_ +
                                                  ": " + std::to_string(res) + " of " + std::to_string(bytes) + " bytes");
    return core::ok_status();
  }

  core::Error io_error(const char* what, uint64_t offset, int err) {
    return core::Error(core::ErrorKind::Io, std::string(what) + " at byte " + std::to_string(offset) + " of " + path_ +
                                                " failed: " + std::strerror(err), err);
  }

  int fd_;
  std::string path_;
  bool owns_fd_;
  io_uring ring_{};
  bool ring_ok_ = false;
  void* buf_ = nullptr;
  size_t cap_ = 0;
};

}  // namespace

core::Result<std::unique_ptr<model::BlockAccess>> open_block_io(const std::string& path, bool writable) {
  int fd = ::open(path.c_str(), (writable ? O_RDWR : O_RDONLY) | O_DIRECT | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    return core::Error(core::ErrorKind::BadInput,
                       path + ": cannot open for direct I/O: " +
                           (err == EINVAL ? std::string("O_DIRECT not supported here") : std::strerror(err)),
                       err);
  }
  auto io = std::make_unique<UringBlockIo>(fd, path, true);
  if (auto st = io->init(); !st.ok()) return st.error();
  return std::unique_ptr<model::BlockAccess>(std::move(io));
}

core::Result<std::unique_ptr<model::BlockAccess>> borrow_block_io(int fd, const std::string& name) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || !(flags & O_DIRECT))
    return core::Error(core::ErrorKind::Internal, name + ": the borrowed descriptor is not open for direct I/O");
  auto io = std::make_unique<UringBlockIo>(fd, name, false);
  if (auto st = io->init(); !st.ok()) return st.error();
  return std::unique_ptr<model::BlockAccess>(std::move(io));
}

namespace {

class UringBlockIoFactory final : public model::BlockAccessFactory {
 public:
  core::Result<std::unique_ptr<model::BlockAccess>> open(int fd, const std::string& name) override {
    return borrow_block_io(fd, name);
  }
};

}  // namespace

std::shared_ptr<model::BlockAccessFactory> block_io_factory() { return std::make_shared<UringBlockIoFactory>(); }

}  // namespace pts::engine
