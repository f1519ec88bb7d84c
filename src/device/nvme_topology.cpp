// device/nvme_topology.cpp — see nvme_topology.h. May use: core, sysfs.
#include "device/nvme_topology.h"

#include <algorithm>
#include <cstdio>

#include "device/sysfs.h"

namespace pts::device {

namespace {

std::string last_component(const std::string& p) {
  std::string s = p;
  while (!s.empty() && s.back() == '/') s.pop_back();
  return s.substr(s.find_last_of('/') + 1);
}

/// The sysfs parent of /sys/class/block/<block>: "nvme-subsys0" for a multipath head,
/// "nvme0" for a controller's own namespace.
std::string block_parent(const std::string& block, const std::string& root) {
  auto link = sysfs::read_link(root + "/sys/class/block/" + block);
  if (!link) return "";
  std::string dir = *link;
  const auto slash = dir.find_last_of('/');
  if (slash == std::string::npos) return "";
  return last_component(dir.substr(0, slash));
}

std::optional<uint32_t> nsid_of_block(const std::string& block, const std::string& root) {
  auto text = sysfs::read_line(root + "/sys/class/block/" + block + "/nsid");
  if (!text || text->empty()) return std::nullopt;
  try {
    return static_cast<uint32_t>(std::stoul(*text));
  } catch (...) {
    return std::nullopt;
  }
}

bool is_hidden(const std::string& block, const std::string& root) {
  return sysfs::read_line(root + "/sys/class/block/" + block + "/hidden").value_or("0") == "1";
}

void add_controller(NamespaceNode& n, const std::string& ctrl) {
  if (std::find(n.controllers.begin(), n.controllers.end(), ctrl) == n.controllers.end()) n.controllers.push_back(ctrl);
}

core::Result<NvmeSubsystem> read_subsystem(const std::string& name, const std::string& root) {
  NvmeSubsystem sub;
  sub.name = name;
  const std::string dir = root + "/sys/class/nvme-subsystem/" + name;
  const auto entries = sysfs::list_dir(dir);
  if (entries.empty()) return core::bad_input("NVMe subsystem " + name + ": not readable in sysfs (" + dir + ")");
  for (const auto& e : entries) {
    if (sysfs::exists(root + "/sys/class/nvme/" + e)) {
      sub.controllers.push_back(e);
    } else if (sysfs::exists(root + "/sys/class/block/" + e)) {  // multipath heads
      if (auto nsid = nsid_of_block(e, root)) sub.namespaces.push_back({e, *nsid, {}});
    }
  }
  // Each controller's own block devices: namespaces without multipath, or hidden paths of a
  // head (which tell which controllers reach that head).
  for (const auto& c : sub.controllers) {
    for (const auto& e : sysfs::list_dir(root + "/sys/class/nvme/" + c)) {
      if (!sysfs::exists(root + "/sys/class/block/" + e)) continue;
      auto nsid = nsid_of_block(e, root);
      if (!nsid) continue;
      auto head = std::find_if(sub.namespaces.begin(), sub.namespaces.end(),
                               [&](const NamespaceNode& n) { return n.nsid == *nsid && n.block != e; });
      if (is_hidden(e, root) || head != sub.namespaces.end()) {
        if (head != sub.namespaces.end()) add_controller(*head, c);
        continue;
      }
      sub.namespaces.push_back({e, *nsid, {c}});
    }
  }
  std::sort(sub.namespaces.begin(), sub.namespaces.end(),
            [](const NamespaceNode& a, const NamespaceNode& b) { return a.nsid < b.nsid; });
  return sub;
}

std::string subsystem_holding_controller(const std::string& ctrl, const std::string& root) {
  for (const auto& s : sysfs::list_dir(root + "/sys/class/nvme-subsystem"))
    if (sysfs::exists(root + "/sys/class/nvme-subsystem/" + s + "/" + ctrl)) return s;
  return "";
}

std::string hex(const std::string& bytes) {
  std::string out;
  char b[3];
  for (unsigned char c : bytes) {
    std::snprintf(b, sizeof b, "%02x", c);
    out += b;
  }
  return out;
}

}  // namespace

core::Result<NvmeSubsystem> subsystem_of_controller(const std::string& ctrl, const std::string& root) {
  const std::string sub = subsystem_holding_controller(ctrl, root);
  if (sub.empty()) return core::bad_input("NVMe controller " + ctrl + ": no subsystem in sysfs lists it");
  return read_subsystem(sub, root);
}

core::Result<NvmeSubsystem> subsystem_of_namespace(const std::string& block, const std::string& root) {
  const std::string parent = block_parent(block, root);
  if (parent.empty()) return core::bad_input("/dev/" + block + ": not found in sysfs");
  if (sysfs::exists(root + "/sys/class/nvme-subsystem/" + parent)) return read_subsystem(parent, root);
  if (sysfs::exists(root + "/sys/class/nvme/" + parent)) return subsystem_of_controller(parent, root);
  return core::bad_input("/dev/" + block + ": its sysfs parent " + parent + " is neither an NVMe subsystem nor a controller");
}

std::optional<std::string> namespace_block(const NvmeSubsystem& sub, const std::string& ctrl, uint32_t nsid) {
  for (const auto& n : sub.namespaces)
    if (n.nsid == nsid && std::find(n.controllers.begin(), n.controllers.end(), ctrl) != n.controllers.end())
      return n.block;
  return std::nullopt;
}

core::Result<std::string> block_of_generic(const std::string& ng, uint32_t nsid, const std::string& root) {
  auto link = sysfs::read_link(root + "/sys/class/nvme-generic/" + ng);
  const auto slash = link ? link->find_last_of('/') : std::string::npos;
  if (slash == std::string::npos) return core::bad_input("generic node " + ng + ": not found in sysfs");
  const std::string parent = last_component(link->substr(0, slash));
  auto list = [](const NvmeSubsystem& sub) {
    std::string out;
    for (const auto& n : sub.namespaces)
      out += (out.empty() ? "" : ", ") + ("/dev/" + n.block + " (NSID " + std::to_string(n.nsid) + ")");
    return out.empty() ? std::string("none") : out;
  };
  if (sysfs::exists(root + "/sys/class/nvme-subsystem/" + parent)) {  // multipath: a head's node
    auto sub = read_subsystem(parent, root);
    if (!sub.ok()) return sub.error();
    for (const auto& n : sub->namespaces)
      if (n.nsid == nsid) return n.block;
    return core::bad_input("generic node " + ng + " is NSID " + std::to_string(nsid) + " of " + parent +
                           ", which has no block device for it (namespaces: " + list(*sub) + ")");
  }
  if (!sysfs::exists(root + "/sys/class/nvme/" + parent))
    return core::bad_input("generic node " + ng + ": its sysfs parent " + parent +
                           " is neither an NVMe subsystem nor a controller");
  auto sub = subsystem_of_controller(parent, root);
  if (!sub.ok()) return sub.error();
  if (auto block = namespace_block(*sub, parent, nsid)) return *block;
  return core::bad_input("generic node " + ng + " is NSID " + std::to_string(nsid) + " on controller " + parent +
                         ", which has no block device for it (namespaces: " + list(*sub) + ")");
}

std::string hex_id(const std::vector<uint8_t>& bytes) {
  if (std::all_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b == 0; })) return "";
  return hex(std::string(bytes.begin(), bytes.end()));
}

std::string expected_wwid(const NamespaceIds& ids, uint16_t vid, const std::string& serial, const std::string& model,
                          uint32_t nsid) {
  if (const std::string u = hex_id(ids.uuid); u.size() == 32)
    return "uuid." + u.substr(0, 8) + "-" + u.substr(8, 4) + "-" + u.substr(12, 4) + "-" + u.substr(16, 4) + "-" +
           u.substr(20);
  if (const std::string n = hex_id(ids.nguid); !n.empty()) return "eui." + n;
  if (const std::string e = hex_id(ids.eui64); !e.empty()) return "eui." + e;
  auto strip = [](std::string s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.pop_back();
    return s;
  };
  char head[32];
  std::snprintf(head, sizeof head, "nvme.%04x-", vid);
  char tail[16];
  std::snprintf(tail, sizeof tail, "-%08x", nsid);
  return head + hex(strip(serial)) + "-" + hex(strip(model)) + tail;
}

}  // namespace pts::device
