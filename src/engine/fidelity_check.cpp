// engine/fidelity_check.cpp — see fidelity_check.h.
#include "engine/fidelity_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace pts::engine {

namespace {

double tc_x_qd(const model::CellResult& c) {
  return static_cast<double>(c.spec.threads) * static_cast<double>(c.spec.queue_depth);
}

double io_count_gap(const model::CellResult& c) {
  const double engine = static_cast<double>(c.read_ios + c.write_ios);
  const double kernel = static_cast<double>(c.kernel->host_ios);
  if (engine == 0) return kernel == 0 ? 0.0 : 1.0;
  return std::fabs(kernel - engine) / engine;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

/// "1, 3-5, 7"
std::string round_list(std::vector<uint32_t> rounds) {
  std::sort(rounds.begin(), rounds.end());
  std::string out;
  for (size_t i = 0; i < rounds.size();) {
    size_t j = i;
    while (j + 1 < rounds.size() && rounds[j + 1] == rounds[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(rounds[i]);
    if (j > i) out += "-" + std::to_string(rounds[j]);
    i = j + 1;
  }
  return out;
}

/// The depth checks apply: unpaced and long enough to judge.
bool depth_judged(const model::CellResult& c) { return c.spec.rate_iops == 0 && c.seconds >= kMinJudgedCellSeconds; }

}  // namespace

double kernel_depth_target(const model::CellResult& c) {
  double want = tc_x_qd(c);
  const model::KernelCounters& k = *c.kernel;
  // Merged I/Os reach the device as fewer requests: the kernel counts requests.
  const uint64_t requests = k.read_ios + k.write_ios;
  if (k.host_ios > requests && requests > 0)
    want *= static_cast<double>(requests) / static_cast<double>(k.host_ios);
  // Saturated: the device holds at most its limit of requests; the rest wait above the counters.
  if (k.in_flight_limit > 0 && want > k.in_flight_limit) want = k.in_flight_limit;
  return want;
}

std::vector<std::string> fidelity_flags(const model::CellResult& c) {
  std::vector<std::string> flags;
  if (c.kernel && io_count_gap(c) > kIoCountTolerance) flags.push_back("io-count");
  if (depth_judged(c) && c.kernel && c.kernel->avg_in_flight < kDepthFloor * kernel_depth_target(c))
    flags.push_back("in-flight");
  if (depth_judged(c) && c.littles_law_oio < kDepthFloor * tc_x_qd(c)) flags.push_back("littles-law");
  return flags;
}

std::vector<std::string> fidelity_not_judged(const model::CellResult& c) {
  if (c.spec.rate_iops > 0 || c.seconds >= kMinJudgedCellSeconds) return {};
  std::vector<std::string> codes;
  if (c.kernel) codes.push_back("in-flight");
  codes.push_back("littles-law");
  return codes;
}

/// How many flagged cells the deviation names in words (the worst ones).
constexpr size_t kCellsInWords = 5;

std::string fidelity_deviation_text(const std::string& subtest_id, const std::vector<FlaggedCell>& cells) {
  struct Worst {
    std::vector<uint32_t> rounds;
    double io_gap = -1, in_flight = -1, in_flight_target = 0, little = -1, tc_x_qd = 0;
    bool saturated = false, merged = false;
  };
  std::map<std::string, Worst> by_cell;  // ordered by id: stable text
  std::vector<std::string> order;
  for (const auto& f : cells) {
    const auto& c = *f.cell;
    if (c.fidelity_flags.empty()) continue;
    const std::string id = c.cell_id.empty() ? "(unnamed)" : c.cell_id;
    if (!by_cell.count(id)) order.push_back(id);
    Worst& w = by_cell[id];
    if (f.round) w.rounds.push_back(f.round);
    w.tc_x_qd = tc_x_qd(c);
    for (const auto& flag : c.fidelity_flags) {
      if (flag == "io-count") w.io_gap = std::max(w.io_gap, io_count_gap(c));
      if (flag == "in-flight" && (w.in_flight < 0 || c.kernel->avg_in_flight < w.in_flight)) {
        w.in_flight = c.kernel->avg_in_flight;
        w.in_flight_target = kernel_depth_target(c);
        w.saturated = c.kernel->in_flight_limit > 0 && w.in_flight_target >= c.kernel->in_flight_limit;
        w.merged = c.kernel->host_ios > c.kernel->read_ios + c.kernel->write_ios;
      }
      if (flag == "littles-law" && (w.little < 0 || c.littles_law_oio < w.little)) w.little = c.littles_law_oio;
    }
  }
  if (order.empty()) return "";
  // The worst cells first (the lowest share of the depth held, or the largest count gap), and
  // only the first few in words: the Raw sheet and run.json carry every cell's flags.
  auto severity = [&](const std::string& id) {
    const Worst& w = by_cell.at(id);
    double held = 1.0;
    if (w.in_flight >= 0 && w.in_flight_target > 0) held = std::min(held, w.in_flight / w.in_flight_target);
    if (w.little >= 0 && w.tc_x_qd > 0) held = std::min(held, w.little / w.tc_x_qd);
    if (w.io_gap >= 0) held = std::min(held, 1.0 - w.io_gap);
    return held;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](const std::string& a, const std::string& b) { return severity(a) < severity(b); });
  size_t n_io = 0, n_in_flight = 0, n_little = 0;
  for (const auto& [id, w] : by_cell) {
    n_io += w.io_gap >= 0;
    n_in_flight += w.in_flight >= 0;
    n_little += w.little >= 0;
  }
  std::string text = "Sub-test " + subtest_id + ": " + std::to_string(order.size()) +
                     " cell(s) failed a measurement-fidelity check (engine vs kernel block counters, queue depth "
                     "held; in-flight " + std::to_string(n_in_flight) + ", Little's law " + std::to_string(n_little) +
                     ", I/O count " + std::to_string(n_io) + "):";
  const size_t shown = std::min(order.size(), kCellsInWords);
  for (size_t k = 0; k < shown; ++k) {
    const std::string& id = order[k];
    const Worst& w = by_cell[id];
    text += " " + id;
    if (!w.rounds.empty()) text += " (Round " + round_list(w.rounds) + ")";
    std::vector<std::string> why;
    if (w.io_gap >= 0) why.push_back("kernel and engine I/O counts differ by up to " + fmt("%.2f", w.io_gap * 100) + " %");
    if (w.in_flight >= 0)
      why.push_back("kernel average in flight down to " + fmt("%.2f", w.in_flight) + " of " +
                    fmt(w.in_flight_target == std::floor(w.in_flight_target) ? "%.0f" : "%.2f", w.in_flight_target) +
                    (w.saturated ? " (the device's limit; saturated)"
                                 : w.merged ? " (TC×QD × the kernel's requests per I/O: it merged I/Os)" : " (TC×QD)"));
    if (w.little >= 0)
      why.push_back("IOPS × mean latency down to " + fmt("%.2f", w.little) + " of TC×QD " + fmt("%g", w.tc_x_qd));
    text += ": ";
    for (size_t i = 0; i < why.size(); ++i) text += (i ? "; " : "") + why[i];
    text += ".";
  }
  if (order.size() > shown)
    text += " And " + std::to_string(order.size() - shown) +
            " more cell(s): every cell's flags are on the Raw sheet and in run.json (fidelity_flags).";
  return text;
}

}  // namespace pts::engine
