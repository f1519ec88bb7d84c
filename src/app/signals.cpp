// app/signals.cpp — see signals.h. The handler only stores atomics and write()s a fixed note.
#include "app/signals.h"

#include <signal.h>
#include <unistd.h>

#include <cstring>

namespace pts::app {

namespace {

StopFlags g_flags;
std::atomic<int> g_count{0};

void note(const char* text) {
  ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

extern "C" void on_stop_signal(int sig) {
  const int n = ++g_count;
  if (n == 1) {
    g_flags.stop_after_cell.store(true);
    note("\nptsuite: stopping after the current cell (Ctrl-C again to abort it)\n");
  } else if (n == 2) {
    g_flags.abort_now.store(true);
    note("\nptsuite: aborting the current cell (it will be re-run on resume)\n");
  } else {
    ::signal(sig, SIG_DFL);
    ::raise(sig);
  }
}

}  // namespace

StopFlags& stop_flags() { return g_flags; }

void install_stop_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

void remove_stop_handlers() {
  struct sigaction sa {};
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

}  // namespace pts::app
