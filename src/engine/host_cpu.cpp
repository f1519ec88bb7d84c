// engine/host_cpu.cpp — see host_cpu.h.
#include "engine/host_cpu.h"

#include <fstream>
#include <sstream>

namespace pts::engine {

std::optional<HostCpuTicks> parse_host_cpu(const std::string& stat_text) {
  std::istringstream in(stat_text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("cpu ", 0) != 0) continue;
    std::istringstream f(line.substr(4));
    // user nice system idle iowait irq softirq steal [guest guest_nice]
    uint64_t v[8] = {};
    for (int i = 0; i < 8; ++i)
      if (!(f >> v[i])) {
        if (i < 4) return std::nullopt;  // every kernel since 2.6 has at least these four
        break;
      }
    HostCpuTicks t;
    t.busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
    t.total = t.busy + v[3] + v[4];
    return t;
  }
  return std::nullopt;
}

std::optional<HostCpuTicks> read_host_cpu(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_host_cpu(ss.str());
}

std::optional<double> host_cpu_busy_pct(const HostCpuTicks& before, const HostCpuTicks& after) {
  if (after.total <= before.total || after.busy < before.busy) return std::nullopt;
  return 100.0 * static_cast<double>(after.busy - before.busy) / static_cast<double>(after.total - before.total);
}

}  // namespace pts::engine
