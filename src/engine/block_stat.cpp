// engine/block_stat.cpp — see block_stat.h.
#include "engine/block_stat.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

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

/// The path disks of an NVMe multipath head (nvme0n1 in an nvme-subsystem directory): each
/// controller of the subsystem has one (nvme0c0n1) for the head's NSID. Kernels before 6.3 count
/// nothing on the head (its stat stays zero); every request is counted on the path it took.
std::vector<fs::path> multipath_paths(const fs::path& head) {
  std::vector<fs::path> out;
  std::error_code ec;
  const fs::path subsystem = head.parent_path();
  if (!fs::exists(subsystem / "subsysnqn", ec) || !fs::exists(head / "nsid", ec)) return out;
  const uint64_t nsid = read_number(head / "nsid");
  for (const auto& ctrl : fs::directory_iterator(subsystem, ec)) {
    if (!fs::exists(ctrl.path() / "cntlid", ec)) continue;
    for (const auto& d : fs::directory_iterator(ctrl.path(), ec))
      if (fs::exists(d.path() / "stat", ec) && fs::exists(d.path() / "nsid", ec) && read_number(d.path() / "nsid") == nsid)
        out.push_back(fs::canonical(d.path(), ec));
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// queue/nr_requests × hardware queues of a disk; 0 when unknown.
uint32_t queue_limit(const fs::path& disk) {
  std::error_code ec;
  const uint64_t tags = read_number(disk / "queue" / "nr_requests");
  uint64_t hw_queues = 0;
  for (const auto& e : fs::directory_iterator(disk / "mq", ec))
    if (e.is_directory()) ++hw_queues;
  if (hw_queues == 0) hw_queues = 1;  // single-queue (or no mq/ in sysfs): one queue of nr_requests
  return static_cast<uint32_t>(std::min<uint64_t>(tags * hw_queues, UINT32_MAX));
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
  src.device_ = device_name(dir);
  // A multipath head counts its I/O on its paths: their sum, and their queues' limit.
  if (const auto paths = multipath_paths(dir); !paths.empty()) {
    std::string names;
    for (const auto& p : paths) {
      src.stat_paths_.push_back((p / "stat").string());
      src.in_flight_limit_ += queue_limit(p);
      names += (names.empty() ? "" : "+") + p.filename().string();
    }
    src.device_ += " via " + names;
    if (!src.read()) return std::nullopt;
    return src;
  }
  src.stat_paths_.push_back((dir / "stat").string());
  if (!src.read()) return std::nullopt;
  // A partition's queue is its disk's: the parent directory.
  src.in_flight_limit_ = queue_limit(fs::exists(dir / "partition") ? dir.parent_path() : dir);
  return src;
}

std::optional<BlockStatSample> BlockStatSource::read() const {
  // open + read + close (a few microseconds; an ifstream costs more between two cells)
  std::optional<BlockStatSample> sum;
  for (const auto& path : stat_paths_) {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    char buf[512];
    const ssize_t n = ::read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return std::nullopt;
    auto s = parse_block_stat(std::string(buf, static_cast<size_t>(n)));
    if (!s) return std::nullopt;
    if (!sum) sum = *s;
    else
      for (size_t i = 0; i < BlockStatSample::kFieldCount; ++i) sum->v[i] += s->v[i];
  }
  if (sum) sum->at_ns = core::monotonic_ns();
  return sum;
}

}  // namespace pts::engine
