// sim/session.h — one process's use of a simulated drive: opens (or creates) its state
// file, rebuilds the drive from snapshot + log, and checkpoints. Every command that changes
// the drive (a cell, host idle, Format, Sanitize, Set Features, a block write, a deallocate) first
// commits the previous command's log record, runs, then leaves its own record pending: so
// the durable state is always the drive as of the last command boundary, and kill -9 in the
// middle of a cell leaves the drive as it was before that cell. A new snapshot is written
// when replaying the log would take longer than writing one (measured). May use: core,
// model, sim internals.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "model/access_spec.h"
#include "sim/drive.h"
#include "sim/host_loop.h"
#include "sim/state_file.h"
#include "sim/target.h"

namespace pts::sim {

/// Checkpoint and replay figures (for `info`, the benches and the tests).
struct SessionStats {
  uint64_t records_replayed = 0;
  double replay_seconds = 0;        ///< opening: rebuilding the drive from the log
  double load_seconds = 0;          ///< opening: reading the snapshot
  uint64_t checkpoints = 0;         ///< records committed by this process
  double checkpoint_seconds = 0;    ///< their total time (append + fdatasync)
  uint64_t snapshots = 0;           ///< snapshots written by this process
  double snapshot_seconds = 0;      ///< their total time
  uint64_t last_snapshot_bytes = 0;
  bool dropped_torn_tail = false;
};

class DriveSession {
 public:
  /// Opens the drive `target` names. `writable`: lock the state file for this process's
  /// whole life (Refused while another process holds it) and create it when missing.
  /// Read-only: never writes; a missing file gives a new drive that is not saved.
  static core::Result<std::shared_ptr<DriveSession>> open(const SimTarget& target, bool writable);
  ~DriveSession();
  DriveSession(const DriveSession&) = delete;
  DriveSession& operator=(const DriveSession&) = delete;

  Drive& drive() { return *drive_; }
  const Drive& drive() const { return *drive_; }
  const SimTarget& target() const { return target_; }
  const std::string& serial() const { return header_.serial; }
  bool writable() const { return file_.has_value(); }
  /// The locked state file's descriptor (-1 read-only): a held target's descriptor.
  int state_fd() const { return file_ ? file_->fd() : -1; }
  /// True when this process created the state file (a new drive nobody has used).
  bool created() const { return created_; }
  /// False when read-only and the state file does not exist yet.
  bool exists() const { return exists_; }
  const SessionStats& stats() const { return stats_; }
  /// Real wall time when this process attached: the anchor of the drive's virtual wall clock.
  uint64_t anchor_real_wall_ns() const { return anchor_real_wall_; }
  uint64_t anchor_virtual_ns() const { return anchor_virtual_; }
  /// The drive's virtual wall clock (monotonic across processes: RecordType::Anchor).
  uint64_t wall_ns() const { return wall_offset_ + drive_->now(); }

  /// A read-only session's shared hold (a measurement that only reads): a shared flock on the
  /// state file, kept until the session closes, so a writer (which locks it exclusively) is
  /// refused meanwhile; Refused while a writer holds it. A missing state file holds nothing.
  core::Status hold_shared();
  /// Before a state-changing command of kind `next`: commits the pending record (and maybe
  /// writes a snapshot). A read-only session changes its drive in memory only.
  core::Status begin_change(RecordType next);
  /// Before a cell: like begin_change(Run), and settles a tentative last Run left by a writer
  /// that did not end cleanly (kill -9): when `spec` is that very cell (same spec and seed,
  /// the seed not 0) the host never recorded its result and runs it again, so the record is
  /// dropped and the drive stays as before it; otherwise it is applied. Deterministic replay
  /// makes either side of the kill give the same drive.
  core::Status begin_run(const model::AccessSpec& spec);
  /// Before a multi-job cell: as begin_run, for the job set (sim/host_loop.h SimJob).
  core::Status begin_run_jobs(const std::vector<SimJob>& jobs);
  /// Makes the pending record durable now (a cell's, before its result is handed back, so the
  /// drive is never behind the host's journal).
  core::Status commit_now() { return commit(); }
  // After the command: its record becomes pending.
  void ran(const model::AccessSpec& spec, uint64_t stopped_at_event, double cpu_seconds);
  void ran_jobs(const std::vector<SimJob>& jobs, uint64_t stopped_at_event, double cpu_seconds);
  /// A namespace command ran (its record: the operation, NSID, size or SES).
  void namespace_changed(NamespaceOp op, uint32_t nsid, uint64_t value);
  void idled(uint64_t ns);
  void formatted(uint8_t ses);
  void sanitized(uint8_t sanact, uint32_t cdw10);
  void set_write_cache(bool on);
  void wrote_blocks(uint64_t offset, const std::vector<uint8_t>& data);
  void deallocated(uint64_t offset, uint64_t bytes);

  /// Commits what is pending (and snapshots when the log has grown costly). Called by the
  /// destructor too (errors then go to stderr).
  core::Status close();
  /// Drops what is pending without writing it (the caller removes a state file it created).
  void abandon() { pending_.reset(); closed_ = true; }

  /// Applies one logged record to `drive` (replay); false when it does not decode.
  static bool apply(Drive& drive, RecordType type, const uint8_t* payload, size_t bytes);

 private:
  DriveSession() = default;
  core::Status commit();
  core::Status settle_tentative(bool drop);
  core::Status snapshot();
  double estimated_snapshot_seconds() const;
  void set_pending(RecordType type, std::vector<uint8_t> payload, double cost_seconds);

  SimTarget target_;
  StateHeader header_;
  std::unique_ptr<Drive> drive_;
  std::optional<StateFile> file_;
  int shared_fd_ = -1;  ///< hold_shared()'s descriptor
  bool created_ = false;
  bool exists_ = true;
  bool closed_ = false;
  bool appended_ = false;
  uint64_t wall_offset_ = 0;          ///< virtual wall clock = this + drive time             ///< this process wrote to the log (close() then marks it Closed)
  /// A trailing Run after which the last writer did not close cleanly: held back, not applied.
  std::optional<std::pair<std::vector<uint8_t>, uint64_t>> tentative_;  ///< payload, file offset
  RecordType tentative_type_ = RecordType::Run;  ///< Run or RunJobs
  std::optional<std::pair<RecordType, std::vector<uint8_t>>> pending_;
  double pending_cost_ = 0;
  double backlog_seconds_ = 0;        ///< replay time of the log since the snapshot
  double snapshot_bytes_per_second_ = 250e6;  ///< assumed until a long snapshot measures it
  bool snapshot_due_ = false;         ///< a purge emptied the drive: snapshot at the next commit
  uint64_t anchor_real_wall_ = 0, anchor_virtual_ = 0;
  SessionStats stats_;
};

/// AccessSpec <-> log payload: every field the host loop uses (a field added to AccessSpec
/// that changes what a cell does must be added here, with a kStateFormatVersion bump).
void encode_spec(const model::AccessSpec& spec, ByteWriter& out);
bool decode_spec(ByteReader& in, model::AccessSpec& spec);
/// A job set: the count, then each job's spec, offset and size.
void encode_jobs(const std::vector<SimJob>& jobs, ByteWriter& out);
bool decode_jobs(ByteReader& in, std::vector<SimJob>& jobs);
/// Applies a namespace command to the drive (the controller, and replay); false when it
/// does not apply (no such namespace, no room).
bool apply_namespace_op(Drive& drive, NamespaceOp op, uint32_t nsid, uint64_t value);

}  // namespace pts::sim
