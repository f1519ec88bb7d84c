// app/signals.h — Ctrl-C handling for long runs: the first SIGINT (or SIGTERM) asks the state
// machine to stop after the cell in flight, the second aborts that cell through the engine's
// abort flag, a third terminates the process the default way. May use: POSIX signals.
#pragma once

#include <atomic>

namespace pts::app {

/// The two flags the handlers raise; pass them as runner::RunControls.
struct StopFlags {
  std::atomic<bool> stop_after_cell{false};
  std::atomic<bool> abort_now{false};
};

/// The process-wide flags.
StopFlags& stop_flags();

/// Installs the SIGINT/SIGTERM handlers (and a note on stderr for each signal).
void install_stop_handlers();

/// Puts the default handlers back.
void remove_stop_handlers();

}  // namespace pts::app
