// results/journal.cpp — see journal.h.
#include "results/journal.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/atomic_file.h"
#include "results/journal_events.h"
#include "results/run_store.h"

namespace pts::results {

using core::ErrorKind;

namespace {

std::string errno_text(int err) { return std::strerror(err); }

/// One writer per journal: a second `run`/`resume` on the same directory is refused while the
/// first is alive (the lock goes with the process, also on kill -9).
core::Status lock_journal(int fd, const std::string& path) {
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return core::ok_status();
  const int err = errno;
  if (err == EWOULDBLOCK)
    return core::Error(ErrorKind::BadInput, path + ": another ptsuite process is writing this run", err);
  return core::Error(ErrorKind::Internal, path + ": cannot lock the journal (" + errno_text(err) + ")", err);
}

}  // namespace

namespace {

/// Reads all of `fd` from offset 0.
core::Result<std::string> read_all(int fd, const std::string& path) {
  std::string out;
  char buf[1 << 16];
  for (off_t off = 0;;) {
    const ssize_t n = ::pread(fd, buf, sizeof buf, off);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      return core::Error(ErrorKind::BadInput, "cannot read " + path + ": " + errno_text(err), err);
    }
    if (n == 0) return out;
    out.append(buf, static_cast<size_t>(n));
    off += n;
  }
}

core::Result<LoadedJournal> parse_journal(const std::string& s, const std::string& path) {
  LoadedJournal out;
  RecordBuilder builder;
  size_t pos = 0;
  size_t line_no = 0;
  while (pos < s.size()) {
    ++line_no;
    const size_t nl = s.find('\n', pos);
    const std::string origin = path + ":" + std::to_string(line_no);
    if (nl == std::string::npos) {  // last line without its newline: torn write
      out.torn_tail = true;
      out.torn_detail = origin + ": incomplete last line (" + std::to_string(s.size() - pos) +
                        " bytes without a newline) dropped";
      break;
    }
    std::string_view line(s.data() + pos, nl - pos);
    if (line_no == 1 && line.find("\"event\":\"header\"") == std::string_view::npos)
      return core::bad_input(origin + ": the journal does not start with a header event");
    core::Status applied = journal::replay_line(builder, line, origin);
    if (!applied.ok()) {
      if (nl + 1 == s.size()) {  // a garbled final line is treated like a torn one
        out.torn_tail = true;
        out.torn_detail = applied.error().message() + " (last line dropped)";
        break;
      }
      return applied.take_error();
    }
    ++out.events;
    pos = nl + 1;
    out.valid_bytes = pos;
  }
  if (out.events == 0) return core::bad_input(path + ": the journal holds no complete event");
  out.record = std::move(builder.record());
  return out;
}

/// Opens RUNDIR/journal.jsonl (never through a symlink) and locks it: exclusively for a
/// writer, shared for a reader; both fail at once while another process holds it exclusively.
core::Result<int> open_locked(const std::string& run_dir, bool writer) {
  struct stat st {};
  if (::stat(run_dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return core::bad_input(run_dir + ": no such run directory");
  const std::string path = run_dir + "/" + kJournal;
  const int fd = ::open(path.c_str(), (writer ? O_RDWR | O_APPEND : O_RDONLY) | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    if (err == ELOOP) return core::Error(ErrorKind::Refused, path + " is a symbolic link: refused", err);
    return core::Error(ErrorKind::BadInput, run_dir + ": no " + kJournal + " (not a run directory)", err);
  }
  if (::flock(fd, (writer ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0) {
    const int err = errno;
    ::close(fd);
    if (err == EWOULDBLOCK)
      return core::Error(ErrorKind::BadInput, path + ": another ptsuite process is writing this run", err);
    return core::Error(ErrorKind::Internal, path + ": cannot lock the journal (" + errno_text(err) + ")", err);
  }
  return fd;
}

}  // namespace

core::Result<LoadedJournal> load_journal(const std::string& run_dir) {
  struct stat st {};
  if (::stat(run_dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return core::bad_input(run_dir + ": no such run directory");
  const std::string path = run_dir + "/" + kJournal;
  auto text = core::read_file(path);
  if (!text.ok()) return core::bad_input(run_dir + ": no " + kJournal + " (not a run directory)");
  return parse_journal(*text, path);
}

core::Result<LoadedJournal> load_journal_shared(const std::string& run_dir) {
  auto fd = open_locked(run_dir, /*writer=*/false);
  if (!fd.ok()) return fd.take_error();
  const std::string path = run_dir + "/" + kJournal;
  auto text = read_all(*fd, path);
  ::close(*fd);  // the lock goes with it; what was read is a consistent prefix
  if (!text.ok()) return text.take_error();
  return parse_journal(*text, path);
}

JournalSink::JournalSink(std::string run_dir, int fd, model::RunRecord start)
    : run_dir_(std::move(run_dir)), path_(run_dir_ + "/" + kJournal), fd_(fd),
      mirror_(std::move(start)), writer_(run_dir_) {}

JournalSink::~JournalSink() {
  (void)writer_.flush();
  if (fd_ >= 0) ::close(fd_);
}

core::Result<std::unique_ptr<JournalSink>> JournalSink::create(const std::string& run_dir) {
  const std::string path = run_dir + "/" + kJournal;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    return core::Error(ErrorKind::BadInput, path + ": cannot create the journal (" + errno_text(err) + ")", err);
  }
  if (auto locked = lock_journal(fd, path); !locked.ok()) {
    ::close(fd);
    return locked.take_error();
  }
  return std::unique_ptr<JournalSink>(new JournalSink(run_dir, fd, {}));
}

core::Result<std::unique_ptr<JournalSink>> JournalSink::reopen(const std::string& run_dir,
                                                                const LoadedJournal& loaded) {
  const std::string path = run_dir + "/" + kJournal;
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    return core::Error(ErrorKind::BadInput, path + ": cannot open the journal (" + errno_text(err) + ")", err);
  }
  if (auto locked = lock_journal(fd, path); !locked.ok()) {
    ::close(fd);
    return locked.take_error();
  }
  if (::ftruncate(fd, static_cast<off_t>(loaded.valid_bytes)) != 0 || ::fdatasync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    return core::Error(ErrorKind::Internal, path + ": cannot cut the torn tail (" + errno_text(err) + ")", err);
  }
  return std::unique_ptr<JournalSink>(new JournalSink(run_dir, fd, loaded.record));
}

core::Result<ResumableJournal> JournalSink::resume(const std::string& run_dir) {
  auto fd = open_locked(run_dir, /*writer=*/true);  // the lock first: nobody appends while we read
  if (!fd.ok()) return fd.take_error();
  const std::string path = run_dir + "/" + kJournal;
  auto text = read_all(*fd, path);
  if (!text.ok()) {
    ::close(*fd);
    return text.take_error();
  }
  auto loaded = parse_journal(*text, path);
  if (!loaded.ok()) {
    ::close(*fd);
    return loaded.take_error();
  }
  if (::ftruncate(*fd, static_cast<off_t>(loaded->valid_bytes)) != 0 || ::fdatasync(*fd) != 0) {
    const int err = errno;
    ::close(*fd);
    return core::Error(ErrorKind::Internal, path + ": cannot cut the torn tail (" + errno_text(err) + ")", err);
  }
  ResumableJournal out;
  out.sink = std::unique_ptr<JournalSink>(new JournalSink(run_dir, *fd, loaded->record));
  out.loaded = std::move(loaded.value());
  return out;
}

core::Status JournalSink::append(const std::string& line) {
  size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      return core::Error(ErrorKind::Internal, path_ + ": journal write failed (" + errno_text(err) + ")", err);
    }
    done += static_cast<size_t>(n);
  }
  while (::fdatasync(fd_) != 0) {
    if (errno == EINTR) continue;
    const int err = errno;
    return core::Error(ErrorKind::Internal, path_ + ": journal fdatasync failed (" + errno_text(err) + ")", err);
  }
  return core::ok_status();
}

void JournalSink::post_snapshot() {
  writer_.post(std::make_shared<const model::RunRecord>(mirror_.record()));
}

core::Status JournalSink::begin(const model::RunRecord& header) {
  auto st = append(journal::header_line(header));
  if (!st.ok()) return st;
  (void)mirror_.begin(header);
  post_snapshot();
  return writer_.flush();  // run.json exists from the start
}

core::Status JournalSink::transition(const model::Transition& t) {
  auto st = append(journal::transition_line(t));
  if (!st.ok()) return st;
  return mirror_.transition(t);
}

core::Status JournalSink::purge(size_t subtest, const model::PurgeRecord& record) {
  auto st = append(journal::purge_line(subtest, record));
  if (!st.ok()) return st;
  return mirror_.purge(subtest, record);
}

core::Status JournalSink::precondition(size_t subtest, const model::PreconditionRecord& record) {
  auto st = append(journal::precondition_line(subtest, record));
  if (!st.ok()) return st;
  st = mirror_.precondition(subtest, record);
  post_snapshot();
  return st;
}

core::Status JournalSink::cell(size_t subtest, uint32_t round, const model::CellResult& result) {
  auto st = append(journal::cell_line(subtest, round, result));
  if (!st.ok()) return st;
  return mirror_.cell(subtest, round, result);
}

core::Status JournalSink::round_end(size_t subtest, const model::RoundRecord& round) {
  auto st = append(journal::round_end_line(subtest, round));
  if (!st.ok()) return st;
  st = mirror_.round_end(subtest, round);
  post_snapshot();
  return st;
}

core::Status JournalSink::subtest_end(size_t subtest, const model::SubTestRecord& summary) {
  auto st = append(journal::subtest_end_line(subtest, summary));
  if (!st.ok()) return st;
  st = mirror_.subtest_end(subtest, summary);
  post_snapshot();
  return st;
}

core::Status JournalSink::deviation(const model::Deviation& d) {
  auto st = append(journal::deviation_line(d));
  if (!st.ok()) return st;
  return mirror_.deviation(d);
}

core::Status JournalSink::finish(const model::RunRecord& record) {
  auto st = append(journal::finish_line(record));
  if (!st.ok()) return st;
  (void)mirror_.finish(record);
  auto flushed = writer_.flush();
  auto saved = save_run_json(record, run_dir_);
  if (!saved.ok()) return saved;
  return flushed;
}

}  // namespace pts::results
