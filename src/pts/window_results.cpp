// pts/window_results.cpp — see window_results.h.
#include "pts/window_results.h"

#include <algorithm>

namespace pts::runner {

std::vector<model::CellWindowResult> window_results(const model::SubTestPlan& plan,
                                                    const std::vector<model::RoundRecord>& rounds,
                                                    uint32_t first_round, uint32_t last_round) {
  std::vector<model::CellWindowResult> out;
  for (const auto& cell : plan.cells) {
    if (!cell.applicable) continue;
    model::CellWindowResult w;
    w.cell_id = cell.id;
    for (const auto& round : rounds) {
      if (round.round < first_round || round.round > last_round) continue;
      for (const auto& c : round.cells) {
        if (c.cell_id != cell.id) continue;
        ++w.rounds;
        w.iops += c.iops;
        w.read_iops += c.read_iops;
        w.write_iops += c.write_iops;
        w.mbps += c.mbps;
        w.read_mbps += c.read_mbps;
        w.write_mbps += c.write_mbps;
        w.mean_latency_ns += c.latency.mean_ns;
        w.p99_999_latency_ns += static_cast<double>(c.latency.p99_999_ns);
        w.max_latency_ns = std::max(w.max_latency_ns, c.latency.max_ns);
        break;
      }
    }
    if (w.rounds > 0) {
      const double n = w.rounds;
      w.iops /= n;
      w.read_iops /= n;
      w.write_iops /= n;
      w.mbps /= n;
      w.read_mbps /= n;
      w.write_mbps /= n;
      w.mean_latency_ns /= n;
      w.p99_999_latency_ns /= n;
    }
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace pts::runner
