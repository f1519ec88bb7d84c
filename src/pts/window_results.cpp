// pts/window_results.cpp — see window_results.h.
#include "pts/window_results.h"

#include <algorithm>

#include "engine/latency_histogram.h"

namespace pts::runner {

std::vector<model::CellWindowResult> window_results(const model::SubTestPlan& plan,
                                                    const std::vector<model::RoundRecord>& rounds,
                                                    uint32_t first_round, uint32_t last_round) {
  std::vector<model::CellWindowResult> out;
  for (const auto& cell : plan.cells) {
    if (!cell.applicable) continue;
    model::CellWindowResult w;
    w.cell_id = cell.id;
    engine::LatencyHistogram reads, writes;
    bool pooled = true;
    double system_cpu = 0;
    uint32_t system_cpu_rounds = 0;
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
        const bool has = c.read_histogram.sub_bucket_bits != 0 || c.write_histogram.sub_bucket_bits != 0 ||
                         c.latency.samples == 0;
        pooled = pooled && has && reads.merge_record(c.read_histogram) && writes.merge_record(c.write_histogram);
        w.cpu_pct += c.cpu_usr_pct + c.cpu_sys_pct;
        if (c.system_cpu_pct) {
          system_cpu += *c.system_cpu_pct;
          ++system_cpu_rounds;
        }
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
      w.cpu_pct /= n;
    }
    if (system_cpu_rounds > 0) w.system_cpu_pct = system_cpu / system_cpu_rounds;
    if (w.rounds > 0 && pooled) {
      engine::LatencyHistogram all = reads;
      all.merge(writes);
      w.latency = all.summary();
      w.read_latency = reads.summary();
      w.write_latency = writes.summary();
      w.p99_999_latency_ns = static_cast<double>(w.latency.p99_999_ns);
      w.percentiles_pooled = true;
    }
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace pts::runner
