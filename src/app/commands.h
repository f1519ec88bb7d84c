// app/commands.h — one function per CLI command. Each takes its options as the command line
// gave them (app/command_args.h), checks them, prints, and returns the process exit code
// (design.md CLI contract). May use: every module.
#pragma once

#include <string>

#include "app/command_args.h"

namespace pts::app {

int cmd_list(const ListArgs& args);
int cmd_info(const InfoArgs& args);
int cmd_spec(const SpecArgs& args);
int cmd_purge(const PurgeArgs& args);
int cmd_namespaces(const NamespacesArgs& args);
int cmd_run(const RunArgs& args);
/// `run` with several targets: the drives in lockstep (cmd_run_multi.cpp).
int cmd_run_multi(const RunArgs& args);
/// `resume ROOT` of a multi-drive run: every unfinished drive, in lockstep (cmd_resume_multi.cpp).
int cmd_resume_multi(const ResumeArgs& args);
int cmd_resume(const ResumeArgs& args);
int cmd_report(const ReportArgs& args);
int cmd_analyze(const AnalyzeArgs& args);
int cmd_plan(const PlanArgs& args);
int cmd_compare(const CompareArgs& args);
int cmd_check(const CheckArgs& args);

/// "ptsuite 0.1.0 (git abc123)".
std::string version_string();

}  // namespace pts::app
