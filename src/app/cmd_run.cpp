// app/cmd_run.cpp — `ptsuite run`. (Not built yet: this placeholder says so and exits 2.)
#include <cstdio>

#include "app/commands.h"

namespace pts::app {

int cmd_run(const Args&) {
  std::fprintf(stderr, "ptsuite run: not implemented yet\n");
  return 2;
}

}  // namespace pts::app
