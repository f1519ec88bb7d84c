// device/sanitize_monitor.cpp — the Sanitize Status polling loop. May use: core, device
// command builders and decoders.
#include "device/sanitize_monitor.h"

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

SanitizeOutcome wait_for_sanitize(AdminTransport& transport, const AdminCommand& command,
                                  core::Clock& clock, const SleepFn& sleep,
                                  const SanitizeWaitOptions& opt, const SanitizeProgressFn& progress) {
  SanitizeOutcome out;
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
      if (out.estimate_s == 0) out.estimate_s = estimate_for(*log, command.cdw10);
      const bool ours = (log->scdw10 & 0x7) == (command.cdw10 & 0x7);
      switch (log->status()) {
        case nvme::SanitizeLog::Completed:
        case nvme::SanitizeLog::CompletedNoDealloc:
          if (ours) {
            out.success = true;
            out.text = "sanitize completed successfully";
            if (log->status() == nvme::SanitizeLog::CompletedNoDealloc)
              out.text += " (media not deallocated)";
            if (progress) progress(1.0, elapsed, out.estimate_s);
            return out;
          }
          break;  // an earlier sanitize's record: ours has not shown up yet
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
    if (now - last_change >= opt.stuck_timeout_ns) {
      out.text = "sanitize stuck: progress stayed at " +
                 (last_sprog < 0 ? std::string("0% (never reported in progress)")
                                 : pct(uint16_t(last_sprog))) +
                 " for " + std::to_string((now - last_change) / 1'000'000'000ull) + " s";
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
