// sim/state_file.cpp — see state_file.h. Layout (little endian):
//   "PTSUITE-SIMDRV\n\0" | u32 format | u32 header bytes | header | u64 header checksum |
//   u64 snapshot bytes | snapshot | u64 snapshot checksum | records...
//   record = u32 'SREC' | u32 type | u64 payload bytes | u64 header checksum | payload |
//            u64 checksum (of type, length and payload)
// Every record is appended with one write() and made durable before the next, so a kill can
// leave only the last one incomplete: fewer bytes than its header, or a header that checks out
// whose payload runs past the end of the file, or (power lost before the data reached the
// disk) nothing but zero bytes from some point to the end. That is a torn tail, dropped. Any
// other record that does not check out is a committed record damaged, wherever it is (the
// last one too: complete by its length, its checksum must hold): the file is refused.
#include "sim/state_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace pts::sim {

namespace {

constexpr char kMagic[16] = {'P', 'T', 'S', 'U', 'I', 'T', 'E', '-', 'S', 'I', 'M', 'D', 'R', 'V', '\n', '\0'};
constexpr uint32_t kRecordMagic = 0x43455253;  // "SREC"
constexpr size_t kRecordHeaderBytes = 24;       // magic, type, length, header checksum
constexpr uint32_t kLastRecordType = static_cast<uint32_t>(RecordType::Namespace);

uint64_t record_checksum(uint32_t type, uint64_t len, const uint8_t* payload) {
  Checksum c;
  c.update(&type, 4);
  c.update(&len, 8);
  c.update(payload, len);
  return c.final();
}

core::Error bad(const std::string& path, const std::string& why) {
  return core::bad_input("state file " + path + ": " + why);
}

bool write_all(int fd, const uint8_t* p, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

struct FileSink {
  int fd;
  Checksum sum;
  uint64_t bytes = 0;
};

bool file_sink(void* ctx, const uint8_t* data, size_t n) {
  auto* s = static_cast<FileSink*>(ctx);
  s->sum.update(data, n);
  s->bytes += n;
  return write_all(s->fd, data, n);
}

void encode_header(const StateHeader& h, ByteWriter& w) {
  w.str(h.canonical);
  w.u32(static_cast<uint32_t>(h.values.size()));
  for (const auto& [k, v] : h.values) {
    w.str(k);
    w.str(v);
  }
  w.str(h.serial);
  w.u64(h.salt);
  w.u64(h.created_wall_ns);
  w.u64(h.wall_offset_ns);
}

bool decode_header(ByteReader& r, StateHeader& h) {
  h.canonical = r.str();
  const uint32_t n = r.u32();
  if (n > 1000) return false;
  for (uint32_t i = 0; i < n && !r.failed(); ++i) {
    std::string k = r.str();
    std::string v = r.str();
    h.values.emplace_back(std::move(k), std::move(v));
  }
  h.serial = r.str();
  h.salt = r.u64();
  h.created_wall_ns = r.u64();
  h.wall_offset_ns = r.u64();
  return !r.failed() && r.done();
}

core::Status fsync_dir(const std::string& path) {
  const std::string dir = std::filesystem::path(path).parent_path().string();
  const int d = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (d < 0) return core::Error(core::ErrorKind::Internal, "cannot open directory " + dir + ": " + std::strerror(errno));
  ::fsync(d);
  ::close(d);
  return core::ok_status();
}

}  // namespace

// --- reading ----------------------------------------------------------------------------

StateImage::~StateImage() {
  if (map_) munmap(map_, map_bytes_);
}
StateImage::StateImage(StateImage&& o) noexcept { *this = std::move(o); }
StateImage& StateImage::operator=(StateImage&& o) noexcept {
  if (this == &o) return *this;
  if (map_) munmap(map_, map_bytes_);
  header = std::move(o.header);
  format_version = o.format_version;
  snapshot = o.snapshot;
  snapshot_bytes = o.snapshot_bytes;
  records = std::move(o.records);
  good_end = o.good_end;
  torn_tail = o.torn_tail;
  file_bytes = o.file_bytes;
  map_ = o.map_;
  map_bytes_ = o.map_bytes_;
  o.map_ = nullptr;
  o.map_bytes_ = 0;
  return *this;
}

core::Result<StateImage> read_state_file(const std::string& path, int fd_in) {
  const int fd = fd_in >= 0 ? fd_in : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return bad(path, std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    if (fd_in < 0) ::close(fd);
    return bad(path, "not a regular file");
  }
  StateImage img;
  img.file_bytes = static_cast<uint64_t>(st.st_size);
  if (st.st_size > 0) {
    void* m = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
      if (fd_in < 0) ::close(fd);
      return bad(path, std::string("cannot map it: ") + std::strerror(errno));
    }
    img.map_ = m;
    img.map_bytes_ = static_cast<size_t>(st.st_size);
  }
  if (fd_in < 0) ::close(fd);
  const auto* base = static_cast<const uint8_t*>(img.map_);
  ByteReader r(base, img.map_bytes_);
  char magic[16];
  r.raw(magic, 16);
  if (r.failed() || std::memcmp(magic, kMagic, 16) != 0)
    return bad(path, "not a ptsuite simulated-drive state file (wrong magic)");
  img.format_version = r.u32();
  if (img.format_version > kStateFormatVersion)
    return bad(path, "format version " + std::to_string(img.format_version) + " is newer than this ptsuite reads (" +
                         std::to_string(kStateFormatVersion) + "); use a newer ptsuite");
  if (img.format_version < kStateFormatVersion)
    return bad(path, "format version " + std::to_string(img.format_version) + " is older than this ptsuite's (" +
                         std::to_string(kStateFormatVersion) +
                         ") and its log would not replay to the same drive; delete it to start a new drive (FOB)");
  const uint32_t hlen = r.u32();
  if (hlen > r.left()) return bad(path, "corrupted (header length past the end of the file)");
  const uint8_t* hstart = r.here();
  r.skip(hlen);
  const uint64_t hsum = r.u64();
  if (r.failed() || hsum != checksum64(hstart, hlen)) return bad(path, "corrupted (header checksum mismatch)");
  ByteReader hr(hstart, hlen);
  if (!decode_header(hr, img.header)) return bad(path, "corrupted (header unreadable)");
  const uint64_t slen = r.u64();
  if (r.failed() || slen + 8 > r.left()) return bad(path, "corrupted (snapshot truncated)");
  img.snapshot = r.here();
  img.snapshot_bytes = slen;
  r.skip(slen);
  const uint64_t ssum = r.u64();
  // Checked in pieces, each dropped from memory once summed: a full 2 TB drive's snapshot
  // is 4 GB, which would otherwise sit in this process's memory beside the tables it fills.
  Checksum snap_sum;
  for (size_t at = 0; at < slen;) {
    const size_t k = std::min<size_t>(slen - at, size_t{64} << 20);
    snap_sum.update(img.snapshot + at, k);
    release_mapped(img.snapshot + at, k);
    at += k;
  }
  if (ssum != snap_sum.final()) return bad(path, "corrupted (snapshot checksum mismatch)");
  img.good_end = img.map_bytes_ - r.left();
  while (r.left() > 0) {
    const uint64_t start = img.map_bytes_ - r.left();
    auto damaged = [&](const std::string& why) {
      return bad(path, "corrupted (log record " + std::to_string(img.records.size() + 1) + " at byte " +
                           std::to_string(start) + " " + why + "); the file is left as it is");
    };
    if (std::all_of(r.here(), r.here() + r.left(), [](uint8_t b) { return b == 0; })) {
      img.torn_tail = true;  // an append whose bytes never reached the disk
      break;
    }
    if (r.left() < kRecordHeaderBytes) {  // an append torn by a kill: not even its header made it
      img.torn_tail = true;
      break;
    }
    const uint8_t* head = r.here();
    const uint32_t magic_word = r.u32();
    const uint32_t type = r.u32();
    const uint64_t len = r.u64();
    const uint64_t head_sum = r.u64();
    if (head_sum != checksum64(head, 16)) {
      if (magic_word != kRecordMagic) return damaged("is damaged: no record starts there");
      return damaged("fails its header checksum: its length or type is damaged");
    }
    if (magic_word != kRecordMagic) return damaged("is damaged: no record starts there");
    if (len + 8 > r.left()) {  // a sound header whose payload runs past the end: torn append
      img.torn_tail = true;
      break;
    }
    const uint8_t* payload = r.here();
    r.skip(len);
    const uint64_t sum = r.u64();
    if (sum != record_checksum(type, len, payload)) return damaged("fails its checksum");
    if (type < 1 || type > kLastRecordType) return damaged("has an unknown type " + std::to_string(type));
    img.records.push_back({static_cast<RecordType>(type), payload, len, start});
    img.good_end = img.map_bytes_ - r.left();
  }
  return img;
}

// --- writing ----------------------------------------------------------------------------

StateFile::~StateFile() {
  if (fd_ >= 0) ::close(fd_);  // releases the lock
}

StateFile& StateFile::operator=(StateFile&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.fd_;
    path_ = std::move(o.path_);
    o.fd_ = -1;
  }
  return *this;
}

core::Result<int> StateFile::write_new(const std::string& tmp, const StateHeader& header, SnapshotFn fn, void* ctx) {
  const int fd = ::open(tmp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return core::Error(core::ErrorKind::BadInput, "cannot create " + tmp + ": " + std::strerror(errno), errno);
  ::flock(fd, LOCK_EX | LOCK_NB);  // nobody else knows this name; locked before it gets the real one
  ByteWriter head;
  head.raw(kMagic, 16);
  head.u32(kStateFormatVersion);
  ByteWriter hb;
  encode_header(header, hb);
  head.u32(static_cast<uint32_t>(hb.size()));
  head.raw(hb.bytes().data(), hb.size());
  head.u64(checksum64(hb.bytes().data(), hb.size()));
  const off_t len_at = static_cast<off_t>(head.size());
  head.u64(0);  // snapshot length, patched below
  bool ok = write_all(fd, head.bytes().data(), head.size());
  FileSink sink{fd, {}, 0};
  ByteWriter snap;
  snap.set_sink(&file_sink, &sink);
  if (ok) fn(ctx, snap);
  ok = ok && snap.flush();
  uint64_t sum = sink.sum.final();
  ok = ok && write_all(fd, reinterpret_cast<const uint8_t*>(&sum), 8);
  ok = ok && ::pwrite(fd, &sink.bytes, 8, len_at) == 8;
  ok = ok && ::fsync(fd) == 0;
  if (!ok) {
    const int err = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    return core::Error(core::ErrorKind::Internal, "cannot write the state file " + tmp + ": " + std::strerror(err), err);
  }
  ::lseek(fd, 0, SEEK_END);
  return fd;
}

core::Result<StateFile> StateFile::create(const std::string& path, const StateHeader& header, SnapshotFn fn, void* ctx) {
  const std::string tmp = path + ".new-" + std::to_string(::getpid());
  auto fd = write_new(tmp, header, fn, ctx);
  if (!fd.ok()) return fd.error();
  if (::link(tmp.c_str(), path.c_str()) != 0) {  // fails when the file appeared meanwhile
    const int err = errno;
    ::close(*fd);
    ::unlink(tmp.c_str());
    return core::Error(core::ErrorKind::BadInput, "cannot create the state file " + path + ": " + std::strerror(err), err);
  }
  ::unlink(tmp.c_str());
  if (auto st = fsync_dir(path); !st.ok()) {
    ::close(*fd);
    return st.error();
  }
  StateFile f;
  f.fd_ = *fd;
  f.path_ = path;
  return f;
}

core::Result<StateFile> StateFile::open_locked(const std::string& path) {
  for (int attempt = 0; attempt < 5; ++attempt) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) return bad(path, std::strerror(errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK)
        return core::Error(core::ErrorKind::Refused, "refused: the simulated drive " + path +
                                                         " is in use by another process (its state file is locked)");
      return bad(path, std::string("cannot lock it: ") + std::strerror(err));
    }
    // A writer may have renamed a new snapshot over the path since we opened it: then our
    // descriptor holds the old, unlinked inode. Start again on the new one.
    struct stat a {}, b {};
    if (::fstat(fd, &a) == 0 && ::stat(path.c_str(), &b) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev) {
      // Records are appended with write(): start at the end, not over the header.
      if (::lseek(fd, 0, SEEK_END) < 0) {
        const int err = errno;
        ::close(fd);
        return bad(path, std::string("cannot seek to its end: ") + std::strerror(err));
      }
      StateFile f;
      f.fd_ = fd;
      f.path_ = path;
      return f;
    }
    ::close(fd);
  }
  return bad(path, "keeps being replaced while opening it");
}

core::Status StateFile::truncate_to(uint64_t good_end) {
  if (::ftruncate(fd_, static_cast<off_t>(good_end)) != 0 || ::fdatasync(fd_) != 0)
    return core::Error(core::ErrorKind::Internal, "state file " + path_ + ": cannot drop the torn tail: " + std::strerror(errno));
  ::lseek(fd_, 0, SEEK_END);
  return core::ok_status();
}

core::Status StateFile::append(RecordType type, const std::vector<uint8_t>& payload) {
  ByteWriter w;
  const uint32_t t = static_cast<uint32_t>(type);
  const uint64_t len = payload.size();
  w.u32(kRecordMagic);
  w.u32(t);
  w.u64(len);
  w.u64(checksum64(w.bytes().data(), 16));
  w.raw(payload.data(), payload.size());
  w.u64(record_checksum(t, len, payload.data()));
  if (!write_all(fd_, w.bytes().data(), w.size()) || ::fdatasync(fd_) != 0)
    return core::Error(core::ErrorKind::Internal, "state file " + path_ + ": checkpoint failed: " + std::strerror(errno));
  return core::ok_status();
}

core::Status StateFile::rewrite(const StateHeader& header, SnapshotFn fn, void* ctx) {
  const std::string tmp = path_ + ".new-" + std::to_string(::getpid());
  ::unlink(tmp.c_str());  // a leftover of an earlier crash of this pid number
  auto fd = write_new(tmp, header, fn, ctx);
  if (!fd.ok()) return fd.error();
  if (::rename(tmp.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    ::close(*fd);
    ::unlink(tmp.c_str());
    return core::Error(core::ErrorKind::Internal, "state file " + path_ + ": cannot replace it: " + std::strerror(err), err);
  }
  (void)fsync_dir(path_);
  ::close(fd_);  // the old inode's lock goes only now, after the new one is locked and in place
  fd_ = *fd;
  return core::ok_status();
}

}  // namespace pts::sim
