// engine/host_cpu.h — the whole host's CPU use over a cell as the kernel counts it: the
// aggregate "cpu" line of /proc/stat, in USER_HZ ticks summed over every CPU. Busy = user +
// nice + system + irq + softirq + steal; all = busy + idle + iowait (guest time is already
// inside user and nice, so it is not added again). Beside the process's own CPU (rusage), this
// is what DIRTH's "System CPU Utilization" page shows. May use: std.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace pts::engine {

struct HostCpuTicks {
  uint64_t busy = 0;
  uint64_t total = 0;
};

/// The "cpu " line of `stat_text` (the text of /proc/stat); nullopt when it has none or it is
/// malformed.
std::optional<HostCpuTicks> parse_host_cpu(const std::string& stat_text);

/// Reads /proc/stat (`path` for tests); nullopt when it cannot be read or parsed.
std::optional<HostCpuTicks> read_host_cpu(const std::string& path = "/proc/stat");

/// Busy share of all CPUs between two readings, in percent (100 = every CPU busy the whole
/// time); nullopt when no tick passed between them (a cell shorter than one tick) or the
/// counters went backwards.
std::optional<double> host_cpu_busy_pct(const HostCpuTicks& before, const HostCpuTicks& after);

}  // namespace pts::engine
