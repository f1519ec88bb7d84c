// app/cmd_plan.cpp — `ptsuite plan`. (Not built yet: this placeholder says so and exits 2.)
#include <cstdio>

#include "app/commands.h"

namespace pts::app {

int cmd_plan(const Args&) {
  std::fprintf(stderr, "ptsuite plan: not implemented yet\n");
  return 2;
}

}  // namespace pts::app
