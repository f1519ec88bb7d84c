// device/target_base.cpp — the purge flow shared by every target kind. May use: core, model,
// device.
#include "device/target_base.h"

#include <random>
#include <vector>

#include "core/utf8.h"
#include "device/confirm.h"
#include "device/guard.h"
#include "device/purge_policy.h"

namespace pts::device {

TargetBase::TargetBase(std::string io_path, std::shared_ptr<model::BlockAccessFactory> block_access,
                       std::shared_ptr<core::Clock> clock)
    : io_path_(std::move(io_path)),
      block_access_(std::move(block_access)),
      clock_(clock ? std::move(clock) : std::make_shared<core::SystemClock>()) {}

core::Result<model::DeviceIdentity> TargetBase::identify() {
  auto id = read_identity();
  if (!id.ok()) return id;
  // Text a drive reports may hold bytes that are not UTF-8: keep what a record can hold, so
  // the identity read now equals the one a run record gives back on resume.
  for (std::string* text : {&id->manufacturer, &id->model, &id->serial, &id->firmware, &id->interface})
    *text = core::valid_utf8(*text);
  if (known_) {
    if (auto same = check_identity_unchanged(*known_, *id); !same.ok()) return same.error();
  } else {
    known_ = *id;
  }
  return id;
}

core::Status TargetBase::guard_partition_table() {
  if (!block_access_ || held_fd_ < 0) return core::ok_status();
  auto io = block_access_->open(held_fd_, io_path_);
  if (!io.ok()) return io.error();
  std::vector<uint8_t> head(kPartitionProbeBytes);
  if (auto st = (*io)->read_at(0, head); !st.ok()) return st.error();
  const std::string table = detect_partition_table(head);
  if (table.empty()) return core::ok_status();
  return core::Error(core::ErrorKind::Refused, "refused: " + io_path_ + " is in use: it has a partition table (" +
                                                   table + ") on disk; nothing was written");
}

core::Status TargetBase::fail_unless_accepted(model::PurgeRecord& rec, const PurgeRequest& req, core::Error err) {
  if (req.accept_failure) {
    rec.accepted_by_operator = true;
    return core::ok_status();
  }
  return err;
}

core::Result<model::PurgeRecord> TargetBase::purge(const PurgeRequest& req) {
  model::PurgeRecord scratch;
  model::PurgeRecord& rec = req.record_out ? *req.record_out : scratch;
  rec = model::PurgeRecord{};

  // Identity is re-read before the destructive phase; a change aborts.
  auto id = identify();
  if (!id.ok()) return id.error();
  if (auto g = guard(); !g.ok()) return g.error();
  auto choice = choose_purge_method(*id, req.method);
  if (!choice.ok()) return choice.error();
  rec.method = choice->method;
  rec.chosen_automatically = choice->automatic;
  rec.reason = choice->reason;
  rec.is_snia_purge = is_snia_purge(rec.method);
  if (auto g = guard_purge(rec.method); !g.ok()) return g.error();
  if (rec.method == model::PurgeMethod::None) {
    rec.success = true;
    rec.status_text = "no purge (operator's choice): not a SNIA purge";
    rec.verification.detail = "nothing to verify";
    return rec;
  }

  // Pattern before the purge, so verification proves the erase of data ptsuite wrote.
  std::unique_ptr<model::BlockAccess> io;
  VerifySample sample;
  if (req.verify) {
    if (!block_access_)
      return core::Error(core::ErrorKind::Internal, "purge verification needs block access (not wired)");
    if (held_fd_ < 0)
      return core::Error(core::ErrorKind::Internal, "purge of " + io_path_ +
                                                        " without the guard's held descriptor (device::acquire_target)");
    auto opened = block_access_->open(held_fd_, io_path_);
    if (!opened.ok()) {  // the device could not be opened for the purge: a device failure (4)
      core::Error e = opened.error();
      e.kind = core::ErrorKind::Device;
      e.messages.front() = "purge not started: cannot open " + io_path_ + ": " + e.messages.front();
      return e;
    }
    io = std::move(opened.value());
    sample = plan_verify_sample(id->capacity_bytes, id->lba_size, kVerifySampleBlocks,
                                std::random_device{}() ^ (uint64_t(std::random_device{}()) << 32));
    if (auto w = write_verify_pattern(*io, sample); !w.ok()) {
      core::Error e = w.error();
      e.kind = core::ErrorKind::Device;  // the target failed before any destructive step
      e.messages.front() = "purge not started: cannot write the verification pattern to " + io_path_ +
                           ": " + e.messages.front();
      return e;
    }
  }

  rec.started_wall_ns = clock().wall_ns();
  const uint64_t t0 = clock().monotonic_ns();
  execute_purge(rec.method, *id, req, rec);
  rec.duration_ns = clock().monotonic_ns() - t0;
  if (!rec.success) {
    core::Error err(core::ErrorKind::Device, "purge " + purge_method_name(rec.method) + " of " +
                                                 id->path + " failed: " + rec.status_text,
                    rec.sys_errno);
    if (rec.status_sct && rec.status_sc) err.nvme = core::NvmeStatus{*rec.status_sct, *rec.status_sc, false};
    if (auto s = fail_unless_accepted(rec, req, err); !s.ok()) return s.error();
    return rec;
  }

  if (!req.verify) {
    rec.verification.detail = "verification skipped by request";
    return rec;
  }
  rec.verification = check_erased(*io, sample, erased_value(rec.method, *id));
  if (!rec.verification.passed) {
    core::Error err(core::ErrorKind::Device, "purge " + purge_method_name(rec.method) + " of " + id->path +
                                                 " not verified: " + rec.verification.detail);
    if (auto s = fail_unless_accepted(rec, req, err); !s.ok()) return s.error();
  }
  return rec;
}

}  // namespace pts::device
