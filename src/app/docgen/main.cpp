// app/docgen/main.cpp — ptsuite-docgen, run by the build: writes ptsuite(1) and the bash
// completion from the command definitions ptsuite itself parses with (app/command_args.h).
// usage: ptsuite-docgen man OUT DATE | completion OUT
#include <cstdio>
#include <fstream>
#include <string>

#include "app/command_args.h"
#include "app/commands.h"
#include "app/completion.h"
#include "app/man_page.h"

int main(int argc, char** argv) {
  using namespace pts::app;
  const std::string what = argc > 2 ? argv[1] : "";
  if (!(what == "man" && argc == 4) && !(what == "completion" && argc == 3)) {
    std::fprintf(stderr, "usage: ptsuite-docgen man OUT DATE | completion OUT\n");
    return 2;
  }
  CLI::App root;
  CommandArgs args;
  define_commands(root, args);
  std::ofstream out(argv[2], std::ios::binary | std::ios::trunc);
  out << (what == "man" ? man_page(root, argv[3], version_string()) : bash_completion(root));
  out.close();
  if (!out) {
    std::fprintf(stderr, "ptsuite-docgen: cannot write %s\n", argv[2]);
    return 1;
  }
  return 0;
}
