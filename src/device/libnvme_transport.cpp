// device/libnvme_transport.cpp — AdminTransport implemented with libnvme 1.3
// (nvme_submit_admin_passthru, nvme_get_nsid). The ONLY file in ptsuite that includes
// <libnvme.h>. May use: core, admin_transport, libnvme.
#include "device/libnvme_transport.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <libnvme.h>

namespace pts::device {

namespace {

class LibnvmeTransport final : public AdminTransport {
 public:
  explicit LibnvmeTransport(int fd) : fd_(fd) {}
  ~LibnvmeTransport() override { ::close(fd_); }

  AdminCompletion submit(const AdminCommand& cmd, const std::vector<uint8_t>& out) override {
    AdminCompletion c;
    std::vector<uint8_t> buf;
    if (cmd.direction == DataDirection::FromDevice) buf.assign(cmd.data_bytes, 0);
    if (cmd.direction == DataDirection::ToDevice) {
      buf = out;
      buf.resize(cmd.data_bytes, 0);
    }
    struct nvme_passthru_cmd p;
    std::memset(&p, 0, sizeof p);
    p.opcode = cmd.opcode;
    p.nsid = cmd.nsid;
    p.cdw10 = cmd.cdw10;
    p.cdw11 = cmd.cdw11;
    p.cdw12 = cmd.cdw12;
    p.cdw13 = cmd.cdw13;
    p.cdw14 = cmd.cdw14;
    p.cdw15 = cmd.cdw15;
    p.addr = buf.empty() ? 0 : reinterpret_cast<uintptr_t>(buf.data());
    p.data_len = static_cast<uint32_t>(buf.size());
    p.timeout_ms = cmd.timeout_ms;
    __u32 result = 0;
    int rc = nvme_submit_admin_passthru(fd_, &p, &result);
    if (rc < 0) {
      c.sys_errno = errno ? errno : EIO;
      return c;
    }
    // rc is the completion status field without the phase bit: SC 7:0, SCT 10:8, DNR 14.
    c.sc = rc & 0xFF;
    c.sct = (rc >> 8) & 0x7;
    c.dnr = rc & 0x4000;
    c.cdw0 = result;
    if (cmd.direction == DataDirection::FromDevice) c.data = std::move(buf);
    return c;
  }

 private:
  int fd_;
};

}  // namespace

core::Result<std::unique_ptr<AdminTransport>> open_libnvme_transport(const std::string& node) {
  int fd = ::open(node.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return core::Error(core::ErrorKind::BadInput,
                       "TARGET " + node + ": cannot open for NVMe admin commands: " + std::strerror(errno),
                       errno);
  return std::unique_ptr<AdminTransport>(new LibnvmeTransport(fd));
}

core::Result<uint32_t> namespace_id_of(const std::string& node) {
  int fd = ::open(node.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return core::Error(core::ErrorKind::BadInput, "TARGET " + node + ": " + std::strerror(errno), errno);
  __u32 nsid = 0;
  int rc = nvme_get_nsid(fd, &nsid);
  int err = errno;
  ::close(fd);
  if (rc != 0)
    return core::Error(core::ErrorKind::BadInput,
                       "TARGET " + node + ": not an NVMe namespace (" + std::strerror(err) + ")", err);
  return nsid;
}

}  // namespace pts::device
