// app/cmd_purge.cpp — `ptsuite purge`. (Not built yet: this placeholder says so and exits 2.)
#include <cstdio>

#include "app/commands.h"

namespace pts::app {

int cmd_purge(const Args&) {
  std::fprintf(stderr, "ptsuite purge: not implemented yet\n");
  return 2;
}

}  // namespace pts::app
