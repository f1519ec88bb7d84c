// unit-tests/device/nvme_target_test.cpp — an NVMe namespace target over the scripted transport and an in-memory disk: the purge flow
// (guard, identity re-check, method choice, verification pattern, command, polling, record)
// and the write cache. Identify data comes from the stored QEMU dumps, edited per case.
#include "nvme_target_fixture.h"

namespace pts::device {
namespace {

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
  EXPECT_EQ(*dev->set_write_cache(false, model::WriteCacheScope::CurrentOnly), model::WriteCacheState::Disabled);
  auto sets = t->sent_with(nvme::kOpSetFeatures);
  ASSERT_EQ(sets.size(), 1u);
  EXPECT_EQ(sets[0].cdw11, 0u);
}

TEST_F(NvmeTargetTest, WriteCacheIsSavedOnlyWhereTheDriveCanSaveIt) {
  // The rule: ptsuite reads the saved value (Get Features SEL = 010b) and sends SV = 1 (cdw10
  // bit 31) only when ONCS bit 4 is set AND the feature's capabilities (SEL = 011b) say it is
  // saveable; everywhere else the cache is set current-only and no Select is sent. (The run
  // sets the operator's setting back at its end: pts/write_cache.h.)
  constexpr uint32_t kSelCap = nvme::kFidVolatileWriteCache | (3u << 8), kSelSaved = nvme::kFidVolatileWriteCache | (2u << 8);
  struct Case {
    const char* name;
    bool oncs_bit4;
    bool cap_saveable;
  };
  for (const Case& k : {Case{"ONCS bit 4 clear", false, true}, Case{"ONCS bit 4 set, not saveable (QEMU)", true, false},
                        Case{"ONCS bit 4 set, saveable", true, true}}) {
    SCOPED_TRACE(k.name);
    const uint16_t oncs = static_cast<uint16_t>(ctrl[520] | (ctrl[521] << 8));
    put_le(ctrl, 520, k.oncs_bit4 ? (oncs | 0x10u) : (oncs & ~0x10u), 2);
    open();
    fakes::FakeReply cur_off, saved_on, cap;
    saved_on.cdw0 = 1;
    cap.cdw0 = (k.cap_saveable ? 1u : 0u) | 4u;  // saveable?, changeable
    t->on(nvme::kOpGetFeatures, 0, nvme::kFidVolatileWriteCache, cur_off);
    t->on(nvme::kOpGetFeatures, 0, kSelCap, cap);
    t->on(nvme::kOpGetFeatures, 0, kSelSaved, saved_on);
    t->on(nvme::kOpSetFeatures, 0, nvme::kFidVolatileWriteCache, fakes::FakeReply{});
    t->on(nvme::kOpSetFeatures, 0, nvme::kFidVolatileWriteCache | (1u << 31), fakes::FakeReply{});
    auto s = dev->write_cache_setting();
    ASSERT_TRUE(s.ok()) << s.error().message();
    const bool saveable = k.oncs_bit4 && k.cap_saveable;
    EXPECT_EQ(s->current, model::WriteCacheState::Disabled);
    EXPECT_EQ(s->saveable, saveable);
    EXPECT_EQ(s->saved, saveable ? model::WriteCacheState::Enabled : model::WriteCacheState::Unknown);
    size_t selects = 0;
    for (const auto& c : t->sent_with(nvme::kOpGetFeatures)) selects += (c.cdw10 >> 8) & 7u ? 1 : 0;
    EXPECT_EQ(selects, k.oncs_bit4 ? (k.cap_saveable ? 2u : 1u) : 0u) << "a Select sent without ONCS bit 4";

    auto saved = dev->set_write_cache(false, model::WriteCacheScope::CurrentAndSaved);
    EXPECT_EQ(saved.ok(), k.oncs_bit4);
    EXPECT_TRUE(dev->set_write_cache(false, model::WriteCacheScope::CurrentOnly).ok());
    const auto sets = t->sent_with(nvme::kOpSetFeatures);
    ASSERT_EQ(sets.size(), k.oncs_bit4 ? 2u : 1u) << "SV = 1 sent to a controller without ONCS bit 4";
    if (k.oncs_bit4) {
      EXPECT_EQ(sets[0].cdw10, nvme::kFidVolatileWriteCache | (1u << 31));  // FID 06h, SV
    }
    EXPECT_EQ(sets.back().cdw10, uint32_t(nvme::kFidVolatileWriteCache));                 // SV clear
    for (const auto& c : sets) EXPECT_EQ(c.cdw11, 0u);
  }
}

TEST_F(NvmeTargetTest, WriteCacheSetFailureIsADeviceError) {
  open();
  fakes::FakeReply invalid;
  invalid.sc = 0x02;
  t->on(nvme::kOpSetFeatures, 0, nvme::kFidVolatileWriteCache, invalid);
  auto r = dev->set_write_cache(false, model::WriteCacheScope::CurrentOnly);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::Device);
  EXPECT_NE(r.error().message().find("Invalid Field in Command"), std::string::npos);
}

TEST_F(NvmeTargetTest, NoVolatileCache) {
  ctrl[525] = 0;  // VWC not present
  open();
  EXPECT_EQ(*dev->write_cache(), model::WriteCacheState::NotPresent);
  EXPECT_EQ(*dev->set_write_cache(false, model::WriteCacheScope::CurrentAndSaved), model::WriteCacheState::NotPresent);
  EXPECT_EQ(dev->write_cache_setting()->current, model::WriteCacheState::NotPresent);
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
