// engine/block_stat.h — the kernel's block-layer counters for the device under an open
// descriptor: finds /sys/dev/block/MAJ:MIN/stat (a whole disk's or a partition's) from the
// descriptor's st_rdev, reads it at the start and end of a cell, and turns the two samples
// into model::KernelCounters (I/Os, bytes, average in flight, mean device time). An NVMe
// multipath head (nvmeXnY of an nvme-subsystem) is read as the sum of its paths (nvmeXcZnY):
// kernels before 6.3 count nothing on the head itself. Regular files
// have no such counters (for_fd says so). The sysfs root is a parameter so tests can use a
// fake tree. May use: core, model.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/cell.h"

namespace pts::engine {

/// One read of a block device's stat file (Documentation/block/stat.rst): the fields in
/// order, and when they were read (monotonic ns).
struct BlockStatSample {
  enum Field : size_t {
    kReadIos = 0, kReadMerges, kReadSectors, kReadTicks,
    kWriteIos, kWriteMerges, kWriteSectors, kWriteTicks,
    kInFlight, kIoTicks, kTimeInQueue, kFieldCount
  };
  std::array<uint64_t, kFieldCount> v{};
  uint64_t at_ns = 0;
};

/// Parses the text of a stat file (at least 11 whitespace-separated numbers).
std::optional<BlockStatSample> parse_block_stat(const std::string& text);

/// Counters between two samples, for a cell that kept `tc_x_qd` I/Os outstanding.
model::KernelCounters kernel_delta(const std::string& device, const BlockStatSample& begin, const BlockStatSample& end,
                                   uint32_t in_flight_limit, uint64_t tc_x_qd);

class BlockStatSource {
 public:
  /// The stat source for the block device open as `fd`; nullopt when fd is not a block device
  /// or sysfs has no stat file for it (then the cell's kernel counters are "n/a").
  static std::optional<BlockStatSource> for_fd(int fd, const std::string& sysfs_root = "/sys");
  /// The same for a device number (what for_fd uses).
  static std::optional<BlockStatSource> for_dev(unsigned major, unsigned minor, const std::string& sysfs_root);

  /// Reads the stat file now; nullopt when it cannot be read.
  std::optional<BlockStatSample> read() const;
  const std::string& device() const { return device_; }
  /// queue/nr_requests × hardware queues (of the disk, for a partition; of every path, for a
  /// multipath head); 0 when unknown.
  uint32_t in_flight_limit() const { return in_flight_limit_; }

 private:
  std::vector<std::string> stat_paths_;  ///< one, or a multipath head's paths (summed)
  std::string device_;
  uint32_t in_flight_limit_ = 0;
};

}  // namespace pts::engine
