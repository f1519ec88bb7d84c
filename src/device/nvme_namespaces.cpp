// device/nvme_namespaces.cpp — see nvme_namespaces.h.
#include "device/nvme_namespaces.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "device/nvme_commands.h"
#include "device/nvme_decode.h"
#include "device/nvme_identity.h"

namespace pts::device {

namespace {

core::Error failed(const std::string& what, const AdminCompletion& c) {
  if (c.sys_errno) return core::Error(core::ErrorKind::Device, what + ": " + std::strerror(c.sys_errno), c.sys_errno);
  core::Error e(core::ErrorKind::Device, what + ": " + nvme_status_text(c.sct, c.sc, c.dnr));
  e.nvme = core::NvmeStatus{c.sct, c.sc, c.dnr};
  return e;
}

uint64_t le64(const std::vector<uint8_t>& d, size_t off) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | (off + i < d.size() ? d[off + i] : 0);
  return v;
}

/// Why the controller cannot delete and create namespaces, "" when it can: OACS bit 3 says
/// Namespace Management and Attachment; a controller that keeps the Commands Supported and
/// Effects log (LPA bit 1) must list both commands there too. QEMU 7.2's controller, for one,
/// sets OACS bit 3 for Attachment alone and answers Namespace Management with Invalid Command
/// Opcode: asked first, nothing is sent that it would half carry out.
std::string management_missing(AdminTransport& t, const nvme::IdCtrl& ctrl) {
  if (!ctrl.oacs_ns_mgmt()) return "its Identify Controller OACS bit 3 is clear";
  if (!ctrl.lpa_commands_effects()) return "";
  AdminCompletion log = t.submit(nvme::get_commands_effects_log());
  if (!log.ok()) return "";  // not readable after all: OACS is the controller's word
  std::string missing;
  for (auto [op, name] : {std::pair{nvme::kOpNamespaceManagement, "Namespace Management (0Dh)"},
                          std::pair{nvme::kOpNamespaceAttachment, "Namespace Attachment (15h)"}})
    if (!nvme::admin_command_supported(log.data, op)) missing += (missing.empty() ? "" : " and ") + std::string(name);
  if (missing.empty()) return "";
  return "its Identify Controller OACS bit 3 is set, but its Commands Supported and Effects log (LID 05h) does not "
         "list " + missing;
}

}  // namespace

core::Result<model::NamespaceInventory> read_namespaces(const NamespaceAccess& a) {
  AdminCompletion c = a.transport->submit(nvme::identify_controller());
  if (!c.ok()) return failed("Identify Controller", c);
  auto ctrl = nvme::decode_id_ctrl(c.data);
  if (!ctrl.ok()) return ctrl.error();
  model::NamespaceInventory inv;
  inv.management_missing = management_missing(*a.transport, *ctrl);
  inv.management = inv.management_missing.empty();
  inv.max_namespaces = ctrl->nn;
  inv.controller_id = static_cast<uint16_t>(c.data.size() > 79 ? c.data[78] | c.data[79] << 8 : 0);
  inv.total_bytes = le64(c.data, 280);        // TNVMCAP (low 64 bits)
  inv.unallocated_bytes = le64(c.data, 296);  // UNVMCAP
  std::vector<uint32_t> active, listed;
  AdminCompletion act = a.transport->submit(nvme::identify_active_namespaces());
  if (!act.ok()) return failed("Identify active namespace list", act);
  active = nvme::decode_ns_list(act.data);
  listed = active;
  if (ctrl->oacs_ns_mgmt()) {  // also a controller with Attachment alone lists the detached ones
    AdminCompletion all = a.transport->submit(nvme::identify_allocated_namespaces());
    if (all.ok()) listed = nvme::decode_ns_list(all.data);
  }
  std::optional<NvmeSubsystem> sub;
  if (a.subsystem)
    if (auto s = a.subsystem(); s.ok()) sub = *s;
  for (uint32_t nsid : listed) {
    const bool attached = std::find(active.begin(), active.end(), nsid) != active.end();
    AdminCompletion n = a.transport->submit(attached || !ctrl->oacs_ns_mgmt() ? nvme::identify_namespace(nsid)
                                                                               : nvme::identify_allocated_namespace(nsid));
    if (!n.ok()) return failed("Identify Namespace " + std::to_string(nsid), n);
    auto id = nvme::decode_id_ns(n.data);
    if (!id.ok()) return id.error();
    model::NamespaceEntry e;
    e.nsid = nsid;
    e.attached = attached;
    e.lba_bytes = id->lba_bytes();
    e.lba_format = id->current_lbaf();
    e.size_bytes = id->nsze * e.lba_bytes;
    e.used_bytes = id->nuse * e.lba_bytes;
    if (sub)
      for (const auto& node : sub->namespaces)
        if (node.nsid == nsid) e.block = node.block;
    if (!e.block.empty() && a.in_use)
      if (auto g = a.in_use(e.block); !g.ok()) {
        // The guard's refusal, as a fact of the list: without "refused: ... nothing was written".
        e.in_use = true;
        e.in_use_why = g.error().message();
        if (e.in_use_why.rfind("refused: ", 0) == 0) e.in_use_why.erase(0, 9);
        if (const auto at = e.in_use_why.rfind("; nothing was written"); at != std::string::npos)
          e.in_use_why.erase(at);
      }
    inv.namespaces.push_back(e);
  }
  return inv;
}

core::Result<model::NamespaceInventory> recreate_namespaces(const NamespaceAccess& a, uint32_t count,
                                                            uint64_t size_bytes) {
  auto before = read_namespaces(a);
  if (!before.ok()) return before.error();
  if (!before->management)
    return core::Error(core::ErrorKind::Device, "the controller does not support Namespace Management (" +
                                                    before->management_missing +
                                                    "): it cannot delete or create namespaces; nothing was changed");
  std::vector<std::string> e;
  if (count == 0 || count > before->max_namespaces)
    e.push_back("--create " + std::to_string(count) + ": the controller supports 1 to " +
                std::to_string(before->max_namespaces) + " namespaces");
  const uint32_t lba = before->namespaces.empty() ? 512 : before->namespaces.front().lba_bytes;
  if (size_bytes == 0 || size_bytes % lba)
    e.push_back("--size " + std::to_string(size_bytes) + ": must be a whole number of " + std::to_string(lba) +
                "-byte blocks");
  uint64_t capacity = before->total_bytes;
  if (capacity == 0) {  // not reported: what is allocated plus what is not
    capacity = before->unallocated_bytes;
    for (const auto& n : before->namespaces) capacity += n.size_bytes;
  }
  if (capacity && static_cast<long double>(size_bytes) * count > capacity)
    e.push_back("--create " + std::to_string(count) + " --size " + std::to_string(size_bytes) + ": " +
                std::to_string(count) + " namespaces need more than the controller's " + std::to_string(capacity) +
                " bytes");
  if (!e.empty()) return core::Error(core::ErrorKind::BadInput, e);
  // Guarded like a purge: every namespace that goes is examined first, nothing sent before.
  for (const auto& n : before->namespaces) {
    if (!n.attached) continue;
    if (n.block.empty())
      return core::Error(core::ErrorKind::Refused, "refused: namespace " + std::to_string(n.nsid) +
                                                       " has no block device on this host, so it cannot be examined; "
                                                       "nothing was changed");
    if (n.block == a.own_block) continue;
    if (auto g = a.examine(n.block); !g.ok()) {
      core::Error err = g.error();
      err.messages.front() += " — /dev/" + n.block + " is namespace " + std::to_string(n.nsid) +
                              ", which --create would delete; nothing was changed";
      return err;
    }
  }
  const uint8_t flbas = static_cast<uint8_t>(before->namespaces.empty() ? 0 : before->namespaces.front().lba_format & 0xF);
  bool first = true;
  for (const auto& n : before->namespaces) {
    AdminCompletion d = a.transport->submit(nvme::namespace_delete(n.nsid));
    // The first command refused as unknown: the controller has no Namespace Management after
    // all, and nothing has changed yet.
    if (first && !d.sys_errno && d.sct == 0 && d.sc == nvme::kScInvalidOpcode)
      return core::Error(core::ErrorKind::Device,
                         "the controller does not support Namespace Management: it answered the first delete "
                         "(namespace " + std::to_string(n.nsid) + ") with " + nvme_status_text(d.sct, d.sc, d.dnr) +
                             "; it cannot delete or create namespaces; nothing was changed");
    if (!d.ok()) return failed("Namespace Management: delete namespace " + std::to_string(n.nsid), d);
    first = false;
  }
  for (uint32_t k = 0; k < count; ++k) {
    AdminCompletion made = a.transport->submit(nvme::namespace_create(),
                                               nvme::namespace_create_data(size_bytes / lba, flbas));
    if (!made.ok()) return failed("Namespace Management: create namespace " + std::to_string(k + 1), made);
    const uint32_t nsid = made.cdw0;
    AdminCompletion at = a.transport->submit(nvme::namespace_attach(nsid, true),
                                             nvme::namespace_attach_data(before->controller_id));
    if (!at.ok()) return failed("Namespace Attachment: attach namespace " + std::to_string(nsid), at);
  }
  return read_namespaces(a);
}

}  // namespace pts::device
