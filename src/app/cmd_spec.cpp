// app/cmd_spec.cpp — `ptsuite spec`. (Not built yet: this placeholder says so and exits 2.)
#include <cstdio>

#include "app/commands.h"

namespace pts::app {

int cmd_spec(const Args&) {
  std::fprintf(stderr, "ptsuite spec: not implemented yet\n");
  return 2;
}

}  // namespace pts::app
