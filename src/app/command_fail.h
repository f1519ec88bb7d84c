// app/command_fail.h — how a command ends on an error: each message on stderr as
// "ptsuite COMMAND: message" (every config error at once), then the exit code the caller gives.
// May use: std.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace pts::app {

inline int fail_command(const char* command, const std::vector<std::string>& messages, int code) {
  for (const auto& m : messages) std::fprintf(stderr, "ptsuite %s: %s\n", command, m.c_str());
  return code;
}

}  // namespace pts::app
