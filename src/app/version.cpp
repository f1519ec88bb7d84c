// app/version.cpp — tool version and git revision, baked in at build time.
#include "app/commands.h"

namespace pts::app {

std::string version_string() { return std::string("ptsuite ") + PTS_VERSION + " (git " + PTS_GIT_REV + ")"; }

}  // namespace pts::app
