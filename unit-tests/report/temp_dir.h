// unit-tests/report/temp_dir.h — a fresh, empty scratch directory under the build tree for one
// report test (removed and re-created on every call).
#pragma once

#include <filesystem>
#include <string>
#include <unistd.h>

namespace pts::report::testing {

inline std::string temp_dir(const std::string& name) {
  const std::string d = std::string(PTS_BINARY_DIR) + "/report-unit/" + name + "-" + std::to_string(::getpid());
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace pts::report::testing
