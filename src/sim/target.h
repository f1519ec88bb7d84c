// sim/target.h — the `sim:` target syntax: sim:PROFILE[,name=value...][@STATE_FILE][#NSID]
// (#NSID: one namespace of the drive's controller, like /dev/nvme0nNSID; without it, NSID 1). The
// state file defaults to $PTSUITE_SIM_DIR (else /var/tmp)/ptsuite-sim-<profile>[-<hash of
// the overrides>].simdrive, so every command naming the same drive finds the same file.
// Pure parsing: nothing is opened. May use: core, sim params.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "sim/params.h"

namespace pts::sim {

struct SimTarget {
  SimParams params;
  std::string state_path;    ///< absolute path of the state file
  bool default_path = false; ///< no @PATH was given
  /// Parameters set from other ones (name, why): pages_per_block scaled with a capacity
  /// override (fit_blocks_to_capacity). `info --sources` prints the why as their source.
  std::vector<std::pair<std::string, std::string>> derived;
  /// The namespace named by #NSID; 0 when none was named (then NSID 1).
  uint32_t nsid = 0;
  uint32_t namespace_id() const { return nsid ? nsid : 1; }
  /// "sim:demo,op=28%@/var/tmp/x.simdrive[#3]": the form stored in run records (resume reopens it).
  std::string text() const;
  /// The drive's form, without #NSID: every namespace of the drive shares it.
  std::string drive_text() const;
};

/// True for any string starting with "sim:".
bool is_sim_target(const std::string& text);

/// Parses a sim: target; every problem at once (BadInput), each naming the target.
core::Result<SimTarget> parse_sim_target(const std::string& text);

/// Directory of default state files: $PTSUITE_SIM_DIR, else /var/tmp.
std::string default_state_dir();

}  // namespace pts::sim
