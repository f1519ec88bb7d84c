// fakes/fake_device.h — a TargetDevice whose identity, guard, purge and write cache are
// plain fields, with call counters, for state-machine tests. Header-only.
// May use: core, model, device interface.
#pragma once

#include <string>

#include "device/target_device.h"

namespace pts::fakes {

class FakeDevice final : public device::TargetDevice {
 public:
  model::DeviceIdentity id;
  bool guard_refuses = false;
  bool purge_fails = false;
  model::WriteCacheState cache = model::WriteCacheState::Enabled;
  int identify_calls = 0;
  int guard_calls = 0;
  int purge_calls = 0;

  FakeDevice() {
    id.kind = model::TargetKind::NvmeNamespace;
    id.path = "/dev/fake0n1";
    id.model = "FAKE SSD";
    id.serial = "SN-FAKE-1";
    id.firmware = "FW1.0";
    id.capacity_bytes = 1ull << 30;
    id.lba_size = 512;
  }

  core::Result<model::DeviceIdentity> identify() override {
    ++identify_calls;
    return id;
  }
  core::Status guard() override {
    ++guard_calls;
    if (guard_refuses) return core::Error(core::ErrorKind::Refused, id.path + " is mounted");
    return core::ok_status();
  }
  core::Result<model::PurgeRecord> purge(const device::PurgeRequest& req) override {
    ++purge_calls;
    model::PurgeRecord r;
    r.method = req.method.value_or(model::PurgeMethod::FormatUser);
    r.chosen_automatically = !req.method;
    r.reason = "fake";
    r.started_wall_ns = 1;
    r.is_snia_purge = true;
    r.success = !purge_fails;
    r.verification.performed = req.verify;
    r.verification.passed = !purge_fails;
    r.verification.sampled_blocks = 64;
    r.verification.expectation = "zeroes";
    r.status_text = purge_fails ? "SCT 0 SC 0x0A" : "success";
    r.accepted_by_operator = purge_fails && req.accept_failure;  // as TargetBase does
    if (req.record_out) *req.record_out = r;
    if (purge_fails && !req.accept_failure) return core::Error(core::ErrorKind::Device, "format failed: SCT 0 SC 0x0A");
    return r;
  }
  core::Result<model::WriteCacheState> write_cache() override { return cache; }
  core::Result<model::WriteCacheState> set_write_cache(bool enabled) override {
    cache = enabled ? model::WriteCacheState::Enabled : model::WriteCacheState::Disabled;
    return cache;
  }
};

}  // namespace pts::fakes
