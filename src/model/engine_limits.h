// model/engine_limits.h — what a load generator can run, as plain data: the engine publishes
// its limits (engine::uring_engine_limits(), a simulated drive's engine its own), app passes
// them to the plan resolver, and every access spec is checked against them before any device
// I/O. 0 means "no limit". May use: nothing.
#pragma once

#include <cstdint>
#include <string>

namespace pts::model {

struct EngineLimits {
  std::string engine;                   ///< whose limits, for messages ("the io_uring engine")
  uint32_t max_queue_depth = 0;         ///< I/Os in flight per worker (ring entries)
  uint32_t max_threads = 0;             ///< workers (one ring and one descriptor each)
  uint64_t max_buffer_bytes_per_worker = 0;  ///< one registered buffer region: QD × largest block
  uint64_t max_buffer_bytes_total = 0;  ///< all workers' read + write regions (memory, memlock)
  double min_cell_seconds = 0;          ///< shortest timed run that is still a measurement
  std::string buffer_total_reason;      ///< what bounds max_buffer_bytes_total, for messages
};

}  // namespace pts::model
