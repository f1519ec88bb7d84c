// config/engine_check.h — an access spec against the engine's published limits
// (model::EngineLimits), in the operator's words: each problem names the flag that set the
// value (--threads, --oio, --bs, --cell-seconds / --seconds). The plan resolver runs it on
// every cell and WIPC, `spec` on its one spec, so no limit is first met at device I/O.
// Pure. May use: core, model.
#pragma once

#include <string>
#include <vector>

#include "model/access_spec.h"
#include "model/engine_limits.h"

namespace pts::config {

/// Flag names for messages: `run` calls the duration --cell-seconds, `spec` --seconds.
struct SpecFlags {
  const char* seconds = "--cell-seconds";
};

/// Every limit `spec` exceeds, as messages (empty when it fits).
std::vector<std::string> check_engine_limits(const model::AccessSpec& spec, const model::EngineLimits& limits,
                                             const SpecFlags& flags = {});

}  // namespace pts::config
