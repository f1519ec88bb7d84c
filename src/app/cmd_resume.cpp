// app/cmd_resume.cpp — `ptsuite resume`. (Not built yet: this placeholder says so and exits 2.)
#include <cstdio>

#include "app/commands.h"

namespace pts::app {

int cmd_resume(const Args&) {
  std::fprintf(stderr, "ptsuite resume: not implemented yet\n");
  return 2;
}

}  // namespace pts::app
