// device/admin_transport.h — the one seam between ptsuite's NVMe logic and the kernel: an
// admin passthrough command in, an NVMe completion (or errno) out. libnvme_transport.cpp
// implements it with libnvme; unit tests script it (unit-tests/fakes/fake_transport.h).
// May use: std only.
#pragma once

#include <cstdint>
#include <vector>

namespace pts::device {

/// Direction of the command's data buffer.
enum class DataDirection { None, FromDevice, ToDevice };

/// One admin command as it goes on the wire (NVMe Base spec, Submission Queue Entry).
struct AdminCommand {
  uint8_t opcode = 0;
  uint32_t nsid = 0;
  uint32_t cdw10 = 0, cdw11 = 0, cdw12 = 0, cdw13 = 0, cdw14 = 0, cdw15 = 0;
  DataDirection direction = DataDirection::None;
  uint32_t data_bytes = 0;   ///< buffer length for FromDevice / ToDevice
  uint32_t timeout_ms = 0;   ///< 0 = the kernel's default admin timeout
};

/// The completion. Exactly one channel is set: `sys_errno` when the command never reached
/// a response (ioctl failed), else the NVMe status (sct/sc, 0/0 = success) and dword 0.
struct AdminCompletion {
  int sys_errno = 0;
  uint8_t sct = 0;          ///< Status Code Type
  uint8_t sc = 0;           ///< Status Code
  bool dnr = false;         ///< Do Not Retry
  uint32_t cdw0 = 0;        ///< command specific result
  std::vector<uint8_t> data;  ///< FromDevice: the bytes returned (data_bytes long)

  bool ok() const { return sys_errno == 0 && sct == 0 && sc == 0; }
};

/// Sends admin commands to one controller (through a controller, namespace or generic node).
class AdminTransport {
 public:
  virtual ~AdminTransport() = default;
  /// Submits `cmd`; `out` is sent for ToDevice commands. Never throws.
  virtual AdminCompletion submit(const AdminCommand& cmd, const std::vector<uint8_t>& out = {}) = 0;
};

}  // namespace pts::device
