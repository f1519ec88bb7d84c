// The simulated controller through ptsuite's real NVMe code: identity decoded by
// device/nvme_decode and nvme_identity, purge chosen by purge_policy, Sanitize monitored by
// sanitize_monitor and verified by purge_verify (through the simulated block access), the
// write cache through Get/Set Features, and the SMART counters.
#include <gtest/gtest.h>

#include "device/nvme_commands.h"
#include "device/nvme_decode.h"
#include "device/targets.h"
#include "sim/sim.h"
#include "sim_support.h"

namespace pts::sim {
namespace {

using simtest::spec;

struct Fixture {
  simtest::TempDir dir;
  SimDevice dev;
  std::unique_ptr<device::TargetDevice> target;

  explicit Fixture(const std::string& extra = "") {
    auto t = parse_sim_target("sim:tiny" + extra + "@" + dir.file("c.simdrive"));
    EXPECT_TRUE(t.ok());
    auto d = open_sim_device(*t, true);
    EXPECT_TRUE(d.ok());
    dev = std::move(d.value());
    target = make_sim_target(t->text(), dev);
  }
};

TEST(SimController, IdentifiesAsASimulatedDrive) {
  Fixture f;
  auto id = f.target->identify();
  ASSERT_TRUE(id.ok()) << id.error().message();
  EXPECT_NE(id->model.find("simulated"), std::string::npos);
  EXPECT_EQ(id->serial, f.dev.session->serial());
  EXPECT_EQ(id->serial.rfind("SIM-", 0), 0u);
  EXPECT_EQ(id->capacity_bytes, 1ull << 30);
  EXPECT_EQ(id->lba_size, 512u);
  EXPECT_EQ(id->physical_block_bytes, 4096u);
  EXPECT_TRUE(id->capabilities.sanitize_crypto_erase);
  EXPECT_TRUE(id->capabilities.sanitize_block_erase);
  EXPECT_TRUE(id->capabilities.crypto_erase_in_format);
  EXPECT_TRUE(id->capabilities.deallocated_reads_zeroes);
  EXPECT_FALSE(id->capabilities.volatile_write_cache_present);  // PLP
  EXPECT_TRUE(f.target->guard().ok());
}

TEST(SimController, SanitizeRunsThroughTheRealMonitorAndVerification) {
  Fixture f;
  auto eng = make_sim_engine(f.dev.session, f.dev.clock);
  ASSERT_TRUE(eng->run(spec(0, 131072, 1, 8, 2), nullptr, {}).ok());
  EXPECT_GT(f.dev.session->drive().ftl().mapped_pages(), 0u);
  for (auto method : {model::PurgeMethod::SanitizeBlock, model::PurgeMethod::SanitizeCrypto,
                      model::PurgeMethod::FormatUser, model::PurgeMethod::FormatCrypto}) {
    ASSERT_TRUE(eng->run(spec(0, 131072, 1, 8, 1), nullptr, {}).ok());
    device::PurgeRequest req;
    req.method = method;
    double last_fraction = -1;
    req.progress = [&](double fr, double, uint32_t) { last_fraction = fr; };
    const uint64_t t0 = f.dev.clock->monotonic_ns();
    auto rec = f.target->purge(req);
    ASSERT_TRUE(rec.ok()) << model::purge_method_name(method) << ": " << rec.error().message();
    EXPECT_TRUE(rec->success);
    EXPECT_TRUE(rec->verification.performed);
    EXPECT_TRUE(rec->verification.passed) << rec->verification.detail;
    EXPECT_EQ(f.dev.session->drive().ftl().mapped_pages(), 0u) << "a purge returns the drive to FOB";
    EXPECT_GT(f.dev.clock->monotonic_ns(), t0) << "the purge took virtual time";
    if (method == model::PurgeMethod::SanitizeBlock || method == model::PurgeMethod::SanitizeCrypto) {
      EXPECT_GT(rec->progress_polls, 1u);
      EXPECT_EQ(last_fraction, 1.0);
    }
  }
}

TEST(SimController, WriteCacheFeatureWhenTheBufferIsVolatile) {
  Fixture f(",plp=0");
  auto state = f.target->write_cache();
  ASSERT_TRUE(state.ok());
  EXPECT_EQ(*state, model::WriteCacheState::Enabled);
  auto off = f.target->set_write_cache(false, model::WriteCacheScope::CurrentOnly);
  ASSERT_TRUE(off.ok());
  EXPECT_EQ(*off, model::WriteCacheState::Disabled);
  EXPECT_FALSE(f.dev.session->drive().vwc_enabled());
  // ONCS bit 4 clear: the setting cannot be saved, so ptsuite sets it current-only …
  auto setting = f.target->write_cache_setting();
  ASSERT_TRUE(setting.ok());
  EXPECT_FALSE(setting->saveable);
  // … and the controller, like a real one without the Save / Select fields, refuses SV = 1
  // (cdw10 bit 31) and a Get Features SEL other than current with Invalid Field in Command,
  // leaving the cache as it was.
  auto ctrl = make_sim_controller(f.dev.session);
  auto sv = ctrl->submit(device::nvme::set_volatile_write_cache(true, device::nvme::FeatureSave::SaveAcrossPowerCycles));
  EXPECT_EQ(sv.sc, 0x02);
  EXPECT_FALSE(f.dev.session->drive().vwc_enabled());
  EXPECT_EQ(ctrl->submit(device::nvme::get_volatile_write_cache(device::nvme::FeatureSelect::Saved)).sc, 0x02);
  EXPECT_TRUE(ctrl->submit(device::nvme::set_volatile_write_cache(true, device::nvme::FeatureSave::CurrentOnly)).ok());
  EXPECT_TRUE(f.dev.session->drive().vwc_enabled());
  Fixture plp;
  auto none = plp.target->write_cache();
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, model::WriteCacheState::NotPresent);
}

TEST(SimController, SmartCountsHostDataAndUnknownCommandsFail) {
  Fixture f;
  auto eng = make_sim_engine(f.dev.session, f.dev.clock);
  auto r = eng->run(spec(0, 131072, 1, 8, 2), nullptr, {});
  ASSERT_TRUE(r.ok());
  auto id = f.target->identify();
  ASSERT_TRUE(id.ok());
  ASSERT_TRUE(id->health.data_units_written.has_value());
  EXPECT_EQ(*id->health.data_units_written, (r->write_bytes + 511999) / 512000);
  auto ctrl = make_sim_controller(f.dev.session);
  device::AdminCommand bogus;
  bogus.opcode = 0x7F;
  auto c = ctrl->submit(bogus);
  EXPECT_FALSE(c.ok());
  EXPECT_EQ(c.sc, 0x01);  // Invalid Command Opcode
  auto ow = ctrl->submit(device::nvme::sanitize(device::nvme::Sanact::Overwrite));
  EXPECT_EQ(ow.sc, 0x02);  // overwrite is not supported
}

TEST(SimController, BlockAccessKeepsBytesUntilOverwrittenOrPurged) {
  Fixture f;
  auto io = f.dev.block_access->open(f.dev.session->state_fd(), "sim");
  EXPECT_FALSE(f.dev.block_access->open(-1, "sim").ok()) << "only the locked state file's descriptor";
  ASSERT_TRUE(io.ok());
  std::vector<uint8_t> data(1024, 0xA5), back(1024), zero(1024, 0);
  ASSERT_TRUE((*io)->read_at(4096, back).ok());
  EXPECT_EQ(back, zero);  // never written: zeroes
  ASSERT_TRUE((*io)->write_at(4096, data).ok());
  ASSERT_TRUE((*io)->read_at(4096, back).ok());
  EXPECT_EQ(back, data);
  // The engine overwrites the whole drive: the stored bytes are gone, other data reads back.
  auto eng = make_sim_engine(f.dev.session, f.dev.clock);
  auto s = spec(0, 131072, 1, 4, 0, 3, 1ull << 30);
  s.pattern = model::AccessPattern::Sequential;
  ASSERT_TRUE(eng->run(s, nullptr, {}).ok());
  ASSERT_TRUE((*io)->read_at(4096, back).ok());
  EXPECT_NE(back, data);
  EXPECT_NE(back, zero);
}

}  // namespace
}  // namespace pts::sim
