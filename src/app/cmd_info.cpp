// app/cmd_info.cpp — `ptsuite info`. (Not built yet: this placeholder says so and exits 2.)
#include <cstdio>

#include "app/commands.h"

namespace pts::app {

int cmd_info(const Args&) {
  std::fprintf(stderr, "ptsuite info: not implemented yet\n");
  return 2;
}

}  // namespace pts::app
