// device/sanitize_monitor.h — waits for a Sanitize to finish by polling the Sanitize Status
// log: progress, the controller's own time estimate (which scales both the total budget and
// the stuck-progress timeout), and the completion status — matched to THIS command: a
// completed record counts only once the log moved away from what it said before the command
// was sent (in progress seen, another action, or Global Data Erased going 0 → 1), so an
// earlier sanitize's record is never taken for ours. Time and sleeping are injected so tests
// drive it in fake time. May use: core, admin_transport, nvme_commands/decode.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/clock.h"
#include "core/result.h"
#include "device/admin_transport.h"
#include "device/nvme_commands.h"

namespace pts::device {

struct SanitizeWaitOptions {
  uint64_t poll_interval_ns = 1'000'000'000ull;          ///< between log reads
  uint64_t stuck_timeout_ns = 600'000'000'000ull;        ///< progress unchanged this long = stuck
  uint64_t no_estimate_budget_ns = 86'400'000'000'000ull;///< total limit when no estimate given
  uint32_t estimate_factor = 3;                          ///< total limit = factor × estimate + slack
  uint64_t estimate_slack_ns = 300'000'000'000ull;
  uint32_t max_log_errors = 5;                           ///< consecutive failed log reads
};

/// fraction_done in [0, 1]; estimate_s = 0 when the controller gives none.
using SanitizeProgressFn = std::function<void(double fraction_done, uint64_t elapsed_ns, uint32_t estimate_s)>;
using SleepFn = std::function<void(uint64_t ns)>;

struct SanitizeOutcome {
  bool success = false;
  std::string text;          ///< what happened, in plain words
  uint32_t polls = 0;        ///< sanitize log reads
  uint32_t estimate_s = 0;   ///< controller estimate for this action, 0 = none
  uint8_t final_sstat = 0;   ///< SSTAT bits 2:0 at the end
  uint8_t log_sct = 0, log_sc = 0;  ///< status of a failing log read, if that ended the wait
  int log_errno = 0;
  bool global_data_erased = false;  ///< GDE at the end (SSTAT bit 8)
};

/// The Sanitize Status log as read before sending, to match the completion to the command.
struct SanitizeBefore {
  bool known = false;           ///< false: nothing read (any completed record with our action counts)
  uint8_t status = 0;           ///< SSTAT bits 2:0
  uint32_t scdw10 = 0;
  bool global_data_erased = false;
};

/// Polls until the sanitize started with `command` (its cdw10) completes, fails, stalls or
/// exceeds its time budget. Never sends anything but Get Log Page (Sanitize Status).
SanitizeOutcome wait_for_sanitize(AdminTransport& transport, const AdminCommand& command,
                                  core::Clock& clock, const SleepFn& sleep,
                                  const SanitizeWaitOptions& options = {},
                                  const SanitizeProgressFn& progress = {}, const SanitizeBefore& before = {});

/// Reads the Sanitize Status log once: the state to match a completion against.
core::Result<SanitizeBefore> read_sanitize_state(AdminTransport& transport);

}  // namespace pts::device
