// unit-tests/device/nvme_target_fixture.h — the NvmeTargetTest fixture: an NVMe namespace
// target over the scripted transport and an in-memory disk, with the stored QEMU identify dumps
// (shared by nvme_target_test.cpp and nvme_sanitize_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include "device/nvme_commands.h"
#include "device/targets.h"
#include "fakes/fake_engine.h"
#include "fakes/fake_sysfs.h"
#include "fakes/fake_transport.h"

namespace pts::device {

using model::PurgeMethod;
inline constexpr uint32_t kNsBlocks = 4096;  // 2 MiB at 512 B: small enough for the fake disk

inline std::vector<uint8_t> golden(const char* name) {
  return fakes::load_hex_dump(std::string(PTS_SOURCE_DIR) + "/unit-tests/golden/device/" + name);
}

inline void put_le(std::vector<uint8_t>& d, size_t off, uint64_t v, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i) d[off + i] = (v >> (8 * i)) & 0xFF;
}

inline fakes::FakeReply data(std::vector<uint8_t> d) {
  fakes::FakeReply r;
  r.data = std::move(d);
  return r;
}

inline fakes::FakeReply sanitize_log(uint8_t sstat, uint16_t sprog, uint32_t scdw10) {
  std::vector<uint8_t> d(512, 0xFF);
  put_le(d, 0, sprog, 2);
  put_le(d, 2, sstat, 2);
  put_le(d, 4, scdw10, 4);
  return data(d);
}

/// The Sanitize Status log with Global Data Erased (SSTAT bit 8) set.
inline fakes::FakeReply sanitize_log_gde(uint8_t sstat, uint16_t sprog, uint32_t scdw10) {
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

}  // namespace pts::device
