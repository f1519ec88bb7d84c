// device/sanitize_monitor.cpp — the Sanitize Status polling loop. May use: core, device
// command builders and decoders.
#include "device/sanitize_monitor.h"

#include <algorithm>

#include "device/nvme_decode.h"

namespace pts::device {

namespace {

/// The controller's estimate (seconds) for the action in `cdw10`, 0 when none.
uint32_t estimate_for(const nvme::SanitizeLog& log, uint32_t cdw10) {
  const bool no_dealloc = cdw10 & (1u << 9);
  uint32_t e = nvme::kNoEstimate;
  switch (cdw10 & 0x7) {
    case uint32_t(nvme::Sanact::CryptoErase): e = no_dealloc ? log.etcend : log.etce; break;
    case uint32_t(nvme::Sanact::BlockErase): e = no_dealloc ? log.etbend : log.etbe; break;
    case uint32_t(nvme::Sanact::Overwrite): e = no_dealloc ? log.etond : log.eto; break;
    default: break;
  }
  return e == nvme::kNoEstimate ? 0 : e;
}

std::string pct(uint16_t sprog) {
  return std::to_string(uint32_t(sprog) * 100 / 65536) + "%";
}

}  // namespace

core::Result<SanitizeBefore> read_sanitize_state(AdminTransport& transport) {
  AdminCompletion c = transport.submit(nvme::get_sanitize_log());
  if (!c.ok())
    return core::Error(core::ErrorKind::Device, std::string("the Sanitize Status log could not be read before sending: ") +
                                                    (c.sys_errno ? std::to_string(c.sys_errno) + " (errno)"
                                                                 : "SCT " + std::to_string(c.sct) + " SC " + std::to_string(c.sc)),
                       c.sys_errno);
  auto log = nvme::decode_sanitize_log(c.data);
  if (!log.ok()) return log.error();
  SanitizeBefore b;
  b.known = true;
  b.status = log->status();
  b.scdw10 = log->scdw10;
  b.global_data_erased = log->global_data_erased();
  return b;
}

SanitizeOutcome wait_for_sanitize(AdminTransport& transport, const AdminCommand& command,
                                  core::Clock& clock, const SleepFn& sleep,
                                  const SanitizeWaitOptions& opt, const SanitizeProgressFn& progress,
                                  const SanitizeBefore& before) {
  SanitizeOutcome out;
  bool moved = !before.known;  // the log left the state it was in before the command
  bool gde_turned = false;
  const uint64_t start = clock.monotonic_ns();
  uint64_t last_change = start;
  int32_t last_sprog = -1;
  uint32_t log_errors = 0;
  const AdminCommand log_cmd = nvme::get_sanitize_log();

  while (true) {
    AdminCompletion c = transport.submit(log_cmd);
    ++out.polls;
    const uint64_t now = clock.monotonic_ns();
    const uint64_t elapsed = now - start;
    if (!c.ok()) {
      if (++log_errors >= opt.max_log_errors) {
        out.log_errno = c.sys_errno;
        out.log_sct = c.sct;
        out.log_sc = c.sc;
        out.text = "sanitize status unknown: the Sanitize Status log could not be read " +
                   std::to_string(log_errors) + " times in a row";
        return out;
      }
    } else {
      log_errors = 0;
      auto log = nvme::decode_sanitize_log(c.data);
      if (!log.ok()) {
        out.text = log.error().message();
        return out;
      }
      out.final_sstat = log->status();
      out.global_data_erased = log->global_data_erased();
      if (out.estimate_s == 0) out.estimate_s = estimate_for(*log, command.cdw10);
      const bool ours = (log->scdw10 & 0x7) == (command.cdw10 & 0x7);
      if (log->status() != before.status || log->scdw10 != before.scdw10) moved = true;
      if (before.known && !before.global_data_erased && log->global_data_erased()) gde_turned = moved = true;
      switch (log->status()) {
        case nvme::SanitizeLog::Completed:
        case nvme::SanitizeLog::CompletedNoDealloc:
          if (ours && moved) {
            out.success = true;
            out.text = "sanitize completed successfully";
            if (log->status() == nvme::SanitizeLog::CompletedNoDealloc)
              out.text += " (media not deallocated)";
            if (gde_turned) out.text += "; Global Data Erased 0 -> 1";
            else if (!log->global_data_erased()) out.text += "; Global Data Erased not reported";
            if (progress) progress(1.0, elapsed, out.estimate_s);
            return out;
          }
          break;  // an earlier sanitize's record (or one the log has not left yet): not ours
        case nvme::SanitizeLog::Failed:
          out.text = "sanitize failed (Sanitize Status log: most recent sanitize failed)";
          return out;
        case nvme::SanitizeLog::InProgress:
          if (int32_t(log->sprog) != last_sprog) {
            last_sprog = log->sprog;
            last_change = now;
          }
          if (progress) progress(log->sprog / 65536.0, elapsed, out.estimate_s);
          break;
        default: break;
      }
    }
    // Progress unchanged for the stuck timeout — or, for a drive that estimates a longer
    // action, for as long as its whole estimate — is stuck.
    const uint64_t stuck_after = std::max<uint64_t>(opt.stuck_timeout_ns, uint64_t(out.estimate_s) * 1'000'000'000ull);
    if (now - last_change >= stuck_after) {
      out.text = "sanitize stuck: progress stayed at " +
                 (last_sprog < 0 ? std::string("0% (never reported in progress)")
                                 : pct(uint16_t(last_sprog))) +
                 " for " + std::to_string((now - last_change) / 1'000'000'000ull) + " s" +
                 (moved ? "" : " (the log never showed this command: its completion could not be matched)");
      return out;
    }
    const uint64_t budget = out.estimate_s
                                ? opt.estimate_factor * uint64_t(out.estimate_s) * 1'000'000'000ull +
                                      opt.estimate_slack_ns
                                : opt.no_estimate_budget_ns;
    if (elapsed >= budget) {
      out.text = "sanitize timed out after " + std::to_string(elapsed / 1'000'000'000ull) +
                 " s (controller estimate " + std::to_string(out.estimate_s) + " s)";
      return out;
    }
    sleep(opt.poll_interval_ns);
  }
}

}  // namespace pts::device
