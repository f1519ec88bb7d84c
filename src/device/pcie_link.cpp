// device/pcie_link.cpp — see pcie_link.h.
#include "device/pcie_link.h"

#include <cstdlib>
#include <filesystem>

#include "device/sysfs.h"

namespace pts::device {

namespace fs = std::filesystem;

double parse_link_speed_gt_s(const std::string& text) {
  const char* s = text.c_str();
  char* end = nullptr;
  const double v = std::strtod(s, &end);
  if (end == s || v <= 0) return 0;
  return v;
}

model::PcieLink read_pcie_link(const std::string& block_name, const std::string& sys_root) {
  model::PcieLink link;
  std::error_code ec;
  // /sys/class/block/NAME is a symlink into /sys/devices/...; walk up from its real path.
  fs::path at = fs::canonical(sys_root + "/sys/class/block/" + block_name, ec);
  if (ec) return link;
  const fs::path top = fs::path(sys_root + "/sys/devices").lexically_normal();
  for (; !at.empty() && at != at.root_path(); at = at.parent_path()) {
    const std::string dir = at.string();
    if (dir.size() < top.string().size()) break;
    auto speed = sysfs::read_line(dir + "/current_link_speed");
    auto width = sysfs::read_line(dir + "/current_link_width");
    if (!speed || !width) continue;
    link.current_gt_s = parse_link_speed_gt_s(*speed);
    link.current_width = static_cast<uint32_t>(std::strtoul(width->c_str(), nullptr, 10));
    link.max_gt_s = parse_link_speed_gt_s(sysfs::read_line(dir + "/max_link_speed").value_or(""));
    link.max_width = static_cast<uint32_t>(
        std::strtoul(sysfs::read_line(dir + "/max_link_width").value_or("0").c_str(), nullptr, 10));
    link.source = "sysfs " + dir.substr(sys_root.size());
    return link;
  }
  return link;
}

}  // namespace pts::device
