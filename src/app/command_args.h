// app/command_args.h — ptsuite's command line: its commands, and each command's options in
// one struct, as typed (strings; each command checks its values so every problem is named at
// once). define_commands() defines them all on one CLI11 app from the same tables the help,
// the man page and the bash completion are made from (run options: config/run_options.h;
// access-spec options: app/access_options.h). Nothing here touches a target.
// May use: CLI11, config (run options, operator fields), app/access_options.h, app/cli.h.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/access_options.h"
#include "app/cli.h"
#include "config/operator_fields.h"

namespace pts::app {

/// The parser's problems for the command (unknown options, extra arguments, a missing value),
/// reported with the command's own.
struct ParseProblems {
  std::vector<std::string> errors;
};

/// Run options as typed: (flag, value) in the order given ("" for a switch); config::set_run_option checks them.
using RunOptionArgs = std::vector<std::pair<std::string, std::string>>;

/// --format, --no-report, --quiet (run, resume).
struct SessionArgs {
  std::optional<std::string> format;
  bool no_report = false;
  bool quiet = false;
};

struct ListArgs : ParseProblems {
  bool names = false;  ///< --names: one test name per line (scripts, completion)
};

struct InfoArgs : ParseProblems {
  std::string target;
  bool json = false, sources = false;
};

struct SpecArgs : ParseProblems {
  std::string target;
  /// Further targets: one job per target, all in one cell (model/job.h), measured together.
  std::vector<std::string> more_targets;
  bool allow_overlap = false;  ///< --allow-overlap: jobs may share LBAs of a target where one writes
  AccessArgs access;  ///< the access-spec options
  std::optional<std::string> confirm;
  bool force_signatures = false, json = false;
};

struct PurgeArgs : ParseProblems {
  std::string target;
  std::optional<std::string> confirm, purge;
  bool accept_purge_failure = false, force_signatures = false, json = false;
};

struct NamespacesArgs : ParseProblems {
  std::string target;
  std::optional<std::string> create, size, confirm;
  bool force_signatures = false, json = false;
};

struct RunArgs : ParseProblems {
  std::string test, target;  ///< "" = not given (no TARGET: the demo target)
  /// Further targets: the test runs on every drive in lockstep (app/cmd_run_multi.cpp).
  std::vector<std::string> more_targets;
  std::optional<std::string> out, confirm, size;
  std::vector<std::string> confirms;  ///< every --confirm value in order (confirm: the last)
  bool force_signatures = false;
  RunOptionArgs run_options;
  config::OperatorFieldArgs operator_fields;  ///< --meta, --lab
  SessionArgs session;
  std::vector<std::string> words;  ///< the command line after "ptsuite", for the record
};

struct ResumeArgs : ParseProblems {
  std::string run_dir;
  std::optional<std::string> confirm;
  bool force_signatures = false;
  SessionArgs session;
};

struct ReportArgs : ParseProblems {
  std::string run_dir;
  std::optional<std::string> format, out;
  bool pdf_raw = false;                       ///< --pdf-raw
  config::OperatorFieldArgs operator_fields;  ///< --meta, --lab
};

struct AnalyzeArgs : ParseProblems {
  std::string series;
  std::optional<std::string> window;
  bool json = false;
};

struct CompareArgs : ParseProblems {
  std::vector<std::string> run_dirs;
  std::optional<std::string> baseline, out;
  bool allow_mismatch = false;
};

struct CheckArgs : ParseProblems {
  std::vector<std::string> run_dirs;
  std::optional<std::string> spec, out;
  bool json = false;
};

struct PlanArgs : ParseProblems {
  std::string test, target;
  RunOptionArgs run_options;
  std::optional<std::string> capacity, lba_size, wipc_mbps;
  bool json = false;
};

/// One struct per command; parsing fills the chosen command's.
struct CommandArgs {
  ListArgs list;
  InfoArgs info;
  SpecArgs spec;
  PurgeArgs purge;
  NamespacesArgs namespaces;
  RunArgs run;
  ResumeArgs resume;
  ReportArgs report;
  AnalyzeArgs analyze;
  PlanArgs plan;
  CompareArgs compare;
  CheckArgs check;

  /// The parser's problems of command `name`.
  std::vector<std::string>& problems(const std::string& name);
};

/// The built-in demo target of `run` without TARGET, unless PTSUITE_DEMO_TARGET names another.
inline constexpr const char* kDemoTarget = "sim:demo";

/// The commands, in the order `ptsuite --help` lists them.
const std::vector<cli::CommandText>& command_texts();
const cli::CommandText* command_text(const std::string& name);

/// What `ptsuite --help` says before and after the list of commands.
extern const char* const kToolAbout;
extern const char* const kToolNotes;

/// Defines ptsuite and its commands on `root`, bound to `args`.
void define_commands(CLI::App& root, CommandArgs& args);

/// `ptsuite --help`: usage, the commands with their summaries, the tool's options, exit codes.
std::string tool_help(const CLI::App& root);

/// A parsed command line: the app with its commands, every command's struct and the outcome.
struct CommandLine {
  CLI::App root;
  CommandArgs args;
  cli::Parsed parsed;
};

/// Parses `words` (after the program name), see cli::parse. The parser's problems go to the
/// chosen command's struct (CommandArgs::problems), those of a line without a command to
/// `parsed.errors`. A last flag without its value is one of them: the words before it are
/// parsed all the same, so the other problems are named too.
std::unique_ptr<CommandLine> parse_command_line(std::vector<std::string> words);

}  // namespace pts::app
