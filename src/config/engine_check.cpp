// config/engine_check.cpp — see engine_check.h.
#include "config/engine_check.h"

#include <cstdio>

#include "core/units.h"

namespace pts::config {

std::vector<std::string> check_engine_limits(const model::AccessSpec& s, const model::EngineLimits& l,
                                             const SpecFlags& flags) {
  std::vector<std::string> out;
  const std::string who = l.engine.empty() ? "the engine" : l.engine;
  const uint64_t qd = s.queue_depth, tc = s.threads, bs = model::max_block_bytes(s);
  if (l.max_queue_depth && qd > l.max_queue_depth)
    out.push_back("--oio " + std::to_string(qd) + ": " + who + " keeps at most " + std::to_string(l.max_queue_depth) +
                  " I/Os in flight per worker (ring entries); use more --threads for a larger TC x QD");
  if (l.max_threads && tc > l.max_threads)
    out.push_back("--threads " + std::to_string(tc) + ": " + who + " runs at most " + std::to_string(l.max_threads) +
                  " workers (one ring and descriptor each)");
  const uint64_t region = qd * bs;
  if (l.max_buffer_bytes_per_worker && region > l.max_buffer_bytes_per_worker)
    out.push_back("--oio " + std::to_string(qd) + " with " + core::format_block_size(static_cast<uint32_t>(bs)) +
                  " blocks: each worker registers QD x block = " + core::format_bytes(region) + " of buffers; " + who +
                  " registers at most " + core::format_bytes(l.max_buffer_bytes_per_worker) + " per region");
  const uint64_t total = 2 * tc * region;  // read and write regions per worker
  if (l.max_buffer_bytes_total && total > l.max_buffer_bytes_total)
    out.push_back("--threads " + std::to_string(tc) + " x --oio " + std::to_string(qd) + " x " +
                  core::format_block_size(static_cast<uint32_t>(bs)) + " needs " + core::format_bytes(total) +
                  " of registered buffers (read and write regions); " + who + " may pin at most " +
                  core::format_bytes(l.max_buffer_bytes_total) +
                  (l.buffer_total_reason.empty() ? "" : " (" + l.buffer_total_reason + ")"));
  if (s.bytes_limit == 0 && l.min_cell_seconds > 0 && s.seconds < l.min_cell_seconds) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s %g: shorter than the %g s %s needs for a measurement", flags.seconds, s.seconds,
                  l.min_cell_seconds, who.c_str());
    out.push_back(std::string(buf) + " (starting and stopping the workers would be a material part of it)");
  }
  return out;
}

}  // namespace pts::config
