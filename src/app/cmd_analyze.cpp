// app/cmd_analyze.cpp — `ptsuite analyze`. (Not built yet: this placeholder says so and exits 2.)
#include <cstdio>

#include "app/commands.h"

namespace pts::app {

int cmd_analyze(const Args&) {
  std::fprintf(stderr, "ptsuite analyze: not implemented yet\n");
  return 2;
}

}  // namespace pts::app
