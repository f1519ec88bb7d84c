// app/main.cpp — ptsuite entry point: parses the command line (app/command_args.h) and hands
// the chosen command its options (commands.h). The parser's problems exit 2 before any
// command runs when no command was chosen; a chosen command reports them with its own. Anything
// a command throws (a bug, a library surprise) ends the process with exit 1 and a message,
// never an abort.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "app/commands.h"

namespace {

using namespace pts::app;

/// The one explicit table from command name to its body.
int run_command(const std::string& name, const CommandArgs& a) {
  if (name == "list") return cmd_list(a.list);
  if (name == "info") return cmd_info(a.info);
  if (name == "spec") return cmd_spec(a.spec);
  if (name == "purge") return cmd_purge(a.purge);
  if (name == "namespaces") return cmd_namespaces(a.namespaces);
  if (name == "run") return cmd_run(a.run);
  if (name == "resume") return cmd_resume(a.resume);
  if (name == "report") return cmd_report(a.report);
  if (name == "analyze") return cmd_analyze(a.analyze);
  if (name == "plan") return cmd_plan(a.plan);
  if (name == "compare") return cmd_compare(a.compare);
  if (name == "check") return cmd_check(a.check);
  std::fprintf(stderr, "ptsuite: %s: a command without a body (please report it)\n", name.c_str());
  return 1;
}

int dispatch(std::vector<std::string> words) {
  // `ptsuite help [COMMAND]` and `ptsuite version`, as git and nvme-cli take them.
  if (!words.empty() && words[0] == "version") words[0] = "--version";
  if (!words.empty() && words[0] == "help") {
    words.erase(words.begin());
    if (words.size() > 1) words.resize(1);
    words.push_back("--help");
  }
  auto line = parse_command_line(words);
  const auto& parsed = line->parsed;
  switch (parsed.kind) {
    case pts::app::cli::Parsed::Kind::Help:
      if (parsed.command)
        std::fputs(cli::command_help(*parsed.command, *command_text(parsed.command->get_name())).c_str(), stdout);
      else
        std::fputs(tool_help(line->root).c_str(), stdout);
      return 0;
    case pts::app::cli::Parsed::Kind::Version:
      std::printf("%s\n", version_string().c_str());
      return 0;
    case pts::app::cli::Parsed::Kind::Command:
      return run_command(parsed.command->get_name(), line->args);
    case pts::app::cli::Parsed::Kind::Bad:
    case pts::app::cli::Parsed::Kind::Truncate:
      break;
  }
  for (const auto& e : parsed.errors) std::fprintf(stderr, "ptsuite: %s\n", e.c_str());
  if (words.empty()) std::fputs(("\n" + tool_help(line->root)).c_str(), stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return dispatch(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "ptsuite: internal error: %s (please report it; a run directory stays resumable)\n", e.what());
  } catch (...) {
    std::fflush(stdout);
    std::fprintf(stderr, "ptsuite: internal error: unknown exception (please report it)\n");
  }
  return 1;
}
