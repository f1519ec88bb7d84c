// unit-tests/device/nvme_sanitize_test.cpp — Sanitize through an NVMe namespace target on the
// scripted transport: polling to completion, status carried into the record, a failed or stuck
// sanitize, one already in progress, an earlier completion not taken for ours, an unreadable log.
#include "nvme_target_fixture.h"

namespace pts::device {
namespace {

TEST_F(NvmeTargetTest, SanitizeCryptoIsPolledToCompletion) {
  caps(1);
  open();
  log_before_sanitize();
  t->on(nvme::kOpGetLogPage, 0, 0x81u | (127u << 16), sanitize_log(2, 0x1000, 4));
  t->on(nvme::kOpGetLogPage, 0, 0x81u | (127u << 16), sanitize_log(2, 0x9000, 4));
  t->on(nvme::kOpGetLogPage, 0, 0x81u | (127u << 16), sanitize_log(1, 0xFFFF, 4));
  std::vector<double> progress;
  PurgeRequest req;
  req.progress = [&](double f, double, uint32_t) { progress.push_back(f); };
  auto r = dev->purge(req);
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(r->method, PurgeMethod::SanitizeCrypto);
  EXPECT_EQ(r->opcode, 0x84);
  EXPECT_EQ(r->cdw[0], 4u);
  EXPECT_EQ(r->progress_polls, 3u);
  EXPECT_NE(r->status_text.find("sanitize completed successfully"), std::string::npos);
  EXPECT_TRUE(r->verification.passed);
  EXPECT_EQ(progress.size(), 3u);
  EXPECT_EQ(progress.back(), 1.0);
  EXPECT_TRUE(t->sent_with(nvme::kOpFormatNvm).empty());
}

TEST_F(NvmeTargetTest, SanitizeBlockWhenNoCryptoErase) {
  caps(2);
  open();
  log_before_sanitize();
  t->on(nvme::kOpGetLogPage, 0, 0x81u | (127u << 16), sanitize_log(1, 0xFFFF, 2));
  auto r = purge(std::nullopt);
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(r->method, PurgeMethod::SanitizeBlock);
  EXPECT_EQ(r->cdw[0], 2u);
}

TEST_F(NvmeTargetTest, SanitizeCommandStatusIsCarriedIntoTheRecord) {
  caps(1);
  open();
  fakes::FakeReply busy;
  busy.sc = 0x1D;  // Sanitize In Progress
  busy.dnr = true;
  log_before_sanitize();
  t->on(nvme::kOpSanitize, 0, 4u, busy);
  model::PurgeRecord rec;
  auto r = purge(std::nullopt, &rec);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::Device);
  ASSERT_TRUE(r.error().nvme.has_value());
  EXPECT_EQ(r.error().nvme->sc, 0x1D);
  EXPECT_FALSE(rec.success);
  EXPECT_EQ(rec.status_sct, 0);
  EXPECT_EQ(rec.status_sc, 0x1D);
  EXPECT_NE(rec.status_text.find("Sanitize In Progress"), std::string::npos);
  EXPECT_NE(rec.started_wall_ns, 0u);
  EXPECT_FALSE(rec.verification.performed);
}

TEST_F(NvmeTargetTest, SanitizeReportedFailedInTheLog) {
  caps(1);
  open();
  log_before_sanitize();
  t->on(nvme::kOpGetLogPage, 0, 0x81u | (127u << 16), sanitize_log(2, 0x1000, 4));
  t->on(nvme::kOpGetLogPage, 0, 0x81u | (127u << 16), sanitize_log(3, 0x1000, 4));
  model::PurgeRecord rec;
  auto r = purge(std::nullopt, &rec);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::Device);
  EXPECT_FALSE(rec.success);
  EXPECT_EQ(rec.progress_polls, 2u);
  EXPECT_NE(rec.status_text.find("sanitize failed"), std::string::npos);
}

TEST_F(NvmeTargetTest, SanitizeStuck) {
  caps(1);
  open();
  log_before_sanitize();
  t->on(nvme::kOpGetLogPage, 0, 0x81u | (127u << 16), sanitize_log(2, 0x3000, 4));
  model::PurgeRecord rec;
  auto r = purge(std::nullopt, &rec);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(rec.status_text.find("stuck"), std::string::npos) << rec.status_text;
  EXPECT_EQ(rec.progress_polls, 11u);
}

TEST_F(NvmeTargetTest, ASanitizeAlreadyInProgressIsWaitedOutBeforeOursIsSent) {
  caps(1);
  open();
  const uint32_t log = 0x81u | (127u << 16);
  t->on(nvme::kOpGetLogPage, 0, log, sanitize_log(2, 0x8000, 2));  // someone's block erase runs
  t->on(nvme::kOpGetLogPage, 0, log, sanitize_log(2, 0xC000, 2));
  t->on(nvme::kOpGetLogPage, 0, log, sanitize_log(1, 0xFFFF, 2));  // it ends
  t->on(nvme::kOpGetLogPage, 0, log, sanitize_log_gde(1, 0xFFFF, 2));  // read again before sending ours
  t->on(nvme::kOpGetLogPage, 0, log, sanitize_log(2, 0x4000, 4));   // ours runs
  t->on(nvme::kOpGetLogPage, 0, log, sanitize_log_gde(1, 0xFFFF, 4));
  model::PurgeRecord rec;
  auto r = purge(PurgeMethod::SanitizeCrypto, &rec);
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_NE(rec.status_text.find("waited 2 log reads for a sanitize already in progress"), std::string::npos)
      << rec.status_text;
  ASSERT_EQ(t->sent_with(nvme::kOpSanitize).size(), 1u);
  size_t logs_before_send = 0;  // ours went out only after the earlier one completed
  for (const auto& c : t->sent) {
    if (c.opcode == nvme::kOpSanitize) break;
    logs_before_send += c.opcode == nvme::kOpGetLogPage && c.cdw10 == log;
  }
  EXPECT_EQ(logs_before_send, 4u);
}

TEST_F(NvmeTargetTest, AnEarlierCompletedSanitizeIsNotTakenForOurs) {
  caps(1);
  const uint32_t log = 0x81u | (127u << 16);
  // The log said "crypto erase completed" before ours and never moves: not matched, a failure.
  open();
  t->on(nvme::kOpGetLogPage, 0, log, sanitize_log(1, 0xFFFF, 4));
  model::PurgeRecord rec;
  auto r = purge(PurgeMethod::SanitizeCrypto, &rec);
  ASSERT_FALSE(r.ok());
  EXPECT_FALSE(rec.success);
  EXPECT_NE(rec.status_text.find("its completion could not be matched"), std::string::npos) << rec.status_text;
  // The same record, but Global Data Erased goes 0 -> 1: that is this command completing.
  open();
  t->on(nvme::kOpGetLogPage, 0, log, sanitize_log(1, 0xFFFF, 4));
  t->on(nvme::kOpGetLogPage, 0, log, sanitize_log_gde(1, 0xFFFF, 4));
  model::PurgeRecord ok;
  auto r2 = purge(PurgeMethod::SanitizeCrypto, &ok);
  ASSERT_TRUE(r2.ok()) << r2.error().message();
  EXPECT_NE(ok.status_text.find("Global Data Erased 0 -> 1"), std::string::npos) << ok.status_text;
  EXPECT_EQ(ok.progress_polls, 1u);
}

TEST_F(NvmeTargetTest, AnUnreadableSanitizeLogMeansNoSanitizeIsSent) {
  caps(1);
  open();
  fakes::FakeReply bad;
  bad.sc = 0x02;
  t->on(nvme::kOpGetLogPage, 0, 0x81u | (127u << 16), bad);
  model::PurgeRecord rec;
  auto r = purge(PurgeMethod::SanitizeCrypto, &rec);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(t->sent_with(nvme::kOpSanitize).size(), 0u);
  EXPECT_NE(rec.status_text.find("could not be read before sending"), std::string::npos) << rec.status_text;
}

}  // namespace
}  // namespace pts::device
