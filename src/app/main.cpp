// app/main.cpp — ptsuite entry point: dispatches to one command (commands.h). Anything a
// command throws (a bug, a library surprise) ends the process with exit 1 and a message,
// never an abort.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "app/commands.h"

namespace {

struct Command {
  const char* name;
  int (*fn)(const pts::app::Args&);
  const char* usage;
};

// The one explicit registry of commands.
const Command kCommands[] = {
    {"list", pts::app::cmd_list, "list                                   tests and procedures available"},
    {"info", pts::app::cmd_info, "info TARGET [--json]                   identity, capabilities, health"},
    {"spec", pts::app::cmd_spec, "spec TARGET [access-spec options] [--json]   one access spec, like fio"},
    {"purge", pts::app::cmd_purge, "purge TARGET --confirm SERIAL [--purge METHOD] [--json]"},
    {"run", pts::app::cmd_run, "run TEST TARGET --out RUNDIR [--confirm SERIAL] [options]"},
    {"resume", pts::app::cmd_resume, "resume RUNDIR                          continue an interrupted run"},
    {"report", pts::app::cmd_report, "report RUNDIR [--format xlsx,json,csv]"},
    {"analyze", pts::app::cmd_analyze, "analyze SERIES.csv [--window 5] [--json]   steady state over any series"},
    {"plan", pts::app::cmd_plan, "plan TEST [TARGET]                     resolved plan and worst-case duration"},
};

void usage(FILE* out) {
  std::fprintf(out, "usage: ptsuite COMMAND [options]   (ptsuite COMMAND --help for details)\n\n");
  for (const auto& c : kCommands) std::fprintf(out, "  ptsuite %s\n", c.usage);
  std::fprintf(out, "\nExit codes: 0 done, 2 bad input, 3 refused by the guard, 4 device or purge failure,\n"
                    "5 I/O error during a run, 130 interrupted.\n");
}

}  // namespace

int dispatch(int argc, char** argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    usage(stdout);
    return 0;
  }
  if (name == "--version" || name == "version") {
    std::printf("%s\n", pts::app::version_string().c_str());
    return 0;
  }
  pts::app::Args args(argv + 2, argv + argc);
  for (const auto& c : kCommands)
    if (name == c.name) return c.fn(args);
  std::fprintf(stderr, "ptsuite: unknown command '%s'\n\n", name.c_str());
  usage(stderr);
  return 2;
}

int main(int argc, char** argv) {
  try {
    return dispatch(argc, argv);
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "ptsuite: internal error: %s (please report it; a run directory stays resumable)\n", e.what());
  } catch (...) {
    std::fflush(stdout);
    std::fprintf(stderr, "ptsuite: internal error: unknown exception (please report it)\n");
  }
  return 1;
}
