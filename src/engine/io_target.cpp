// engine/io_target.cpp — see io_target.h.
#include "engine/io_target.h"

#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <vector>

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

/// Without STATX_DIOALIGN (kernels before 6.1, file systems that do not fill it): the smallest
/// of 512..4096 bytes that an O_DIRECT read of `fd` (opened O_DIRECT) at offset 0 accepts, from
/// a page-aligned buffer. 0 when none does. Reads only (a hole or EOF still checks alignment).
long probe_dio_alignment(int fd) {
  void* raw = nullptr;
  if (posix_memalign(&raw, 4096, 4096) != 0) return 0;
  std::unique_ptr<void, decltype(&std::free)> buf(raw, &std::free);
  for (long n = 512; n <= 4096; n *= 2)
    if (pread(fd, buf.get(), static_cast<size_t>(n), 0) >= 0) return n;
  return 0;
}

/// The O_DIRECT alignment of `fd` and where it came from; 0 = direct I/O not supported.
long alignment_of(int fd, std::string& source) {
  long align = dio_alignment(fd);
  source = "STATX_DIOALIGN";
  if (align < 0) {
    align = probe_dio_alignment(fd);
    source = "probe";
  }
  return align;
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
  if (ftruncate(fd, 4096) != 0) {  // the unnamed file: something for the probe to read
    close(fd);
    return info;
  }
  const long align = alignment_of(fd, info.alignment_source);
  close(fd);
  if (align == 0) return bad(path, kNoDirectIo);
  info.target.logical_block_bytes = static_cast<uint32_t>(align);
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
  TargetInfo info;
  const long align = alignment_of(fd, info.alignment_source);
  if (align == 0) {
    close(fd);
    return bad(path, kNoDirectIo);
  }
  info.target = IoTarget{path, static_cast<uint64_t>(st.st_size), static_cast<uint32_t>(align)};
  info.kind = model::TargetKind::File;
  info.exists = true;
  const auto holes = find_unwritten(fd, info.target.size_bytes, info);
  close(fd);
  if (!holes.ok()) return bad(path, holes.error().message());
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

namespace {

/// Adds [from, to) to the unwritten tally.
void note_unwritten(TargetInfo& info, uint64_t from, uint64_t to) {
  if (to <= from) return;
  if (!info.unwritten_bytes) info.first_unwritten_offset = from;
  info.unwritten_bytes += to - from;
}

/// FIEMAP: holes are the gaps between extents, unwritten extents carry their flag — whatever
/// the page cache holds (SEEK_DATA calls an unwritten range data once it was read into the
/// cache). false when the file system has no FIEMAP.
bool fiemap_unwritten(int fd, uint64_t size_bytes, TargetInfo& info) {
  constexpr uint32_t kExtents = 256;
  std::vector<uint8_t> raw(sizeof(struct fiemap) + kExtents * sizeof(struct fiemap_extent));
  auto* fm = reinterpret_cast<struct fiemap*>(raw.data());
  uint64_t pos = 0;  // everything before pos is accounted for
  while (pos < size_bytes) {
    std::fill(raw.begin(), raw.end(), 0);
    fm->fm_start = pos;
    fm->fm_length = size_bytes - pos;
    fm->fm_flags = FIEMAP_FLAG_SYNC;
    fm->fm_extent_count = kExtents;
    if (ioctl(fd, FS_IOC_FIEMAP, fm) != 0) return false;
    if (fm->fm_mapped_extents == 0) break;  // the rest is a hole
    bool last = false;
    for (uint32_t i = 0; i < fm->fm_mapped_extents; ++i) {
      const auto& e = fm->fm_extents[i];
      const uint64_t start = std::max<uint64_t>(e.fe_logical, pos);
      const uint64_t end = std::min<uint64_t>(e.fe_logical + e.fe_length, size_bytes);
      note_unwritten(info, pos, std::min(start, size_bytes));  // a hole before this extent
      if (e.fe_flags & FIEMAP_EXTENT_UNWRITTEN) note_unwritten(info, start, end);
      pos = std::max(pos, end);
      last = last || (e.fe_flags & FIEMAP_EXTENT_LAST);
    }
    if (last) break;
  }
  note_unwritten(info, pos, size_bytes);  // a hole up to the end
  return true;
}

}  // namespace

core::Status find_unwritten(int fd, uint64_t size_bytes, TargetInfo& info) {
  info.unwritten_bytes = 0;
  info.first_unwritten_offset = 0;
  if (fiemap_unwritten(fd, size_bytes, info)) return core::ok_status();
  info.unwritten_bytes = 0;
  info.first_unwritten_offset = 0;
  // No FIEMAP (tmpfs and others): SEEK_DATA/SEEK_HOLE.
  uint64_t off = 0;
  while (off < size_bytes) {
    const off_t data = lseek(fd, static_cast<off_t>(off), SEEK_DATA);
    if (data < 0) {
      if (errno != ENXIO) return errno == EINVAL ? core::ok_status()  // no SEEK_DATA here: all data
                                                 : core::Error(core::ErrorKind::Io, std::string("SEEK_DATA: ") +
                                                                                        std::strerror(errno), errno);
      note_unwritten(info, off, size_bytes);  // a hole (or unwritten extents) up to the end
      break;
    }
    const uint64_t d = std::min<uint64_t>(static_cast<uint64_t>(data), size_bytes);
    note_unwritten(info, off, d);
    const off_t hole = lseek(fd, data, SEEK_HOLE);
    if (hole < 0) return core::Error(core::ErrorKind::Io, std::string("SEEK_HOLE: ") + std::strerror(errno), errno);
    if (static_cast<uint64_t>(hole) <= d) break;  // cannot happen; never loop forever
    off = static_cast<uint64_t>(hole);
  }
  return core::ok_status();
}

core::Status create_file_target(const std::string& path, uint64_t size_bytes) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return bad(path, std::string("cannot create: ") + std::strerror(errno), errno);
  auto failed = [&](const std::string& what, int err) {
    close(fd);
    unlink(path.c_str());
    return bad(path, what + ": " + std::strerror(err), err);
  };
  const int rc = posix_fallocate(fd, 0, static_cast<off_t>(size_bytes));
  if (rc != 0) return failed("cannot allocate " + std::to_string(size_bytes) + " bytes", rc);
  // Fill it: fallocated blocks are unwritten extents that the file system answers as zeroes
  // without reading the device. Incompressible data (xorshift64*), a different stream per
  // file; buffered (the tail needs no alignment), then fdatasync and dropped from the cache.
  constexpr size_t kChunk = 1 << 20;
  std::unique_ptr<uint64_t[]> buf(new uint64_t[kChunk / 8]);
  uint64_t x = static_cast<uint64_t>(getpid()) * 0x9E3779B97F4A7C15ull ^ static_cast<uint64_t>(time(nullptr));
  if (!x) x = 1;
  for (uint64_t done = 0; done < size_bytes;) {
    for (size_t i = 0; i < kChunk / 8; ++i) {
      x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
      buf[i] = x * 0x2545F4914F6CDD1Dull;
    }
    const size_t n = static_cast<size_t>(std::min<uint64_t>(kChunk, size_bytes - done));
    const ssize_t w = pwrite(fd, buf.get(), n, static_cast<off_t>(done));
    if (w <= 0) return failed("cannot fill the new file at offset " + std::to_string(done), w < 0 ? errno : EIO);
    done += static_cast<uint64_t>(w);
  }
  if (fdatasync(fd) != 0) return failed("cannot sync the filled file", errno);
  (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  close(fd);
  return core::ok_status();
}

}  // namespace pts::engine
