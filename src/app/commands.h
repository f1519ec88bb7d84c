// app/commands.h — one function per CLI command. Each parses its own arguments, prints,
// and returns the process exit code (design.md CLI contract). May use: every module.
#pragma once

#include <string>
#include <vector>

namespace pts::app {

using Args = std::vector<std::string>;  ///< arguments after the command name

int cmd_list(const Args& args);
int cmd_info(const Args& args);
int cmd_spec(const Args& args);
int cmd_purge(const Args& args);
int cmd_run(const Args& args);
int cmd_resume(const Args& args);
int cmd_report(const Args& args);
int cmd_analyze(const Args& args);
int cmd_plan(const Args& args);

/// "ptsuite 0.1.0 (git abc123)".
std::string version_string();

}  // namespace pts::app
