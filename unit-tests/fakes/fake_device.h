// fakes/fake_device.h — a TargetDevice whose identity, guard, purge and write cache are
// plain fields, with call counters, for state-machine tests. Header-only.
// May use: core, model, device interface.
#pragma once

#include <functional>
#include <string>

#include "device/target_device.h"

namespace pts::fakes {

class FakeDevice final : public device::TargetDevice {
 public:
  model::DeviceIdentity id;
  bool guard_refuses = false;
  bool purge_fails = false;       ///< the command fails (success false, nothing verified)
  bool purge_unverified = false;  ///< the command succeeds, the LBA read-back check fails
  /// Called at every write-cache read, before it answers (a test changes `cache` "behind
  /// ptsuite's back", as a drive reset or a purge can).
  std::function<void(int reads)> on_cache_read;
  int cache_reads = 0;
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
    r.verification.performed = req.verify && !purge_fails;
    r.verification.passed = !purge_fails && !purge_unverified;
    r.verification.sampled_blocks = r.verification.performed ? 64 : 0;
    r.verification.blocks_still_holding_pattern = purge_unverified ? 2 : 0;
    r.verification.expectation = "zeroes";
    if (purge_unverified) r.verification.detail = "2 of 64 sampled blocks still hold the pattern";
    r.status_text = purge_fails ? "SCT 0 SC 0x0A" : "success";
    const bool bad = purge_fails || purge_unverified;
    r.accepted_by_operator = bad && req.accept_failure;  // as TargetBase does
    if (req.record_out) *req.record_out = r;
    if (bad && !req.accept_failure)
      return core::Error(core::ErrorKind::Device, purge_fails ? "format failed: SCT 0 SC 0x0A" : "format not verified");
    return r;
  }
  core::Result<model::WriteCacheState> write_cache() override {
    if (on_cache_read) on_cache_read(++cache_reads);
    return cache;
  }
  core::Result<model::WriteCacheState> set_write_cache(bool enabled) override {
    cache = enabled ? model::WriteCacheState::Enabled : model::WriteCacheState::Disabled;
    return cache;
  }
};

}  // namespace pts::fakes
