// sim/controller.cpp — the simulated NVMe controller behind device::AdminTransport: it
// answers the admin commands ptsuite sends with the data structures of the NVMe Base
// Specification 2.0 (offsets as device/nvme_decode.cpp reads them): Identify Controller /
// Namespace / active namespace list, SMART / Health and Sanitize Status logs, Get/Set
// Features Volatile Write Cache, Format NVM (SES 0/1/2) and Sanitize (block erase, crypto
// erase; progress in the log while it runs in virtual time). Anything else gets the status a
// controller gives for it. The identity says "simulated" (model, serial SIM-..., firmware).
#include <cmath>
#include <cstring>

#include "device/nvme_commands.h"
#include "sim/sim.h"
#include "sim/state_file.h"

namespace pts::sim {

namespace {

namespace nvme = device::nvme;
using device::AdminCommand;
using device::AdminCompletion;

void put(std::vector<uint8_t>& d, size_t off, uint64_t v, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i) d[off + i] = static_cast<uint8_t>(v >> (8 * i));
}

void put_text(std::vector<uint8_t>& d, size_t off, size_t bytes, const std::string& s) {
  for (size_t i = 0; i < bytes; ++i) d[off + i] = i < s.size() ? static_cast<uint8_t>(s[i]) : ' ';
}

AdminCompletion status(uint8_t sct, uint8_t sc) {
  AdminCompletion c;
  c.sct = sct;
  c.sc = sc;
  c.dnr = true;
  return c;
}

constexpr uint16_t kControllerId = 1;
constexpr uint8_t kInvalidOpcode = 0x01, kInvalidField = 0x02, kInvalidNamespace = 0x0B,
                  kSanitizeInProgress = 0x1D, kInvalidLogPage = 0x09;

uint8_t log2u(uint32_t v) {
  uint8_t n = 0;
  while ((1u << n) < v) ++n;
  return n;
}

class SimController final : public device::AdminTransport {
 public:
  explicit SimController(std::shared_ptr<DriveSession> s) : session_(std::move(s)) {}

  AdminCompletion submit(const AdminCommand& cmd, const std::vector<uint8_t>& out) override {
    AdminCompletion c;
    switch (cmd.opcode) {
      case nvme::kOpIdentify: c = identify(cmd); break;
      case nvme::kOpGetLogPage: c = get_log(cmd); break;
      case nvme::kOpGetFeatures: c = get_features(cmd); break;
      case nvme::kOpSetFeatures: c = set_features(cmd); break;
      case nvme::kOpFormatNvm: c = format(cmd); break;
      case nvme::kOpSanitize: c = sanitize(cmd); break;
      case nvme::kOpNamespaceManagement: c = namespace_management(cmd, out); break;
      case nvme::kOpNamespaceAttachment: c = namespace_attachment(cmd); break;
      default: return status(0, kInvalidOpcode);
    }
    if (cmd.direction == device::DataDirection::FromDevice && c.ok()) c.data.resize(cmd.data_bytes, 0);
    return c;
  }

 private:
  Drive& drive() { return session_->drive(); }

  AdminCompletion identify(const AdminCommand& cmd) {
    AdminCompletion c;
    c.data.assign(nvme::kIdentifyBytes, 0);
    auto& d = c.data;
    const SimParams& p = drive().params();
    switch (cmd.cdw10 & 0xFF) {
      case nvme::kCnsController: {
        put(d, 0, 0x0000, 2);  // no PCI vendor: nothing here is hardware
        put_text(d, 4, 20, session_->serial());
        put_text(d, 24, 40, "ptsuite simulated drive " + p.profile);
        put_text(d, 64, 8, "SIMF" + std::to_string(kStateFormatVersion));
        put(d, 80, 0x00010400, 4);             // VER 1.4
        put(d, 78, kControllerId, 2);           // CNTLID
        put(d, 256, (1u << 1) | (1u << 3), 2); // OACS: Format NVM, Namespace Management and Attachment
        put(d, 328, (1u << 0) | (1u << 1), 4); // SANICAP: crypto erase, block erase
        put(d, 280, p.capacity_bytes, 8);      // TNVMCAP (bytes, low 8 of 16)
        put(d, 296, drive().unallocated_bytes(), 8);  // UNVMCAP
        put(d, 516, Drive::kMaxNamespaces, 4); // NN: namespaces the controller supports
        put(d, 520, 1u << 2, 2);               // ONCS: Dataset Management (deallocate); no Save/Select (bit 4)
        d[524] = 1u << 2;                      // FNA: crypto erase in Format NVM
        d[525] = drive().vwc_present() ? 1 : 0;
        put_text(d, 768, 256, "nqn.2024-01.io.ptsuite:sim:" + session_->serial());
        for (size_t i = 768 + 27 + session_->serial().size(); i < 1024; ++i) d[i] = 0;
        return c;
      }
      case nvme::kCnsNamespace:
      case nvme::kCnsAllocatedNamespace: {
        const NamespaceExtent* ns = drive().find_namespace(cmd.nsid);
        if (cmd.nsid == 0 || cmd.nsid > Drive::kMaxNamespaces) return status(0, kInvalidNamespace);
        // CNS 00h of an allocated namespace that is not attached: all zeroes.
        if (!ns || ((cmd.cdw10 & 0xFF) == nvme::kCnsNamespace && !ns->attached)) return c;
        const uint64_t lbas = ns->size_bytes / p.lba_bytes;
        const uint64_t used = drive().ns_mapped_pages(*ns) * (p.page_bytes / p.lba_bytes);
        put(d, 0, lbas, 8);
        put(d, 8, lbas, 8);
        put(d, 16, used, 8);
        d[24] = 1u << 4;  // NSFEAT: OPTPERF (NPWG valid)
        d[25] = 0;        // NLBAF: one format
        d[26] = 0;        // FLBAS: format 0
        d[33] = 1;        // DLFEAT: deallocated blocks read as zeroes
        put(d, 64, p.page_bytes / p.lba_bytes - 1, 2);  // NPWG: the FTL page, 0-based
        d[128 + 2] = log2u(p.lba_bytes);                 // LBAF0: LBADS
        return c;
      }
      case nvme::kCnsActiveNamespaceList:
      case nvme::kCnsAllocatedNamespaceList: {
        const bool all = (cmd.cdw10 & 0xFF) == nvme::kCnsAllocatedNamespaceList;
        size_t at = 0;
        for (const auto& n : drive().namespaces())  // ascending NSIDs above cmd.nsid
          if (n.nsid > cmd.nsid && (all || n.attached) && at < 4096) put(d, at, n.nsid, 4), at += 4;
        return c;
      }
      default: return status(0, kInvalidField);
    }
  }

  AdminCompletion get_log(const AdminCommand& cmd) {
    AdminCompletion c;
    c.data.assign(cmd.data_bytes, 0);
    auto& d = c.data;
    const uint8_t lid = cmd.cdw10 & 0xFF;
    if (lid == nvme::kLidSmart) {
      if (d.size() < 512) return status(0, kInvalidField);
      const DriveCounters& k = drive().counters();
      put(d, 1, 313, 2);  // 40 C: the model has no thermal behaviour
      d[3] = 100;         // available spare
      d[4] = 10;          // available spare threshold
      d[5] = static_cast<uint8_t>(std::min(255.0, std::floor(drive().percentage_used())));
      put(d, 32, (k.host_read_bytes + 511999) / 512000, 8);
      put(d, 48, (k.host_write_bytes + 511999) / 512000, 8);
      put(d, 64, k.host_read_commands, 8);
      put(d, 80, k.host_write_commands, 8);
      put(d, 128, drive().now() / 3600'000'000'000ull, 8);
      return c;
    }
    if (lid == nvme::kLidSanitize) {
      if (d.size() < 32) return status(0, kInvalidField);
      const SanitizeState& s = drive().sanitize_state();
      uint16_t sprog = 0xFFFF;
      if (s.status == 2 && s.end_ns > s.start_ns)
        sprog = static_cast<uint16_t>(std::min<uint64_t>(
            65535, (drive().now() - s.start_ns) * 65536 / (s.end_ns - s.start_ns)));
      put(d, 0, sprog, 2);
      put(d, 2, s.status | (s.global_erased ? 1u << 8 : 0u), 2);
      put(d, 4, s.cdw10, 4);
      put(d, 8, 0xFFFFFFFF, 4);  // ETO: overwrite not supported
      put(d, 12, drive().sanitize_estimate_s(2), 4);
      put(d, 16, drive().sanitize_estimate_s(4), 4);
      put(d, 20, 0xFFFFFFFF, 4);
      put(d, 24, drive().sanitize_estimate_s(2), 4);
      put(d, 28, drive().sanitize_estimate_s(4), 4);
      return c;
    }
    return status(1, kInvalidLogPage);
  }

  // ONCS bit 4 is clear (Identify above): like a controller without the Save and Select
  // fields, a Get Features selecting anything but the current value (SEL, cdw10 bits 10:8) and
  // a Set Features asking to save (SV, cdw10 bit 31) get Invalid Field in Command.
  AdminCompletion get_features(const AdminCommand& cmd) {
    if ((cmd.cdw10 & 0xFF) != nvme::kFidVolatileWriteCache || !drive().vwc_present()) return status(0, kInvalidField);
    if ((cmd.cdw10 >> 8) & 0x7) return status(0, kInvalidField);
    AdminCompletion c;
    c.cdw0 = drive().vwc_enabled() ? 1 : 0;
    return c;
  }

  AdminCompletion set_features(const AdminCommand& cmd) {
    if ((cmd.cdw10 & 0xFF) != nvme::kFidVolatileWriteCache || !drive().vwc_present()) return status(0, kInvalidField);
    if (cmd.cdw10 >> 31) return status(0, kInvalidField);
    if (drive().sanitize_state().status == 2) return status(0, kSanitizeInProgress);
    if (auto st = session_->begin_change(RecordType::SetWriteCache); !st.ok()) return failed(st.error());
    const bool on = cmd.cdw11 & 1u;
    drive().set_vwc(on);
    session_->set_write_cache(on);
    return AdminCompletion{};
  }

  AdminCompletion format(const AdminCommand& cmd) {
    const NamespaceExtent* ns = drive().find_namespace(cmd.nsid);
    if (cmd.nsid != nvme::kNsidAll && (!ns || !ns->attached)) return status(0, kInvalidNamespace);
    const uint32_t lbaf = (cmd.cdw10 & 0xF) | ((cmd.cdw10 >> 12 & 0x3) << 4);
    const uint8_t ses = (cmd.cdw10 >> 9) & 0x7;
    const bool mset = cmd.cdw10 & (1u << 4), pil = cmd.cdw10 & (1u << 8);
    const uint8_t pi = (cmd.cdw10 >> 5) & 0x7;
    if (lbaf != 0 || mset || pil || pi != 0 || ses > 2) return status(1, 0x0A);  // Invalid Format
    if (drive().sanitize_state().status == 2) return status(0, kSanitizeInProgress);
    // FNA bit 0 is clear: a Format of one namespace of several erases that namespace only.
    const bool whole = cmd.nsid == nvme::kNsidAll ||
                       (ns->offset_bytes == 0 && ns->size_bytes == drive().params().capacity_bytes);
    if (!whole) {
      if (auto st = session_->begin_change(RecordType::Namespace); !st.ok()) return failed(st.error());
      apply_namespace_op(drive(), NamespaceOp::Format, cmd.nsid, ses);
      session_->namespace_changed(NamespaceOp::Format, cmd.nsid, ses);
      return AdminCompletion{};
    }
    if (auto st = session_->begin_change(RecordType::Format); !st.ok()) return failed(st.error());
    drive().format(ses);
    session_->formatted(ses);
    return AdminCompletion{};
  }

  // Namespace Management (NVMe Base 2.0 §5.22): create (SEL 0) from the host buffer's NSZE
  // and FLBAS (format 0 only; NCAP must equal NSZE: the model has no thin provisioning), the
  // new NSID in dword 0; delete (SEL 1) of one NSID or all. A namespace is made detached.
  AdminCompletion namespace_management(const AdminCommand& cmd, const std::vector<uint8_t>& in) {
    if (drive().sanitize_state().status == 2) return status(0, kSanitizeInProgress);
    const uint32_t sel = cmd.cdw10 & 0xF;
    if (sel == 0) {
      if (in.size() < 30) return status(0, kInvalidField);
      uint64_t nsze = 0, ncap = 0;
      for (int i = 7; i >= 0; --i) nsze = nsze << 8 | in[i], ncap = ncap << 8 | in[8 + i];
      if ((in[26] & 0xF) != 0 || nsze == 0 || ncap != nsze) return status(0, kInvalidField);
      const uint64_t bytes = nsze * drive().params().lba_bytes;
      if (drive().namespaces().size() >= Drive::kMaxNamespaces) return status(1, 0x16);  // Namespace Identifier Unavailable
      if (bytes > drive().unallocated_bytes()) return status(1, 0x15);  // Namespace Insufficient Capacity
      const uint32_t expect = next_free_nsid();
      if (auto st = session_->begin_change(RecordType::Namespace); !st.ok()) return failed(st.error());
      if (!apply_namespace_op(drive(), NamespaceOp::Create, expect, bytes)) return status(1, 0x15);
      session_->namespace_changed(NamespaceOp::Create, expect, bytes);
      AdminCompletion c;
      c.cdw0 = expect;
      return c;
    }
    if (sel == 1) {
      if (cmd.nsid != nvme::kNsidAll && !drive().find_namespace(cmd.nsid)) return status(0, kInvalidNamespace);
      if (auto st = session_->begin_change(RecordType::Namespace); !st.ok()) return failed(st.error());
      apply_namespace_op(drive(), NamespaceOp::Delete, cmd.nsid, 0);
      session_->namespace_changed(NamespaceOp::Delete, cmd.nsid, 0);
      return AdminCompletion{};
    }
    return status(0, kInvalidField);
  }

  AdminCompletion namespace_attachment(const AdminCommand& cmd) {
    const uint32_t sel = cmd.cdw10 & 0xF;
    const NamespaceExtent* ns = drive().find_namespace(cmd.nsid);
    if (!ns) return status(0, kInvalidNamespace);
    if (sel > 1) return status(0, kInvalidField);
    if (ns->attached == (sel == 0)) return status(1, sel == 0 ? 0x18 : 0x1A);  // already attached / not attached
    const NamespaceOp op = sel == 0 ? NamespaceOp::Attach : NamespaceOp::Detach;
    if (auto st = session_->begin_change(RecordType::Namespace); !st.ok()) return failed(st.error());
    apply_namespace_op(drive(), op, cmd.nsid, 0);
    session_->namespace_changed(op, cmd.nsid, 0);
    return AdminCompletion{};
  }

  uint32_t next_free_nsid() {
    uint32_t nsid = 1;
    while (drive().find_namespace(nsid)) ++nsid;
    return nsid;
  }

  AdminCompletion sanitize(const AdminCommand& cmd) {
    const uint8_t act = cmd.cdw10 & 0x7;
    if (drive().sanitize_state().status == 2) return status(0, kSanitizeInProgress);
    if (act == uint8_t(nvme::Sanact::ExitFailureMode)) return AdminCompletion{};
    if (act != uint8_t(nvme::Sanact::BlockErase) && act != uint8_t(nvme::Sanact::CryptoErase))
      return status(0, kInvalidField);
    if (auto st = session_->begin_change(RecordType::Sanitize); !st.ok()) return failed(st.error());
    drive().start_sanitize(act, cmd.cdw10);
    session_->sanitized(act, cmd.cdw10);
    return AdminCompletion{};
  }

  static AdminCompletion failed(const core::Error& e) {
    AdminCompletion c;
    c.sys_errno = e.sys_errno ? e.sys_errno : EIO;
    return c;
  }

  std::shared_ptr<DriveSession> session_;
};

}  // namespace

std::unique_ptr<device::AdminTransport> make_sim_controller(std::shared_ptr<DriveSession> session) {
  return std::make_unique<SimController>(std::move(session));
}

}  // namespace pts::sim
