// core/atomic_file.h — write a file so that readers see either the old or the whole new
// content: temp file in the same directory, fsync, rename, fsync the directory.
// May use: std + POSIX.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace pts::core {

/// Atomically replaces `path` with `content`. BadInput when the directory is missing or not
/// writable (the message names the path); nothing half-written is left behind.
Status atomic_write_file(const std::string& path, std::string_view content);

/// Reads a whole file. BadInput (naming the path) when it cannot be read.
Result<std::string> read_file(const std::string& path);

}  // namespace pts::core
