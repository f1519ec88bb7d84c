// engine/block_stat.cpp — see block_stat.h.
#include "engine/block_stat.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/clock.h"

namespace pts::engine {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> slurp(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

uint64_t read_number(const fs::path& path) {
  auto text = slurp(path);
  if (!text) return 0;
  try {
    return std::stoull(*text);
  } catch (...) {
    return 0;
  }
}

/// DEVNAME= from uevent, else the directory's name.
std::string device_name(const fs::path& dir) {
  if (auto uevent = slurp(dir / "uevent")) {
    std::istringstream lines(*uevent);
    for (std::string line; std::getline(lines, line);)
      if (line.rfind("DEVNAME=", 0) == 0) return line.substr(8);
  }
  return dir.filename().string();
}

}  // namespace

std::optional<BlockStatSample> parse_block_stat(const std::string& text) {
  std::istringstream in(text);
  BlockStatSample s;
  for (size_t i = 0; i < BlockStatSample::kFieldCount; ++i)
    if (!(in >> s.v[i])) return std::nullopt;
  return s;
}

model::KernelCounters kernel_delta(const std::string& device, const BlockStatSample& begin, const BlockStatSample& end,
                                   uint32_t in_flight_limit, uint64_t tc_x_qd) {
  using F = BlockStatSample;
  // Counters are unsigned long in the kernel and only grow; a wrap between two reads of one
  // cell is still a correct unsigned difference.
  auto d = [&](F::Field f) { return end.v[f] - begin.v[f]; };
  model::KernelCounters k;
  k.device = device;
  k.read_ios = d(F::kReadIos);
  k.write_ios = d(F::kWriteIos);
  k.read_merges = d(F::kReadMerges);
  k.write_merges = d(F::kWriteMerges);
  k.read_bytes = d(F::kReadSectors) * 512;  // the stat file counts 512-byte sectors on every device
  k.write_bytes = d(F::kWriteSectors) * 512;
  k.host_ios = k.read_ios + k.write_ios + k.read_merges + k.write_merges;
  k.ticks_ms = d(F::kReadTicks) + d(F::kWriteTicks);
  k.weighted_ms = d(F::kTimeInQueue);
  k.busy_ms = d(F::kIoTicks);
  k.wall_ns = end.at_ns > begin.at_ns ? end.at_ns - begin.at_ns : 0;
  if (k.wall_ns > 0) {
    const double wall_ms = static_cast<double>(k.wall_ns) / 1e6;
    k.avg_in_flight = static_cast<double>(k.weighted_ms) / wall_ms;
    k.utilization = static_cast<double>(k.busy_ms) / wall_ms;
  }
  const uint64_t completed = k.read_ios + k.write_ios;
  if (completed > 0) k.mean_device_time_ns = static_cast<double>(k.ticks_ms) * 1e6 / static_cast<double>(completed);
  k.in_flight_limit = in_flight_limit;
  k.saturated = in_flight_limit > 0 && tc_x_qd > in_flight_limit;
  return k;
}

std::optional<BlockStatSource> BlockStatSource::for_fd(int fd, const std::string& sysfs_root) {
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISBLK(st.st_mode)) return std::nullopt;
  return for_dev(major(st.st_rdev), minor(st.st_rdev), sysfs_root);
}

std::optional<BlockStatSource> BlockStatSource::for_dev(unsigned major, unsigned minor, const std::string& sysfs_root) {
  std::error_code ec;
  const fs::path link = fs::path(sysfs_root) / "dev" / "block" / (std::to_string(major) + ":" + std::to_string(minor));
  const fs::path dir = fs::canonical(link, ec);
  if (ec) return std::nullopt;
  BlockStatSource src;
  src.stat_path_ = (dir / "stat").string();
  if (!src.read()) return std::nullopt;
  src.device_ = device_name(dir);
  // A partition's queue is its disk's: the parent directory.
  const fs::path disk = fs::exists(dir / "partition") ? dir.parent_path() : dir;
  const uint64_t tags = read_number(disk / "queue" / "nr_requests");
  uint64_t hw_queues = 0;
  for (const auto& e : fs::directory_iterator(disk / "mq", ec))
    if (e.is_directory()) ++hw_queues;
  if (hw_queues == 0) hw_queues = 1;  // single-queue (or no mq/ in sysfs): one queue of nr_requests
  src.in_flight_limit_ = static_cast<uint32_t>(std::min<uint64_t>(tags * hw_queues, UINT32_MAX));
  return src;
}

std::optional<BlockStatSample> BlockStatSource::read() const {
  // open + read + close (a few microseconds; an ifstream costs more between two cells)
  const int fd = open(stat_path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  char buf[512];
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return std::nullopt;
  auto s = parse_block_stat(std::string(buf, static_cast<size_t>(n)));
  if (s) s->at_ns = core::monotonic_ns();
  return s;
}

}  // namespace pts::engine
