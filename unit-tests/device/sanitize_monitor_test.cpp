// Sanitize polling in fake time: in progress → done, failure, stuck progress, time budget from
// the controller's estimate, unreadable log, a stale record of an earlier sanitize.
#include <gtest/gtest.h>

#include "device/nvme_commands.h"
#include "device/nvme_decode.h"
#include "device/sanitize_monitor.h"
#include "fakes/fake_engine.h"
#include "fakes/fake_transport.h"

namespace pts::device {
namespace {

constexpr uint32_t kLogCdw10 = 0x81u | (127u << 16);

/// A Sanitize Status log page.
fakes::FakeReply log_page(uint8_t sstat, uint16_t sprog, uint32_t scdw10, uint32_t etce = nvme::kNoEstimate) {
  fakes::FakeReply r;
  r.data.assign(512, 0);
  r.data[0] = sprog & 0xFF;
  r.data[1] = sprog >> 8;
  r.data[2] = sstat;
  for (int i = 0; i < 4; ++i) {
    r.data[4 + i] = (scdw10 >> (8 * i)) & 0xFF;
    r.data[16 + i] = (etce >> (8 * i)) & 0xFF;  // ETCE
    r.data[8 + i] = r.data[12 + i] = 0xFF;      // ETO, ETBE: none
  }
  return r;
}

struct SanitizeWait : ::testing::Test {
  fakes::FakeTransport t;
  fakes::FakeClock clock;
  SleepFn sleep = [this](uint64_t ns) { clock.now_ns += ns; };
  AdminCommand crypto = nvme::sanitize(nvme::Sanact::CryptoErase);
  SanitizeWaitOptions opt;
  void log(fakes::FakeReply r) { t.on(nvme::kOpGetLogPage, 0, kLogCdw10, std::move(r)); }
};

TEST_F(SanitizeWait, InProgressThenCompleted) {
  log(log_page(2, 0x0000, 4, 30));
  log(log_page(2, 0x4000, 4, 30));
  log(log_page(2, 0xC000, 4, 30));
  log(log_page(1, 0xFFFF, 4, 30));
  std::vector<double> seen;
  auto out = wait_for_sanitize(t, crypto, clock, sleep, opt,
                               [&](double f, uint64_t, uint32_t est) { seen.push_back(f); EXPECT_EQ(est, 30u); });
  EXPECT_TRUE(out.success) << out.text;
  EXPECT_EQ(out.polls, 4u);
  EXPECT_EQ(out.estimate_s, 30u);
  EXPECT_EQ(out.final_sstat, 1);
  EXPECT_EQ(seen, (std::vector<double>{0.0, 0.25, 0.75, 1.0}));
  EXPECT_TRUE(t.unexpected.empty());
  EXPECT_EQ(t.sent_with(nvme::kOpSanitize).size(), 0u);  // the monitor only reads the log
}

TEST_F(SanitizeWait, FailedStatus) {
  log(log_page(2, 0x1000, 4));
  log(log_page(3, 0x1000, 4));
  auto out = wait_for_sanitize(t, crypto, clock, sleep, opt);
  EXPECT_FALSE(out.success);
  EXPECT_EQ(out.final_sstat, 3);
  EXPECT_NE(out.text.find("sanitize failed"), std::string::npos);
}

TEST_F(SanitizeWait, StuckProgress) {
  opt.stuck_timeout_ns = 60'000'000'000ull;
  log(log_page(2, 0x2000, 4));  // repeats forever
  auto out = wait_for_sanitize(t, crypto, clock, sleep, opt);
  EXPECT_FALSE(out.success);
  EXPECT_NE(out.text.find("stuck: progress stayed at 12%"), std::string::npos) << out.text;
  EXPECT_EQ(out.polls, 61u);  // one poll per second, 60 s without change
}

TEST_F(SanitizeWait, MovingProgressIsNotStuckButTheEstimateBudgetEnds) {
  opt.stuck_timeout_ns = 5'000'000'000ull;
  opt.estimate_factor = 3;
  opt.estimate_slack_ns = 0;
  for (uint16_t p = 0; p < 200; ++p) log(log_page(2, p, 4, 10));  // creeps forward
  auto out = wait_for_sanitize(t, crypto, clock, sleep, opt);
  EXPECT_FALSE(out.success);
  EXPECT_NE(out.text.find("timed out after 30 s (controller estimate 10 s)"), std::string::npos) << out.text;
}

TEST_F(SanitizeWait, UnreadableLogCarriesItsStatus) {
  fakes::FakeReply bad;
  bad.sct = 0;
  bad.sc = 0x02;
  log(bad);
  auto out = wait_for_sanitize(t, crypto, clock, sleep, opt);
  EXPECT_FALSE(out.success);
  EXPECT_EQ(out.polls, opt.max_log_errors);
  EXPECT_EQ(out.log_sc, 0x02);
  EXPECT_NE(out.text.find("could not be read"), std::string::npos);
}

TEST_F(SanitizeWait, UnreadableLogErrno) {
  fakes::FakeReply bad;
  bad.sys_errno = EIO;
  log(bad);
  auto out = wait_for_sanitize(t, crypto, clock, sleep, opt);
  EXPECT_FALSE(out.success);
  EXPECT_EQ(out.log_errno, EIO);
}

TEST_F(SanitizeWait, StaleRecordOfAnEarlierSanitizeIsNotOurs) {
  log(log_page(1, 0xFFFF, 2));  // an earlier block erase completed
  log(log_page(2, 0x8000, 4));
  log(log_page(1, 0xFFFF, 4));
  auto out = wait_for_sanitize(t, crypto, clock, sleep, opt);
  EXPECT_TRUE(out.success);
  EXPECT_EQ(out.polls, 3u);
}

TEST_F(SanitizeWait, CompletedWithoutDeallocation) {
  log(log_page(4, 0xFFFF, 4));
  auto out = wait_for_sanitize(t, crypto, clock, sleep, opt);
  EXPECT_TRUE(out.success);
  EXPECT_NE(out.text.find("not deallocated"), std::string::npos);
}

}  // namespace
}  // namespace pts::device
