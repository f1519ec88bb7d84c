// core/atomic_file.h — write a file so that readers see either the old or the whole new
// content: temp file in the same directory (mkostemp: a fresh name, O_EXCL, never a symlink
// to follow), fsync, rename, fsync the directory (whose failure is an error, not ignored).
// May use: std + POSIX.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace pts::core {

/// Atomically replaces `path` with `content`. BadInput when the directory is missing or not
/// writable (the message names the path); nothing half-written is left behind.
Status atomic_write_file(const std::string& path, std::string_view content);

/// fsyncs directory `dir` (so an entry created or renamed in it is durable). Io on failure.
Status fsync_directory(const std::string& dir);

/// Creates `dir` and any missing parents (mode 0755 before the umask) and fsyncs each new
/// entry into its parent, so a run directory survives a crash right after its creation.
/// BadInput when it cannot be created; Io when a directory fsync fails.
Status create_directories_durable(const std::string& dir);

/// Reads a whole file. BadInput (naming the path) when it cannot be read.
Result<std::string> read_file(const std::string& path);

}  // namespace pts::core
