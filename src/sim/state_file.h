// sim/state_file.h — the simulated drive's state on disk: a header (format version, the
// drive's parameters, serial), a snapshot of the whole drive, then an append-only log of
// every state-changing command since (cell runs with their seed, host idle, admin commands,
// block writes). Opening loads the snapshot and replays the log; the simulation
// is deterministic, so the replayed drive equals the one that wrote the log. A checkpoint
// is one fdatasync'd log record (cheap for any drive size); a new snapshot (written to a
// temporary file, fsync'd, renamed over the old one) bounds the replay. Only an incomplete
// last record (kill -9 while appending) is a torn tail, dropped; a committed record that does
// not check out, wherever it is, is an error naming its offset, and the file is left as it is. The writer holds an exclusive flock on the file for its whole life: that is the
// simulated drive's equivalent of opening a device O_EXCL. May use: core, sim bytes.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "sim/bytes.h"

namespace pts::sim {

/// Bumped whenever the layout or the simulation's behaviour changes (a log written by one
/// model version would not replay to the same drive under another).
inline constexpr uint32_t kStateFormatVersion = 7;  ///< 2: AR segments and stream starts in Run records; 3: channels fill gaps; 4: GC units wait for their own reads; 5: GC moves a victim in lpn order at selection; 6: log records carry a header checksum; 7: read priority, page-type programs, per-die queues, seeded tails

enum class RecordType : uint32_t {
  Run = 1, Idle = 2, Format = 3, Sanitize = 4, SetWriteCache = 5, BlockWrite = 6,
  /// The virtual wall clock's offset a process attached with (wall = offset + virtual time;
  /// never decreases, so timestamps stay monotonic across processes).
  Anchor = 7,
  /// The writer ended cleanly: its last Run is final (without it, a trailing Run may be a cell
  /// whose result the host never recorded: see DriveSession::begin_run).
  Closed = 8,
  /// Dataset Management deallocate of a byte range outside a cell (the `discard` purge).
  Deallocate = 9,
  /// A multi-job cell: every job's spec and range, then the event it stopped at. (Records 10
  /// and 11 are written only by drives that ran such a cell or changed their namespaces; a
  /// drive that never did saves and logs exactly as state format 7 always did.)
  RunJobs = 10,
  /// Namespace Management, Attachment, or a Format NVM of one namespace of several.
  Namespace = 11
};

/// What a RecordType::Namespace record did.
enum class NamespaceOp : uint8_t { Delete = 0, Create = 1, Attach = 2, Detach = 3, Format = 4 };

struct StateHeader {
  std::string canonical;  ///< "demo,op=28%": profile and overrides
  std::vector<std::pair<std::string, std::string>> values;  ///< every parameter
  std::string serial;
  uint64_t salt = 0;      ///< seeds the drive's generated data and its serial
  uint64_t created_wall_ns = 0;
  /// The virtual wall clock's offset as of the snapshot (RecordType::Anchor); not part of
  /// the drive's state, so drives compare equal whatever real time they ran at.
  uint64_t wall_offset_ns = 0;
};

struct LogRecord {
  RecordType type;
  const uint8_t* payload;
  size_t bytes;
  uint64_t file_offset = 0;  ///< where the record starts in the file
};

/// A state file read into memory (mapped, not copied).
class StateImage {
 public:
  StateImage() = default;
  ~StateImage();
  StateImage(StateImage&&) noexcept;
  StateImage& operator=(StateImage&&) noexcept;
  StateImage(const StateImage&) = delete;
  StateImage& operator=(const StateImage&) = delete;

  StateHeader header;
  uint32_t format_version = 0;
  const uint8_t* snapshot = nullptr;
  size_t snapshot_bytes = 0;
  std::vector<LogRecord> records;
  uint64_t good_end = 0;  ///< file offset after the last intact record
  bool torn_tail = false; ///< an incomplete last record was dropped
  uint64_t file_bytes = 0;

 private:
  friend core::Result<StateImage> read_state_file(const std::string& path, int fd);
  void* map_ = nullptr;
  size_t map_bytes_ = 0;
};

/// Reads and checks `path` (through `fd` when >= 0). BadInput, naming the file, when it is
/// not a state file, has a newer or older format, or is damaged. Never writes.
core::Result<StateImage> read_state_file(const std::string& path, int fd = -1);

/// Writes the snapshot bytes: the caller's function fills a ByteWriter.
using SnapshotFn = void (*)(void* ctx, ByteWriter& out);

/// The open, locked state file of a drive that may change.
class StateFile {
 public:
  StateFile() = default;
  ~StateFile();
  StateFile(StateFile&& o) noexcept : fd_(o.fd_), path_(std::move(o.path_)) { o.fd_ = -1; }
  StateFile& operator=(StateFile&& o) noexcept;
  StateFile(const StateFile&) = delete;
  StateFile& operator=(const StateFile&) = delete;

  /// Creates `path` (which must not exist) with `header` and a snapshot, and locks it.
  static core::Result<StateFile> create(const std::string& path, const StateHeader& header, SnapshotFn fn, void* ctx);
  /// Opens and locks an existing file: Refused when another process holds the lock.
  static core::Result<StateFile> open_locked(const std::string& path);

  int fd() const { return fd_; }
  /// Drops everything after `good_end` (a torn tail) before the first append.
  core::Status truncate_to(uint64_t good_end);
  /// Appends one record and makes it durable (fdatasync).
  core::Status append(RecordType type, const std::vector<uint8_t>& payload);
  /// Replaces the file by header + a new snapshot + an empty log (atomic rename; the lock
  /// moves to the new file before the old one is released).
  core::Status rewrite(const StateHeader& header, SnapshotFn fn, void* ctx);

 private:
  static core::Result<int> write_new(const std::string& tmp, const StateHeader& header, SnapshotFn fn, void* ctx);
  int fd_ = -1;
  std::string path_;
};

}  // namespace pts::sim
