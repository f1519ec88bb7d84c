// app/cmd_list.cpp — `ptsuite list`. (Not built yet: this placeholder says so and exits 2.)
#include <cstdio>

#include "app/commands.h"

namespace pts::app {

int cmd_list(const Args&) {
  std::fprintf(stderr, "ptsuite list: not implemented yet\n");
  return 2;
}

}  // namespace pts::app
