// app/cmd_report.cpp — `ptsuite report`. (Not built yet: this placeholder says so and exits 2.)
#include <cstdio>

#include "app/commands.h"

namespace pts::app {

int cmd_report(const Args&) {
  std::fprintf(stderr, "ptsuite report: not implemented yet\n");
  return 2;
}

}  // namespace pts::app
