// An NVMe namespace target over the scripted transport and an in-memory disk: the purge flow
// (guard, identity re-check, method choice, verification pattern, command, polling, record)
// and the write cache. Identify data comes from the stored QEMU dumps, edited per case.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include "device/nvme_commands.h"
#include "device/targets.h"
#include "fakes/fake_engine.h"
#include "fakes/fake_sysfs.h"
#include "fakes/fake_transport.h"

namespace pts::device {
namespace {

using model::PurgeMethod;
constexpr uint32_t kNsBlocks = 4096;  // 2 MiB at 512 B: small enough for the fake disk

std::vector<uint8_t> golden(const char* name) {
  return fakes::load_hex_dump(std::string(PTS_SOURCE_DIR) + "/unit-tests/golden/device/" + name);
}

void put_le(std::vector<uint8_t>& d, size_t off, uint64_t v, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i) d[off + i] = (v >> (8 * i)) & 0xFF;
}

fakes::FakeReply data(std::vector<uint8_t> d) {
  fakes::FakeReply r;
  r.data = std::move(d);
  return r;
}

fakes::FakeReply sanitize_log(uint8_t sstat, uint16_t sprog, uint32_t scdw10) {
  std::vector<uint8_t> d(512, 0xFF);
  put_le(d, 0, sprog, 2);
  put_le(d, 2, sstat, 2);
  put_le(d, 4, scdw10, 4);
  return data(d);
}

/// The Sanitize Status log with Global Data Erased (SSTAT bit 8) set.
fakes::FakeReply sanitize_log_gde(uint8_t sstat, uint16_t sprog, uint32_t scdw10) {
  fakes::FakeReply r = sanitize_log(sstat, sprog, scdw10);
  r.data[3] |= 1;
  return r;
}

struct NvmeTargetTest : ::testing::Test {
  std::vector<uint8_t> ctrl = golden("qemu-7.2-id-ctrl.hex");
  std::vector<uint8_t> ns = golden("qemu-7.2-id-ns.hex");
  fakes::FakeTransport* t = nullptr;
  std::shared_ptr<fakes::FakeDisk> disk = std::make_shared<fakes::FakeDisk>(uint64_t(kNsBlocks) * 512);
  std::shared_ptr<fakes::FakeClock> clock = std::make_shared<fakes::FakeClock>();
  core::Status guard_result = core::ok_status();
  std::string refuse_name;  ///< the guard refuses this block name
  std::vector<std::string> guarded;
  std::unique_ptr<TargetDevice> dev;
  int held_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  /// Subsystem nvme-subsys3 with controller nvme9: the target is namespace 1, head nvme3n1.
  /// Its numbers differ from the controller's (multipath naming), and a sibling added by a
  /// test is NSID 2 at instance 5 (deleted and re-created): nvme9n2 / nvme3n2 do not exist.
  fakes::FakeSysfs sysfs{"nvme-target"};

  ~NvmeTargetTest() override { ::close(held_fd); }

  NvmeTargetTest() {
    put_le(ns, 0, kNsBlocks, 8);  // NSZE
    clock->tick_ns = 1000;
    sysfs.controller("nvme9", "nvme-subsys3");
    sysfs.head("nvme-subsys3", "nvme3n1", 1, {"nvme9"});
  }

  /// Namespace 2 (head nvme3n5) attached, and listed by the controller.
  void second_namespace() {
    sysfs.head("nvme-subsys3", "nvme3n5", 2, {"nvme9"});
    std::vector<uint8_t> list(4096, 0);
    list[0] = 1;
    list[4] = 2;
    t->replace(nvme::kOpIdentify, 0, nvme::kCnsActiveNamespaceList, data(list));
    t->replace(nvme::kOpIdentify, 0, nvme::kCnsAllocatedNamespaceList, data(list));
  }

  /// Sanitize capabilities (SANICAP bit 0 crypto, 1 block) and FNA (bit 2 crypto erase).
  void caps(uint32_t sanicap, uint8_t fna = 0) {
    put_le(ctrl, 328, sanicap, 4);
    ctrl[524] = fna;
  }

  /// Builds the target with the standard script; `format_effect` runs when Format arrives.
  void open(std::function<void()> erase = nullptr) {
    if (!erase) erase = [d = disk] { d->fill(0); };
    auto transport = std::make_unique<fakes::FakeTransport>();
    t = transport.get();
    t->on(nvme::kOpIdentify, 0, nvme::kCnsController, data(ctrl));
    t->on(nvme::kOpIdentify, 1, nvme::kCnsNamespace, data(ns));
    std::vector<uint8_t> list(4096, 0);
    list[0] = 1;
    t->on(nvme::kOpIdentify, 0, nvme::kCnsActiveNamespaceList, data(list));
    t->on(nvme::kOpIdentify, 1, nvme::kCnsNsDescriptorList, data(std::vector<uint8_t>(4096, 0)));
    t->on(nvme::kOpIdentify, 0, nvme::kCnsAllocatedNamespaceList, data(list));
    t->on(nvme::kOpGetLogPage, nvme::kNsidAll, 0x02u | (127u << 16), data(golden("qemu-7.2-smart-log.hex")));
    fakes::FakeReply fmt;
    fmt.effect = erase;
    t->on(nvme::kOpFormatNvm, 1, std::nullopt, fmt);
    fakes::FakeReply san;
    san.effect = erase;
    t->on(nvme::kOpSanitize, 0, std::nullopt, san);
    ResolvedTarget r;
    r.kind = model::TargetKind::NvmeNamespace;
    r.path = r.io_path = r.admin_path = "/dev/nvme3n1";
    r.block_name = "nvme3n1";
    r.nsid = 1;
    NvmeTargetDeps deps;
    deps.block_access = std::make_shared<fakes::FakeBlockAccessFactory>(disk);
    deps.clock = clock;
    deps.sleep = [c = clock](uint64_t ns) { c->now_ns += ns; };
    deps.guard = [this](const std::string& name) {
      guarded.push_back(name);
      if (name == refuse_name) return core::Status(core::Error(core::ErrorKind::Refused, "refused: " + name + " is mounted"));
      return guard_result;
    };
    deps.sysfs_root = sysfs.root();
    deps.sanitize_wait.stuck_timeout_ns = 10'000'000'000ull;
    dev = make_nvme_target(r, std::move(transport), std::move(deps));
    dev->use_held_descriptor(held_fd, false);  // what acquire_target() hands over; the fake disk ignores it
  }

  core::Result<model::PurgeRecord> purge(std::optional<PurgeMethod> m, model::PurgeRecord* rec = nullptr,
                                         bool accept = false) {
    PurgeRequest req;
    req.method = m;
    req.record_out = rec;
    req.accept_failure = accept;
    return dev->purge(req);
  }

  /// The log as ptsuite reads it before sending a Sanitize: never sanitized.
  void log_before_sanitize() { t->on(nvme::kOpGetLogPage, 0, 0x81u | (127u << 16), sanitize_log(0, 0, 0)); }

  size_t purge_commands() const {
    return t->sent_with(nvme::kOpFormatNvm).size() + t->sent_with(nvme::kOpSanitize).size();
  }
};

TEST_F(NvmeTargetTest, IdentifyFromStoredDumps) {
  open();
  auto id = dev->identify();
  ASSERT_TRUE(id.ok()) << id.error().message();
  EXPECT_EQ(id->serial, "PTSGOLDEN01");
  EXPECT_EQ(id->capacity_bytes, uint64_t(kNsBlocks) * 512);
  EXPECT_EQ(id->health.temperature_c, 50);
  EXPECT_TRUE(t->unexpected.empty());
}

TEST_F(NvmeTargetTest, AutoPurgeWithoutSanitizeIsFormatUserDataEraseVerified) {
  open();
  model::PurgeRecord rec;
  auto r = purge(std::nullopt, &rec);
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(r->method, PurgeMethod::FormatUser);
  EXPECT_TRUE(r->chosen_automatically);
  EXPECT_EQ(r->opcode, 0x80);
  EXPECT_EQ(r->nsid, 1u);
  ASSERT_EQ(r->cdw.size(), 6u);
  EXPECT_EQ(r->cdw[0], 0x200u);  // SES=1, LBAF 0
  EXPECT_EQ(r->status_sct, 0);
  EXPECT_EQ(r->status_sc, 0);
  EXPECT_TRUE(r->success);
  EXPECT_TRUE(r->is_snia_purge);
  EXPECT_GT(r->duration_ns, 0u);
  EXPECT_TRUE(r->verification.performed);
  EXPECT_TRUE(r->verification.passed) << r->verification.detail;
  EXPECT_EQ(r->verification.sampled_blocks, 64u);
  EXPECT_EQ(r->verification.expectation, "zeroes");
  EXPECT_EQ(rec.method, PurgeMethod::FormatUser);  // record_out mirrors the result
  EXPECT_GT(disk->writes, 0);                       // the pattern went out first
  EXPECT_EQ(guarded, (std::vector<std::string>{"nvme3n1"}));
  EXPECT_TRUE(t->unexpected.empty());
}

TEST_F(NvmeTargetTest, SesZeroIsNeverSentForAnyCapabilityCombination) {
  // For every combination: exactly the command the policy calls for went out (a Format with
  // SES 1 or 2, or a Sanitize with its action), or nothing at all when the method is not
  // supported — and no Format ever carries SES 0.
  for (uint32_t sanicap = 0; sanicap < 4; ++sanicap)
    for (uint8_t fna : {uint8_t(0), uint8_t(4)})
      for (auto m : {std::optional<PurgeMethod>{}, std::optional<PurgeMethod>{PurgeMethod::FormatUser},
                     std::optional<PurgeMethod>{PurgeMethod::FormatCrypto}}) {
        SCOPED_TRACE("sanicap " + std::to_string(sanicap) + " fna " + std::to_string(fna) + " method " +
                     (m ? purge_method_name(*m) : std::string("auto")));
        caps(sanicap, fna);
        ctrl[256] = 0x0a;  // OACS: Format NVM supported
        open();
        log_before_sanitize();
        t->on(nvme::kOpGetLogPage, 0, 0x81u | (127u << 16), sanitize_log(1, 0xFFFF, sanicap & 1 ? 4 : 2));
        auto r = purge(m);
        const auto formats = t->sent_with(nvme::kOpFormatNvm);
        const auto sanitizes = t->sent_with(nvme::kOpSanitize);
        for (const auto& c : formats) EXPECT_NE((c.cdw10 >> 9) & 7, 0u);
        uint32_t want_ses = 0, want_sanact = 0;  // 0 = that command must not be sent
        if (!m && sanicap) want_sanact = sanicap & 1 ? 4 : 2;
        else if (!m) want_ses = fna ? 2 : 1;
        else if (*m == PurgeMethod::FormatUser) want_ses = 1;
        else if (fna) want_ses = 2;  // FormatCrypto needs FNA bit 2
        if (want_ses) {
          ASSERT_TRUE(r.ok()) << r.error().message();
          ASSERT_EQ(formats.size(), 1u);
          EXPECT_EQ((formats[0].cdw10 >> 9) & 7, want_ses);
          EXPECT_EQ(formats[0].nsid, 1u);
          EXPECT_TRUE(sanitizes.empty());
        } else if (want_sanact) {
          ASSERT_TRUE(r.ok()) << r.error().message();
          ASSERT_EQ(sanitizes.size(), 1u);
          EXPECT_EQ(sanitizes[0].cdw10 & 7, want_sanact);
          EXPECT_TRUE(formats.empty());
        } else {
          ASSERT_FALSE(r.ok());
          EXPECT_EQ(r.error().kind, core::ErrorKind::BadInput);
          EXPECT_TRUE(formats.empty());
          EXPECT_TRUE(sanitizes.empty());
        }
      }
}

TEST_F(NvmeTargetTest, AutoPurgeNeverPicksSanitizeWithASecondNamespace) {
  caps(1);  // Sanitize crypto erase supported
  open();
  second_namespace();
  auto id = dev->identify();
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(id->subsystem_namespaces, 2u);
  EXPECT_EQ(id->subsystem_controllers, 1u);
  auto r = purge(std::nullopt);
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(r->method, PurgeMethod::FormatUser);
  EXPECT_NE(r->reason.find("Sanitize not chosen automatically"), std::string::npos) << r->reason;
  EXPECT_TRUE(t->sent_with(nvme::kOpSanitize).empty());
}

TEST_F(NvmeTargetTest, ANamespaceWithoutABlockDeviceHereCannotBeExamined) {
  caps(1);
  open();
  std::vector<uint8_t> list(4096, 0);
  list[0] = 1;
  list[4] = 3;  // attached to the controller, but no block device on this host
  t->replace(nvme::kOpIdentify, 0, nvme::kCnsActiveNamespaceList, data(list));
  auto r = purge(PurgeMethod::SanitizeCrypto);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::Refused);
  EXPECT_NE(r.error().message().find("namespace 3 of nvme-subsys3 has no block device on this host"),
            std::string::npos) << r.error().message();
  EXPECT_TRUE(t->sent_with(nvme::kOpSanitize).empty());
  EXPECT_EQ(disk->writes, 0);
}

TEST_F(NvmeTargetTest, IdentifiersFromTheDescriptorList) {
  std::vector<uint8_t> desc(4096, 0);
  desc[0] = 3;   // NIDT UUID
  desc[1] = 16;  // NIDL
  for (int i = 0; i < 16; ++i) desc[4 + i] = uint8_t(0xA0 + i);
  desc[20] = 1;  // NIDT EUI-64
  desc[21] = 8;
  for (int i = 0; i < 8; ++i) desc[24 + i] = uint8_t(0x10 + i);
  sysfs.write("devices/virtual/nvme-subsystem/nvme-subsys3/nvme3n1/wwid", "uuid.a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf\n");
  open();
  t->replace(nvme::kOpIdentify, 1, nvme::kCnsNsDescriptorList, data(desc));
  auto id = dev->identify();
  ASSERT_TRUE(id.ok()) << id.error().message();
  EXPECT_EQ(id->eui64, "1011121314151617");
  EXPECT_EQ(id->nguid, "");
  EXPECT_EQ(id->wwid, "uuid.a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf");
}

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

TEST_F(NvmeTargetTest, FormatErrnoIsCarried) {
  open();
  fakes::FakeReply eio;
  eio.sys_errno = EIO;
  t->on(nvme::kOpFormatNvm, 1, 0x200u, eio);
  model::PurgeRecord rec;
  auto r = purge(PurgeMethod::FormatUser, &rec);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::Device);
  EXPECT_EQ(r.error().sys_errno, EIO);
  EXPECT_EQ(rec.sys_errno, EIO);
  EXPECT_FALSE(rec.status_sct.has_value());
  EXPECT_NE(rec.status_text.find("ioctl failed"), std::string::npos);
}

TEST_F(NvmeTargetTest, FormatNvmeStatusIsCarried) {
  open();
  fakes::FakeReply invalid;
  invalid.sct = 1;
  invalid.sc = 0x0A;
  t->on(nvme::kOpFormatNvm, 1, 0x200u, invalid);
  model::PurgeRecord rec;
  auto r = purge(std::nullopt, &rec);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(rec.status_sct, 1);
  EXPECT_EQ(rec.status_sc, 0x0A);
  EXPECT_NE(rec.status_text.find("Invalid Format"), std::string::npos);
  EXPECT_NE(r.error().message().find("purge format-user of /dev/nvme3n1 failed"), std::string::npos);
}

TEST_F(NvmeTargetTest, OperatorAcceptsAFailedPurge) {
  open();
  fakes::FakeReply invalid;
  invalid.sc = 0x02;
  t->on(nvme::kOpFormatNvm, 1, 0x200u, invalid);
  auto r = purge(std::nullopt, nullptr, true);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->success);
  EXPECT_TRUE(r->accepted_by_operator);
}

TEST_F(NvmeTargetTest, DataThatSurvivesFailsVerification) {
  open([] {});  // the "drive" reports success but erases nothing
  model::PurgeRecord rec;
  auto r = purge(std::nullopt, &rec);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::Device);
  EXPECT_NE(r.error().message().find("not verified"), std::string::npos);
  EXPECT_TRUE(rec.success);
  EXPECT_FALSE(rec.verification.passed);
  EXPECT_EQ(rec.verification.blocks_still_holding_pattern, 64u);
  auto accepted = purge(std::nullopt, nullptr, true);
  ASSERT_TRUE(accepted.ok());
  EXPECT_TRUE(accepted->accepted_by_operator);
}

TEST_F(NvmeTargetTest, ErasedValueFollowsDlfeat) {
  ns[33] = 0;  // DLFEAT: read value not reported → anything but the pattern
  open([d = disk] { d->fill(0x5A); });
  auto r = purge(std::nullopt);
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(r->verification.expectation, "anything but the pattern written before the purge");

  ns[33] = 2;  // deallocated blocks read as 0xFF, but this drive returns zeroes
  open();
  auto ff = purge(std::nullopt);
  ASSERT_FALSE(ff.ok());
  EXPECT_NE(ff.error().message().find("0 of 64 sampled blocks still hold the pattern, 64 hold other data"),
            std::string::npos) << ff.error().message();
}

TEST_F(NvmeTargetTest, UnsupportedMethodIsBadInputAndWritesNothing) {
  open();
  auto r = purge(PurgeMethod::SanitizeCrypto);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::BadInput);
  EXPECT_NE(r.error().message().find("supported: format-user, discard, none"), std::string::npos);
  EXPECT_EQ(disk->writes, 0);
  EXPECT_EQ(purge_commands(), 0u);
}

TEST_F(NvmeTargetTest, GuardRefusalStopsBeforeAnyWrite) {
  guard_result = core::Error(core::ErrorKind::Refused, "refused: mounted");
  open();
  auto r = purge(std::nullopt);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::Refused);
  EXPECT_EQ(disk->writes, 0);
  EXPECT_EQ(purge_commands(), 0u);
}

TEST_F(NvmeTargetTest, PartitionTableOnDiskIsRefused) {
  open();
  std::memcpy(disk->bytes().data() + 512, "EFI PART", 8);
  auto g = dev->guard();
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().kind, core::ErrorKind::Refused);
  EXPECT_NE(g.error().message().find("partition table (GPT)"), std::string::npos);
}

TEST_F(NvmeTargetTest, IdentityChangeAbortsBeforeThePurge) {
  open();
  ASSERT_TRUE(dev->identify().ok());
  auto other = ctrl;
  std::memcpy(other.data() + 4, "OTHERDRIVE          ", 20);
  t->replace(nvme::kOpIdentify, 0, nvme::kCnsController, data(other));  // another drive now
  auto r = purge(std::nullopt);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::Refused);
  EXPECT_NE(r.error().message().find("identity changed"), std::string::npos);
  EXPECT_EQ(disk->writes, 0);
  EXPECT_EQ(purge_commands(), 0u);
}

TEST_F(NvmeTargetTest, SanitizeGuardsTheOtherNamespacesToo) {
  caps(1);
  open();
  second_namespace();
  log_before_sanitize();
  t->on(nvme::kOpGetLogPage, 0, 0x81u | (127u << 16), sanitize_log(1, 0xFFFF, 4));
  ASSERT_TRUE(purge(PurgeMethod::FormatUser).ok());  // Format (FNA bit 0 clear): its namespace only
  EXPECT_EQ(guarded, (std::vector<std::string>{"nvme3n1"}));
  guarded.clear();
  ASSERT_TRUE(purge(PurgeMethod::SanitizeCrypto).ok());  // Sanitize erases the whole subsystem
  // NSID 2 is found through sysfs as nvme3n5; a name built from the NSID (nvme3n2) does not exist
  EXPECT_EQ(guarded, (std::vector<std::string>{"nvme3n1", "nvme3n5"}));

  refuse_name = "nvme3n5";  // the other namespace is mounted
  const size_t sanitizes = t->sent_with(nvme::kOpSanitize).size();
  auto r = purge(PurgeMethod::SanitizeCrypto);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::Refused);
  EXPECT_NE(r.error().message().find("Sanitize erases every namespace"), std::string::npos);
  EXPECT_EQ(t->sent_with(nvme::kOpSanitize).size(), sanitizes);
}

TEST_F(NvmeTargetTest, FormatWhoseSecureEraseCoversAllNamespacesGuardsThemToo) {
  sysfs.head("nvme-subsys3", "nvme3n5", 2, {"nvme9"});
  for (uint8_t fna : {uint8_t(0x1), uint8_t(0x2)}) {  // format / secure erase applies to all
    caps(0, fna);
    open();
    second_namespace();
    guarded.clear();
    refuse_name = "nvme3n5";
    auto r = purge(PurgeMethod::FormatUser);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message().find("this Format applies to every namespace"), std::string::npos);
    EXPECT_NE(r.error().message().find("/dev/nvme3n5 is namespace 2 of nvme-subsys3"), std::string::npos)
        << r.error().message();
    EXPECT_EQ(guarded, (std::vector<std::string>{"nvme3n1", "nvme3n5"}));
    EXPECT_TRUE(t->sent_with(nvme::kOpFormatNvm).empty());
  }
}

TEST_F(NvmeTargetTest, WriteCacheGetAndSet) {
  open();
  fakes::FakeReply on;
  on.cdw0 = 1;
  fakes::FakeReply off;
  t->on(nvme::kOpGetFeatures, 0, nvme::kFidVolatileWriteCache, on);
  t->on(nvme::kOpGetFeatures, 0, nvme::kFidVolatileWriteCache, off);
  t->on(nvme::kOpSetFeatures, 0, nvme::kFidVolatileWriteCache, fakes::FakeReply{});
  EXPECT_EQ(*dev->write_cache(), model::WriteCacheState::Enabled);
  EXPECT_EQ(*dev->set_write_cache(false), model::WriteCacheState::Disabled);
  auto sets = t->sent_with(nvme::kOpSetFeatures);
  ASSERT_EQ(sets.size(), 1u);
  EXPECT_EQ(sets[0].cdw11, 0u);
}

TEST_F(NvmeTargetTest, WriteCacheIsNeverSavedEvenWhenTheDriveCouldSaveIt) {
  // ONCS bit 4 (Save field in Set Features supported) set or not: both the Set Features that
  // disables the cache for a test and the one that enables it go out current-only (SV, cdw10
  // bit 31, clear), so the drive's saved setting, the operator's, comes back at the next power
  // cycle; a run killed mid-test never leaves the test's setting saved on the drive.
  for (bool save_supported : {false, true}) {
    SCOPED_TRACE(save_supported ? "ONCS bit 4 set" : "ONCS bit 4 clear");
    const uint16_t oncs = static_cast<uint16_t>(ctrl[520] | (ctrl[521] << 8));
    put_le(ctrl, 520, save_supported ? (oncs | 0x10u) : (oncs & ~0x10u), 2);
    open();
    fakes::FakeReply off;
    fakes::FakeReply on;
    on.cdw0 = 1;
    t->on(nvme::kOpSetFeatures, 0, nvme::kFidVolatileWriteCache, fakes::FakeReply{});
    t->on(nvme::kOpGetFeatures, 0, nvme::kFidVolatileWriteCache, off);
    t->on(nvme::kOpSetFeatures, 0, nvme::kFidVolatileWriteCache | (1u << 31), fakes::FakeReply{});
    EXPECT_EQ(*dev->set_write_cache(false), model::WriteCacheState::Disabled);
    t->replace(nvme::kOpGetFeatures, 0, nvme::kFidVolatileWriteCache, on);
    EXPECT_EQ(*dev->set_write_cache(true), model::WriteCacheState::Enabled);
    const auto sets = t->sent_with(nvme::kOpSetFeatures);
    ASSERT_EQ(sets.size(), 2u);
    for (const auto& c : sets) {
      EXPECT_EQ(c.cdw10 & 0xFFu, uint32_t(nvme::kFidVolatileWriteCache));
      EXPECT_EQ(c.cdw10 >> 31, 0u) << "SV set: the test's cache setting would outlive the run";
    }
    EXPECT_EQ(sets[0].cdw11, 0u);
    EXPECT_EQ(sets[1].cdw11, 1u);
  }
}

TEST_F(NvmeTargetTest, WriteCacheSetFailureIsADeviceError) {
  open();
  fakes::FakeReply invalid;
  invalid.sc = 0x02;
  t->on(nvme::kOpSetFeatures, 0, nvme::kFidVolatileWriteCache, invalid);
  auto r = dev->set_write_cache(false);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::Device);
  EXPECT_NE(r.error().message().find("Invalid Field in Command"), std::string::npos);
}

TEST_F(NvmeTargetTest, NoVolatileCache) {
  ctrl[525] = 0;  // VWC not present
  open();
  EXPECT_EQ(*dev->write_cache(), model::WriteCacheState::NotPresent);
  EXPECT_EQ(*dev->set_write_cache(false), model::WriteCacheState::NotPresent);
  EXPECT_TRUE(t->sent_with(nvme::kOpGetFeatures).empty());
  EXPECT_TRUE(t->sent_with(nvme::kOpSetFeatures).empty());
}

TEST_F(NvmeTargetTest, IdentifyErrnoIsADeviceError) {
  open();
  fakes::FakeReply eperm;
  eperm.sys_errno = EACCES;
  auto transport = std::make_unique<fakes::FakeTransport>();
  transport->on(nvme::kOpIdentify, std::nullopt, std::nullopt, eperm);
  ResolvedTarget r;
  r.kind = model::TargetKind::NvmeNamespace;
  r.path = "/dev/nvme3n1";
  r.nsid = 1;
  auto d = make_nvme_target(r, std::move(transport), NvmeTargetDeps{});
  auto id = d->identify();
  ASSERT_FALSE(id.ok());
  EXPECT_EQ(id.error().kind, core::ErrorKind::Device);
  EXPECT_EQ(id.error().sys_errno, EACCES);
}

}  // namespace
}  // namespace pts::device
