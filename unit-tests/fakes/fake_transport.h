// fakes/fake_transport.h — a scripted AdminTransport (expected opcode/nsid/cdw10 → canned
// data, NVMe status or errno, like libnvme's mock_cmd) and an in-memory model::BlockAccess, for the
// device unit tests. Header-only. May use: core, device interfaces.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "device/admin_transport.h"
#include "model/block_access.h"

namespace pts::fakes {

/// One canned answer.
struct FakeReply {
  std::vector<uint8_t> data;  ///< returned for FromDevice commands (resized to data_bytes)
  int sys_errno = 0;
  uint8_t sct = 0, sc = 0;
  bool dnr = false;
  uint32_t cdw0 = 0;
  std::function<void()> effect;  ///< side effect when answered (e.g. erase the fake disk)
};

/// Answers commands matching (opcode, nsid, cdw10) with queued replies; the last reply of a
/// rule repeats. The most recently added matching rule wins, so a test can override a
/// wildcard rule with an exact one. Anything unmatched is recorded in `unexpected` and fails
/// with ENOTTY.
class FakeTransport final : public device::AdminTransport {
 public:
  struct Rule {
    uint8_t opcode;
    std::optional<uint32_t> nsid;
    std::optional<uint32_t> cdw10;
    std::deque<FakeReply> replies;
  };

  /// Adds (or extends) the rule for opcode/nsid/cdw10 (nullopt = any).
  FakeTransport& on(uint8_t opcode, std::optional<uint32_t> nsid, std::optional<uint32_t> cdw10,
                    FakeReply reply) {
    for (auto& r : rules_)
      if (r.opcode == opcode && r.nsid == nsid && r.cdw10 == cdw10) {
        r.replies.push_back(std::move(reply));
        return *this;
      }
    rules_.push_back({opcode, nsid, cdw10, {std::move(reply)}});
    return *this;
  }

  /// Replaces every queued reply of the rule for opcode/nsid/cdw10 with `reply`.
  FakeTransport& replace(uint8_t opcode, std::optional<uint32_t> nsid, std::optional<uint32_t> cdw10,
                         FakeReply reply) {
    for (auto& r : rules_)
      if (r.opcode == opcode && r.nsid == nsid && r.cdw10 == cdw10) r.replies.clear();
    rules_.erase(std::remove_if(rules_.begin(), rules_.end(), [](const Rule& r) { return r.replies.empty(); }),
                 rules_.end());
    return on(opcode, nsid, cdw10, std::move(reply));
  }

  device::AdminCompletion submit(const device::AdminCommand& cmd, const std::vector<uint8_t>&) override {
    sent.push_back(cmd);
    for (auto it = rules_.rbegin(); it != rules_.rend(); ++it) {
      Rule& r = *it;
      if (r.opcode != cmd.opcode || (r.nsid && *r.nsid != cmd.nsid) || (r.cdw10 && *r.cdw10 != cmd.cdw10)) continue;
      FakeReply reply = r.replies.front();
      if (r.replies.size() > 1) r.replies.pop_front();
      if (reply.effect) reply.effect();
      device::AdminCompletion c;
      c.sys_errno = reply.sys_errno;
      c.sct = reply.sct;
      c.sc = reply.sc;
      c.dnr = reply.dnr;
      c.cdw0 = reply.cdw0;
      if (cmd.direction == device::DataDirection::FromDevice && !reply.sys_errno) {
        c.data = reply.data;
        c.data.resize(cmd.data_bytes, 0);
      }
      return c;
    }
    unexpected.push_back(cmd);
    device::AdminCompletion c;
    c.sys_errno = ENOTTY;
    return c;
  }

  /// Commands sent with `opcode`.
  std::vector<device::AdminCommand> sent_with(uint8_t opcode) const {
    std::vector<device::AdminCommand> out;
    std::copy_if(sent.begin(), sent.end(), std::back_inserter(out),
                 [opcode](const device::AdminCommand& c) { return c.opcode == opcode; });
    return out;
  }

  std::vector<device::AdminCommand> sent;
  std::vector<device::AdminCommand> unexpected;

 private:
  std::vector<Rule> rules_;
};

/// A disk in memory. `fill()` simulates an erase; `fail_reads` / `fail_writes` inject errors.
class FakeDisk {
 public:
  explicit FakeDisk(uint64_t bytes) : bytes_(bytes, 0) {}
  std::vector<uint8_t>& bytes() { return bytes_; }
  void fill(uint8_t v) { std::fill(bytes_.begin(), bytes_.end(), v); }
  bool fail_reads = false, fail_writes = false, ignore_writes = false;
  int opens = 0, writes = 0, reads = 0;

 private:
  std::vector<uint8_t> bytes_;
};

class FakeBlockAccess final : public model::BlockAccess {
 public:
  explicit FakeBlockAccess(std::shared_ptr<FakeDisk> disk) : disk_(std::move(disk)) {}
  core::Status write_at(uint64_t offset, std::span<const uint8_t> data) override {
    ++disk_->writes;
    if (disk_->fail_writes || offset + data.size() > disk_->bytes().size())
      return core::Error(core::ErrorKind::Io, "fake write failed", EIO);
    if (!disk_->ignore_writes) std::memcpy(disk_->bytes().data() + offset, data.data(), data.size());
    return core::ok_status();
  }
  core::Status read_at(uint64_t offset, std::span<uint8_t> data) override {
    ++disk_->reads;
    if (disk_->fail_reads || offset + data.size() > disk_->bytes().size())
      return core::Error(core::ErrorKind::Io, "fake read failed", EIO);
    std::memcpy(data.data(), disk_->bytes().data() + offset, data.size());
    return core::ok_status();
  }
  core::Status flush() override { return core::ok_status(); }

 private:
  std::shared_ptr<FakeDisk> disk_;
};

class FakeBlockAccessFactory final : public model::BlockAccessFactory {
 public:
  explicit FakeBlockAccessFactory(std::shared_ptr<FakeDisk> disk) : disk_(std::move(disk)) {}
  core::Result<std::unique_ptr<model::BlockAccess>> open(int, const std::string&) override {
    ++disk_->opens;
    return std::unique_ptr<model::BlockAccess>(new FakeBlockAccess(disk_));
  }

 private:
  std::shared_ptr<FakeDisk> disk_;
};

/// Reads a stored dump (unit-tests/golden/device/*.hex: hex bytes, '#' comment lines).
inline std::vector<uint8_t> load_hex_dump(const std::string& path) {
  std::ifstream in(path);
  std::vector<uint8_t> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string w;
    while (words >> w) out.push_back(static_cast<uint8_t>(std::stoul(w, nullptr, 16)));
  }
  return out;
}

}  // namespace pts::fakes
