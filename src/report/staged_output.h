// report/staged_output.h — all-or-nothing output of several files: each is written to a
// temporary file beside its destination, and only when every one is complete are they
// fsync'd and renamed into place. Anything not committed is removed. May use: core, POSIX.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace pts::report {

class StagedOutput {
 public:
  StagedOutput() = default;
  StagedOutput(const StagedOutput&) = delete;
  StagedOutput& operator=(const StagedOutput&) = delete;
  /// Removes every temporary file not committed.
  ~StagedOutput();

  /// Reserves a temporary file for `final_path` (created empty, same directory) and returns
  /// its path, for writers that need a file name (libxlsxwriter). BadInput naming the
  /// directory when it cannot be written.
  core::Result<std::string> reserve(const std::string& final_path);
  /// Stages `content` for `final_path`.
  core::Status stage_text(const std::string& final_path, std::string_view content);
  /// fsyncs and renames every staged file into place; returns the final paths.
  core::Result<std::vector<std::string>> commit();

 private:
  struct Entry {
    std::string temp, final_path;
  };
  std::vector<Entry> entries_;
};

}  // namespace pts::report
