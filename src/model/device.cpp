// model/device.cpp — plain-words labels for what model/device.h holds (the PCIe link).
#include "model/device.h"

#include <cmath>
#include <cstdio>

namespace pts::model {

std::string pcie_generation(double gt_s) {
  static const struct {
    double gt_s;
    const char* gen;
  } kGens[] = {{2.5, "Gen1"}, {5, "Gen2"}, {8, "Gen3"}, {16, "Gen4"}, {32, "Gen5"}, {64, "Gen6"}};
  for (const auto& g : kGens)
    if (std::fabs(gt_s - g.gt_s) < 0.05) return g.gen;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g GT/s", gt_s);
  return buf;
}

std::string pcie_link_label(const PcieLink& link) {
  if (link.source.empty()) return "n/a (not a PCIe device)";
  if (link.current_gt_s <= 0 || link.current_width == 0) return "PCIe, link speed not reported";
  const std::string now = pcie_generation(link.current_gt_s) + " x" + std::to_string(link.current_width);
  const bool has_max = link.max_gt_s > 0 && link.max_width > 0;
  const std::string max = has_max ? pcie_generation(link.max_gt_s) + " x" + std::to_string(link.max_width) : "";
  if (!has_max || max == now) return "PCIe " + now;
  return "PCIe " + now + " (max " + max + ")";
}

}  // namespace pts::model
