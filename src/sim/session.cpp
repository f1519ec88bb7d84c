// sim/session.cpp — see session.h.
#include "sim/session.h"

#include <sys/stat.h>
#include <cstring>
#include <unistd.h>
#include <sys/file.h>
#include <fcntl.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "core/clock.h"
#include "sim/host_loop.h"

namespace pts::sim {

namespace {

/// Replay a log may hold before a snapshot, however cheap the snapshot (see commit()).
constexpr double kMinBacklogSeconds = 10.0;

void snapshot_fn(void* ctx, ByteWriter& out) { static_cast<const Drive*>(ctx)->save(out); }

double seconds_since(uint64_t t0) { return static_cast<double>(core::monotonic_ns() - t0) / 1e9; }

std::string make_serial(uint64_t salt) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "SIM-%012llX", static_cast<unsigned long long>(salt & 0xFFFFFFFFFFFFull));
  return buf;
}

StateHeader header_for(const SimParams& p, uint64_t salt) {
  StateHeader h;
  h.canonical = canonical(p);
  h.values = all_values(p);
  h.salt = salt;
  h.serial = make_serial(salt);
  h.created_wall_ns = core::wall_ns();
  return h;
}

core::Error mismatch(const SimTarget& t, const StateHeader& h) {
  const std::string& path = t.state_path;
  const std::string file_profile = h.canonical.substr(0, h.canonical.find(','));
  if (file_profile != t.params.profile)
    return core::bad_input("state file " + path + " holds a simulated drive of profile '" + file_profile + "' (" +
                           h.canonical + "), not '" + t.params.profile + "'; name it sim:" + h.canonical + "@" + path +
                           " or use another state file");
  std::string diffs;
  const auto want = all_values(t.params);
  for (const auto& [k, v] : want) {
    std::string have = "(missing)";
    for (const auto& [hk, hv] : h.values)
      if (hk == k) have = hv;
    if (have != v) diffs += (diffs.empty() ? "" : ", ") + k + " is " + have + " in the file, " + v + " in the target";
  }
  return core::bad_input("state file " + path + " holds the simulated drive " + h.canonical +
                         ", which differs from the target (" + diffs + "); name it sim:" + h.canonical + "@" + path +
                         " or use another state file");
}

}  // namespace

void encode_spec(const model::AccessSpec& s, ByteWriter& w) {
  // Bit 0: sequential; bit 1: the non-read I/Os deallocate (a trim workload); bit 2: random
  // arrivals (their process follows the seed). A spec without trim or random arrivals encodes
  // as before, so earlier logs and the pinned digests read the same.
  const bool arrivals = s.arrival != model::Arrival::Fixed;
  w.u8((s.pattern == model::AccessPattern::Sequential ? 1 : 0) | (s.trim ? 2 : 0) | (arrivals ? 4 : 0));
  w.u32(s.read_pct);
  w.u32(s.block_bytes);
  w.u32(static_cast<uint32_t>(s.bs_split.size()));
  for (const auto& b : s.bs_split) {
    w.u32(b.bytes);
    w.u32(b.percent);
  }
  w.u32(s.threads);
  w.u32(s.queue_depth);
  w.f64(s.seconds);
  w.u64(s.bytes_limit);
  w.f64(s.active_range_pct);
  w.u32(static_cast<uint32_t>(s.zones.size()));
  for (const auto& z : s.zones) {
    w.u32(z.io_pct);
    w.f64(z.range_pct);
  }
  w.u32(s.ar_segments.count);
  w.u64(s.ar_segments.segment_bytes);
  w.u32(s.ar_segments.align_bytes);
  w.u64(s.ar_segments.seed);
  w.u32(static_cast<uint32_t>(s.stream_start_bytes.size()));
  for (uint64_t b : s.stream_start_bytes) w.u64(b);
  w.u64(s.rate_iops);
  w.u64(s.seed);
  if (arrivals) w.u8(static_cast<uint8_t>(s.arrival));
}

bool decode_spec(ByteReader& r, model::AccessSpec& s) {
  const uint8_t kind = r.u8();
  if (kind > 7) return false;
  s.pattern = kind & 1 ? model::AccessPattern::Sequential : model::AccessPattern::Random;
  s.trim = kind & 2;
  s.read_pct = r.u32();
  s.block_bytes = r.u32();
  const uint32_t n = r.u32();
  if (n > 100) return false;
  s.bs_split.clear();
  for (uint32_t i = 0; i < n; ++i) {
    model::BlockSizeShare b;
    b.bytes = r.u32();
    b.percent = r.u32();
    s.bs_split.push_back(b);
  }
  s.threads = r.u32();
  s.queue_depth = r.u32();
  s.seconds = r.f64();
  s.bytes_limit = r.u64();
  s.active_range_pct = r.f64();
  const uint32_t zones = r.u32();
  if (zones > 100) return false;
  s.zones.clear();
  for (uint32_t i = 0; i < zones; ++i) {
    model::AccessZone z;
    z.io_pct = r.u32();
    z.range_pct = r.f64();
    s.zones.push_back(z);
  }
  s.ar_segments.count = r.u32();
  s.ar_segments.segment_bytes = r.u64();
  s.ar_segments.align_bytes = r.u32();
  s.ar_segments.seed = r.u64();
  const uint32_t streams = r.u32();
  if (streams > (1u << 20)) return false;
  s.stream_start_bytes.clear();
  for (uint32_t i = 0; i < streams && !r.failed(); ++i) s.stream_start_bytes.push_back(r.u64());
  s.rate_iops = r.u64();
  s.seed = r.u64();
  s.arrival = model::Arrival::Fixed;
  if (kind & 4) {
    const uint8_t a = r.u8();
    if (a < 1 || a > 2) return false;
    s.arrival = static_cast<model::Arrival>(a);
  }
  return !r.failed();
}

void encode_jobs(const std::vector<SimJob>& jobs, ByteWriter& w) {
  w.u32(static_cast<uint32_t>(jobs.size()));
  for (const SimJob& j : jobs) {
    encode_spec(j.spec, w);
    w.u64(j.offset_bytes);
    w.u64(j.size_bytes);
  }
}

bool decode_jobs(ByteReader& r, std::vector<SimJob>& jobs) {
  const uint32_t n = r.u32();
  if (r.failed() || n == 0 || n > 4096) return false;
  jobs.resize(n);
  for (SimJob& j : jobs) {
    if (!decode_spec(r, j.spec)) return false;
    j.offset_bytes = r.u64();
    j.size_bytes = r.u64();
  }
  return !r.failed();
}

bool apply_namespace_op(Drive& drive, NamespaceOp op, uint32_t nsid, uint64_t value) {
  switch (op) {
    case NamespaceOp::Delete: return drive.delete_namespace(nsid);
    case NamespaceOp::Create: return drive.create_namespace(value) == nsid;
    case NamespaceOp::Attach: return drive.attach_namespace(nsid, true);
    case NamespaceOp::Detach: return drive.attach_namespace(nsid, false);
    case NamespaceOp::Format: {
      const NamespaceExtent* n = drive.find_namespace(nsid);
      if (!n) return false;
      drive.unmap_range(n->offset_bytes, n->size_bytes);
      return true;
    }
  }
  return false;
}

core::Result<std::shared_ptr<DriveSession>> DriveSession::open(const SimTarget& target, bool writable) {
  std::shared_ptr<DriveSession> s(new DriveSession);
  s->target_ = target;
  const std::string& path = target.state_path;
  struct stat st {};
  bool exists = ::stat(path.c_str(), &st) == 0;
  if (!exists && writable) {
    std::random_device rd;
    uint64_t salt = 0;
    while (salt == 0) salt = (uint64_t(rd()) << 32) ^ rd() ^ core::wall_ns();
    s->header_ = header_for(target.params, salt);
    s->drive_ = std::make_unique<Drive>(target.params, salt);
    auto f = StateFile::create(path, s->header_, &snapshot_fn, s->drive_.get());
    if (f.ok()) {
      s->file_ = std::move(f.value());
      s->created_ = true;
    } else if (::stat(path.c_str(), &st) == 0) {
      exists = true;  // another process created it meanwhile: open that one
    } else {
      return f.error();
    }
  }
  if (!exists && !writable) {
    s->header_ = header_for(target.params, 0);
    s->header_.serial = "SIM-NOT-CREATED";
    s->drive_ = std::make_unique<Drive>(target.params, 0);
    s->exists_ = false;
  }
  if (exists && !s->created_) {
    const uint64_t t0 = core::monotonic_ns();
    std::optional<StateFile> file;
    if (writable) {
      auto f = StateFile::open_locked(path);
      if (!f.ok()) return f.error();
      file = std::move(f.value());
    }
    auto img = read_state_file(path, file ? file->fd() : -1);
    if (!img.ok()) return img.error();
    bool same = img->header.values == all_values(target.params);
    if (!same) return mismatch(target, img->header);
    s->header_ = img->header;
    s->drive_ = std::make_unique<Drive>(target.params, s->header_.salt);
    ByteReader r(img->snapshot, img->snapshot_bytes);
    r.release_behind();  // the file's pages leave memory as the tables fill
    if (!s->drive_->load(r) || !r.done())
      return core::bad_input("state file " + path + ": corrupted (the snapshot does not decode)");
    s->stats_.load_seconds = seconds_since(t0);
    const uint64_t t1 = core::monotonic_ns();
    size_t n = img->records.size();
    // A trailing Run with no clean close after it: the host may not have recorded its result.
    if (n > 0 && (img->records[n - 1].type == RecordType::Run || img->records[n - 1].type == RecordType::RunJobs)) {
      const LogRecord& last = img->records[n - 1];
      s->tentative_type_ = last.type;
      s->tentative_ = std::make_pair(std::vector<uint8_t>(last.payload, last.payload + last.bytes), last.file_offset);
      --n;
    }
    s->wall_offset_ = img->header.wall_offset_ns;
    for (size_t i = 0; i < n; ++i) {
      const LogRecord& rec = img->records[i];
      if (rec.type == RecordType::Anchor && rec.bytes == 8) {
        ByteReader a(rec.payload, rec.bytes);
        s->wall_offset_ = std::max(s->wall_offset_, a.u64());
      }
      if (!apply(*s->drive_, rec.type, rec.payload, rec.bytes))
        return core::bad_input("state file " + path + ": corrupted (log record " + std::to_string(i + 1) +
                               " does not replay)");
    }
    s->stats_.records_replayed = img->records.size();
    s->stats_.replay_seconds = seconds_since(t1);
    s->backlog_seconds_ = s->stats_.replay_seconds;
    if (file && img->torn_tail) {
      if (auto t = file->truncate_to(img->good_end); !t.ok()) return t.error();
      s->stats_.dropped_torn_tail = true;
    }
    s->file_ = std::move(file);
    // A read-only view (info, plan) shows the drive with everything written to it.
    if (!s->file_ && s->tentative_) {
      if (!apply(*s->drive_, s->tentative_type_, s->tentative_->first.data(), s->tentative_->first.size()))
        return core::bad_input("state file " + path + ": corrupted (the last log record does not replay)");
      s->tentative_.reset();
    }
  }
  // The virtual wall clock starts at real time now, unless an earlier process already stamped
  // later times: then it goes on from there (wall = offset + virtual time, offset never falls).
  const uint64_t real = core::wall_ns(), v = s->drive_->now();
  s->wall_offset_ = std::max(s->wall_offset_, real > v ? real - v : 0);
  s->anchor_real_wall_ = core::wall_ns();
  s->anchor_virtual_ = s->drive_->now();
  return s;
}

DriveSession::~DriveSession() {
  if (!closed_) (void)close();
  if (shared_fd_ >= 0) ::close(shared_fd_);
}

core::Status DriveSession::hold_shared() {
  if (file_ || shared_fd_ >= 0 || !exists_) return core::ok_status();
  const std::string& path = target_.state_path;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return core::bad_input("state file " + path + ": " + std::strerror(errno));
  if (::flock(fd, LOCK_SH | LOCK_NB) != 0) {
    const int err = errno;
    ::close(fd);
    return core::Error(core::ErrorKind::Refused,
                       "refused: the simulated drive " + path + " is in use by a process that writes it (its state "
                       "file is locked); nothing was read",
                       err);
  }
  shared_fd_ = fd;
  return core::ok_status();
}

core::Status DriveSession::begin_change(RecordType) {
  if (!file_) return core::ok_status();  // read-only: changes stay in memory
  if (auto st = settle_tentative(false); !st.ok()) return st;
  return commit();
}

core::Status DriveSession::begin_run(const model::AccessSpec& spec) {
  if (!file_) return core::ok_status();
  if (tentative_ && spec.seed != 0) {
    ByteWriter w;
    encode_spec(spec, w);
    const auto& t = tentative_->first;
    // The record is the spec's encoding followed by the event it stopped at.
    const bool same = tentative_type_ == RecordType::Run && t.size() == w.size() + 8 &&
                      std::equal(w.bytes().begin(), w.bytes().end(), t.begin());
    if (auto st = settle_tentative(same); !st.ok()) return st;
  }
  return begin_change(RecordType::Run);
}

core::Status DriveSession::begin_run_jobs(const std::vector<SimJob>& jobs) {
  if (!file_) return core::ok_status();
  const bool seeded = std::all_of(jobs.begin(), jobs.end(), [](const SimJob& j) { return j.spec.seed != 0; });
  if (tentative_ && seeded) {
    ByteWriter w;
    encode_jobs(jobs, w);
    const auto& t = tentative_->first;
    const bool same = tentative_type_ == RecordType::RunJobs && t.size() == w.size() + 8 &&
                      std::equal(w.bytes().begin(), w.bytes().end(), t.begin());
    if (auto st = settle_tentative(same); !st.ok()) return st;
  }
  return begin_change(RecordType::RunJobs);
}

core::Status DriveSession::settle_tentative(bool drop) {
  if (!tentative_) return core::ok_status();
  auto t = std::move(*tentative_);
  tentative_.reset();
  if (drop) return file_->truncate_to(t.second);  // the cell runs again, from the drive before it
  if (!apply(*drive_, tentative_type_, t.first.data(), t.first.size()))
    return core::bad_input("state file " + target_.state_path + ": corrupted (the last log record does not replay)");
  return core::ok_status();
}

void DriveSession::set_pending(RecordType type, std::vector<uint8_t> payload, double cost) {
  pending_ = std::make_pair(type, std::move(payload));
  pending_cost_ = cost;
}

void DriveSession::ran(const model::AccessSpec& spec, uint64_t stopped_at_event, double cpu_seconds) {
  ByteWriter w;
  encode_spec(spec, w);
  w.u64(stopped_at_event);
  set_pending(RecordType::Run, std::move(w.bytes()), cpu_seconds);
}

void DriveSession::ran_jobs(const std::vector<SimJob>& jobs, uint64_t stopped_at_event, double cpu_seconds) {
  ByteWriter w;
  encode_jobs(jobs, w);
  w.u64(stopped_at_event);
  set_pending(RecordType::RunJobs, std::move(w.bytes()), cpu_seconds);
}

void DriveSession::namespace_changed(NamespaceOp op, uint32_t nsid, uint64_t value) {
  snapshot_due_ = op == NamespaceOp::Delete || op == NamespaceOp::Format;
  ByteWriter w;
  w.u8(static_cast<uint8_t>(op));
  w.u32(nsid);
  w.u64(value);
  set_pending(RecordType::Namespace, std::move(w.bytes()), 0);
}

void DriveSession::idled(uint64_t ns) {
  ByteWriter w;
  w.u64(ns);
  set_pending(RecordType::Idle, std::move(w.bytes()), 0);
}

double DriveSession::estimated_snapshot_seconds() const {
  // Mapped pages cost a mapping and a reverse-map entry each (unmapped runs compress away).
  const double bytes = double(drive_->ftl().mapped_pages()) * 8.0 + 65536.0;
  return bytes / snapshot_bytes_per_second_;
}

void DriveSession::formatted(uint8_t ses) {
  snapshot_due_ = true;
  ByteWriter w;
  w.u8(ses);
  set_pending(RecordType::Format, std::move(w.bytes()), 0);
}

void DriveSession::sanitized(uint8_t sanact, uint32_t cdw10) {
  snapshot_due_ = true;
  ByteWriter w;
  w.u8(sanact);
  w.u32(cdw10);
  set_pending(RecordType::Sanitize, std::move(w.bytes()), 0);
}

void DriveSession::set_write_cache(bool on) {
  ByteWriter w;
  w.u8(on ? 1 : 0);
  set_pending(RecordType::SetWriteCache, std::move(w.bytes()), 0);
}

void DriveSession::wrote_blocks(uint64_t offset, const std::vector<uint8_t>& data) {
  ByteWriter w;
  w.u64(offset);
  w.u32(static_cast<uint32_t>(data.size()));
  w.raw(data.data(), data.size());
  set_pending(RecordType::BlockWrite, std::move(w.bytes()), 0);
}

void DriveSession::deallocated(uint64_t offset, uint64_t bytes) {
  ByteWriter w;
  w.u64(offset);
  w.u64(bytes);
  set_pending(RecordType::Deallocate, std::move(w.bytes()), 0);
}

core::Status DriveSession::commit() {
  if (!file_) return core::ok_status();
  if (pending_) {
    const uint64_t t0 = core::monotonic_ns();
    if (!appended_) {  // this process's clock anchor, before its first change
      ByteWriter a;
      a.u64(wall_offset_);
      if (auto st = file_->append(RecordType::Anchor, a.bytes()); !st.ok()) return st;
      appended_ = true;
    }
    auto st = file_->append(pending_->first, pending_->second);
    if (!st.ok()) return st;
    ++stats_.checkpoints;
    stats_.checkpoint_seconds += seconds_since(t0);
    backlog_seconds_ += pending_cost_;
    pending_.reset();
    pending_cost_ = 0;
  }
  // Ski rental: a snapshot once replaying the log would take twice as long as writing one
  // (so snapshots cost at most half the simulation time) but not before kMinBacklogSeconds
  // of replay have built up (so a small drive does not rewrite its state every few cells).
  // After a purge the drive is nearly empty: its snapshot is tiny and drops the whole log.
  const double est = estimated_snapshot_seconds();
  if (snapshot_due_ || backlog_seconds_ > std::max(2 * est, kMinBacklogSeconds)) return snapshot();
  return core::ok_status();
}

core::Status DriveSession::snapshot() {
  const uint64_t t0 = core::monotonic_ns();
  header_.wall_offset_ns = wall_offset_;
  auto st = file_->rewrite(header_, &snapshot_fn, drive_.get());
  if (!st.ok()) return st;
  const double dt = seconds_since(t0);
  ++stats_.snapshots;
  stats_.snapshot_seconds += dt;
  const double bytes = double(drive_->ftl().mapped_pages()) * 8.0 + 65536.0;
  if (dt > 0.05) snapshot_bytes_per_second_ = bytes / dt;  // short ones measure mostly fsync
  backlog_seconds_ = 0;
  snapshot_due_ = false;
  return core::ok_status();
}

core::Status DriveSession::close() {
  closed_ = true;
  if (tentative_) return core::ok_status();  // nothing changed since opening: nothing to write
  if (auto st = commit(); !st.ok()) return st;
  // A clean end: the last Run is final. A process that changed nothing leaves the file as it was.
  if (file_ && appended_) return file_->append(RecordType::Closed, {});
  return core::ok_status();
}

bool DriveSession::apply(Drive& drive, RecordType type, const uint8_t* payload, size_t bytes) {
  ByteReader r(payload, bytes);
  switch (type) {
    case RecordType::Run: {
      model::AccessSpec spec;
      if (!decode_spec(r, spec)) return false;
      const uint64_t stop = r.u64();
      if (r.failed() || !r.done()) return false;
      return run_workload(drive, spec, nullptr, {}, stop, nullptr).ok();
    }
    case RecordType::RunJobs: {
      std::vector<SimJob> jobs;
      if (!decode_jobs(r, jobs)) return false;
      const uint64_t stop = r.u64();
      if (r.failed() || !r.done()) return false;
      return run_jobs_workload(drive, jobs, nullptr, {}, stop, nullptr).ok();
    }
    case RecordType::Namespace: {
      const uint8_t op = r.u8();
      const uint32_t nsid = r.u32();
      const uint64_t value = r.u64();
      if (r.failed() || !r.done()) return false;
      return apply_namespace_op(drive, static_cast<NamespaceOp>(op), nsid, value);
    }
    case RecordType::Anchor: {
      const uint64_t offset = r.u64();
      if (r.failed()) return false;
      (void)offset;  // read at open (the anchors in the log), nothing in the drive
      return true;
    }
    case RecordType::Closed:
      return true;
    case RecordType::Idle: {
      const uint64_t ns = r.u64();
      if (r.failed()) return false;
      drive.idle(ns);
      return true;
    }
    case RecordType::Format: {
      const uint8_t ses = r.u8();
      if (r.failed() || ses > 2) return false;
      drive.format(ses);
      return true;
    }
    case RecordType::Sanitize: {
      const uint8_t act = r.u8();
      const uint32_t cdw10 = r.u32();
      if (r.failed() || (act != 2 && act != 4)) return false;
      drive.start_sanitize(act, cdw10);
      return true;
    }
    case RecordType::SetWriteCache: {
      const uint8_t on = r.u8();
      if (r.failed()) return false;
      drive.set_vwc(on != 0);
      return true;
    }
    case RecordType::BlockWrite: {
      const uint64_t off = r.u64();
      const uint32_t n = r.u32();
      if (r.failed() || n > r.left()) return false;
      std::vector<uint8_t> data(r.here(), r.here() + n);
      return drive.write_blocks(off, data) || true;
    }
    case RecordType::Deallocate: {
      const uint64_t off = r.u64(), n = r.u64();
      if (r.failed() || !r.done() || off + n > drive.capacity_bytes() || off + n < off) return false;
      const uint64_t done = drive.submit_trim(drive.now(), off, n);
      if (done != Drive::kFailed) drive.advance_to(done);
      return true;
    }
  }
  return false;
}

}  // namespace pts::sim
