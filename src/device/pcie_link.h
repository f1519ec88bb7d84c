// device/pcie_link.h — the PCIe link speed and width of a block device's controller, read
// from sysfs: the first PCI function above /sys/class/block/NAME that has
// current_link_speed / current_link_width / max_link_speed / max_link_width. May use: model,
// device/sysfs.
#pragma once

#include <string>

#include "model/device.h"

namespace pts::device {

/// The link of block device `block_name` ("nvme0n1", "sda"). `sys_root` prefixes every path
/// ("" on a real system, a temp tree in tests). A device with no PCI function above it (loop,
/// virtual disks) gets an empty PcieLink (printed "n/a").
model::PcieLink read_pcie_link(const std::string& block_name, const std::string& sys_root = "");

/// "16.0 GT/s PCIe" → 16; "8 GT/s" → 8; "Unknown" → 0.
double parse_link_speed_gt_s(const std::string& text);

}  // namespace pts::device
