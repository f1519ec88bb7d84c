// results/run_dir.cpp — see run_dir.h.
#include "results/run_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "core/atomic_file.h"
#include "results/codec.h"
#include "results/run_store.h"

namespace pts::results {

namespace {

core::Status trusted(const std::string& path, bool must_exist, bool directory) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (!must_exist && errno == ENOENT) return core::ok_status();
    return core::bad_input(path + ": cannot be examined");
  }
  if (S_ISLNK(st.st_mode) && !directory)
    return core::Error(core::ErrorKind::Refused, "refused: " + path + " is a symbolic link");
  if (directory && S_ISLNK(st.st_mode) && ::stat(path.c_str(), &st) != 0) return core::bad_input(path + ": dangling link");
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
  if (st.st_uid != ::geteuid())
    return core::Error(core::ErrorKind::Refused, "refused: " + path + " belongs to uid " + std::to_string(st.st_uid) +
                                                     ", not to this user (uid " + std::to_string(::geteuid()) +
                                                     "); a run directory someone else can write could steer this "
                                                     "process to another device");
  if (st.st_mode & (S_IWGRP | S_IWOTH))
    return core::Error(core::ErrorKind::Refused, "refused: " + path + " is writable by group or others (mode " + mode +
                                                     "); make it private (chmod go-w) if you trust its content");
  return core::ok_status();
}

}  // namespace

core::Status check_run_dir_trusted(const std::string& run_dir) {
  if (auto st = trusted(run_dir, true, true); !st.ok()) return st;
  if (auto st = trusted(run_dir + "/" + kJournal, false, false); !st.ok()) return st;
  return trusted(run_dir + "/" + kRunJson, false, false);
}

core::Result<bool> rebuild_run_json_if_behind(const std::string& run_dir, const model::RunRecord& replayed) {
  const std::string want = run_record_to_json_text(replayed);
  auto have = core::read_file(run_dir + "/" + kRunJson);
  if (have.ok() && *have == want) return false;
  auto st = core::atomic_write_file(run_dir + "/" + kRunJson, want);
  if (!st.ok()) return st.take_error();
  return true;
}

}  // namespace pts::results
