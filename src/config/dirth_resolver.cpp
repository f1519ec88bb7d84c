// config/dirth_resolver.cpp — plan resolution of DIRTH and ECW (the ECW definition runs the
// DIRTH procedure with its composite workload): preconditioning, the TC × QD sweep in the
// chosen order, and the three histogram sub-tests whose TC/QD the sweep picks at run time.
#include <algorithm>
#include <functional>

#include "config/advanced_cells.h"
#include "config/resolver_text.h"

namespace pts::config::detail {

namespace {

const char* const kPointNames[3] = {"MaxIOPS", "MidIOPS", "MinIOPS"};
const char* const kPointIds[3] = {"histogram-max", "histogram-mid", "histogram-min"};

std::string upper(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

std::string grid_text(const std::vector<uint32_t>& v) {
  std::string out;
  for (uint32_t x : v) out += (out.empty() ? "" : ",") + std::to_string(x);
  return "{" + out + "}";
}

/// (TC, QD) pairs in sweep order: "toio-descending" = total OIO high to low (more threads
/// first on ties); "tc-outer" = TC high to low, QD high to low within each TC.
std::vector<std::pair<uint32_t, uint32_t>> sweep_points(const model::DirthPlan& d) {
  std::vector<std::pair<uint32_t, uint32_t>> pts;
  for (uint32_t tc : d.thread_counts)
    for (uint32_t qd : d.queue_depths) pts.emplace_back(tc, qd);
  if (d.sweep_order == "toio-descending")
    std::stable_sort(pts.begin(), pts.end(), [](const auto& a, const auto& b) {
      const uint64_t ta = uint64_t{a.first} * a.second, tb = uint64_t{b.first} * b.second;
      return ta != tb ? ta > tb : a.first > b.first;
    });
  return pts;
}

}  // namespace

void resolve_dirth(AdvancedCtx& c) {
  const DirthDef& d = *c.d.advanced.dirth;
  const WorkloadDef* wl = stimulus(c, d.workload, true);
  if (!wl) return;
  const WorkloadDef& pw = c.d.advanced.workloads.at(d.precondition_workload);
  auto& p = c.plan();
  const std::string name = upper(c.d.id);
  model::DirthPlan dp;
  dp.thread_counts = d.thread_counts;
  dp.queue_depths = d.queue_depths;
  std::sort(dp.thread_counts.begin(), dp.thread_counts.end(), std::greater<>());
  std::sort(dp.queue_depths.begin(), dp.queue_depths.end(), std::greater<>());
  dp.sweep_order = d.sweep_order;
  const double ceiling_ms = c.o.art_ceiling_ms.value_or(d.art_ceiling_ms);
  dp.art_ceiling_ns = ceiling_ms * 1e6;
  dp.spec_round_prewrite_seconds = d.round_prewrite_minutes * 60;
  dp.round_prewrite_seconds = c.scaled(dp.spec_round_prewrite_seconds);
  dp.spec_histogram_prewrite_seconds = d.histogram_prewrite_minutes * 60;
  dp.histogram_prewrite_seconds = c.scaled(dp.spec_histogram_prewrite_seconds);
  dp.spec_histogram_seconds = d.histogram_minutes * 60;
  dp.histogram_seconds = c.scaled(dp.spec_histogram_seconds);
  dp.mid_rule = d.mid_rule;

  const std::vector<uint32_t> spec_grid = {32, 16, 8, 6, 4, 2, 1};
  if (dp.thread_counts != spec_grid || dp.queue_depths != spec_grid)
    c.deviate("dirth-grid", name + " sweeps TC " + grid_text(dp.thread_counts) + " × QD " +
                                grid_text(dp.queue_depths) + " instead of TC {32,16,8,6,4,2,1} × QD {32,16,8,6,4,2,1}");
  const std::string pc_tcqd = "TC " + std::to_string(p.threads) + " / QD " + std::to_string(p.queue_depth);
  c.interpret(name + " stimulus " + wl->title + " (" + workload_label(*wl) + "); preconditioning and pre-writes " +
              pw.title + " (" + workload_label(pw) + ") — the spec text was not available, this follows the one "
              "implementation found ([dirth] workload, precondition_workload)");
  c.interpret(name + " preconditioning: Rounds of " + std::to_string(d.precondition_round_cells) + " × " +
              duration_words(p.cell_seconds) + " at " + pc_tcqd + " until steady state, tracked on the last sample of "
              "each Round ([dirth] precondition_round_cells)");
  c.interpret(name + " sweep: each Round a " + duration_words(dp.round_prewrite_seconds) + " pre-write at " + pc_tcqd +
              ", then every TC × QD point for " + duration_words(p.cell_seconds) + " in " +
              (dp.sweep_order == "toio-descending" ? "descending total OIO (more threads first on ties)"
                                                   : "TC from high to low, QD from high to low within each TC") +
              " ([dirth] sweep_order); TC = threads, QD = outstanding I/Os per thread; Tracking Variable the IOPS "
              "at TC " + std::to_string(dp.thread_counts.front()) + " / QD " + std::to_string(dp.queue_depths.front()));
  c.interpret(name + " MaxIOPS: the highest window-mean IOPS whose window-mean ART is at most " + num(ceiling_ms) +
              " ms ([dirth] art_ceiling_ms, --art-ceiling); MinIOPS: TC " + std::to_string(dp.thread_counts.back()) +
              " / QD " + std::to_string(dp.queue_depths.back()) + "; MidIOPS: the point" +
              (dp.mid_rule == "closest-to-midpoint-under-ceiling" ? " under the ceiling" : "") +
              " whose IOPS is closest to (MaxIOPS + MinIOPS) / 2 ([dirth] mid_rule)");
  c.interpret(name + " histograms: at each of the three points a " + duration_words(dp.histogram_prewrite_seconds) +
              " pre-write, then " + duration_words(dp.histogram_seconds) + " of the stimulus whose every I/O's "
              "response time goes into the histogram");

  p.subtests.push_back(precondition_subtest(c, pw, d.precondition_round_cells,
                                            name + " – Preconditioning " + workload_label(pw) + " at " + pc_tcqd));
  model::SubTestPlan sweep;
  sweep.id = "sweep";
  sweep.title = name + " – Demand Intensity sweep TC × QD, " + workload_label(*wl);
  sweep.role = model::role::kDirthSweep;
  sweep.purge = false;
  sweep.wipc_enabled = false;
  if (dp.round_prewrite_seconds > 0)
    sweep.cells.push_back(make_cell("prewrite", "Pre-write: " + workload_label(pw) + " at " + pc_tcqd,
                                    workload_spec(c, pw, p.threads, p.queue_depth, dp.round_prewrite_seconds)));
  for (const auto& [tc, qd] : sweep_points(dp))
    sweep.cells.push_back(make_cell("tc" + std::to_string(tc) + "-qd" + std::to_string(qd),
                                    "TC " + std::to_string(tc) + " / QD " + std::to_string(qd) + " (total OIO " +
                                        std::to_string(tc * qd) + ")",
                                    workload_spec(c, *wl, tc, qd, p.cell_seconds)));
  const std::string top = "tc" + std::to_string(dp.thread_counts.front()) + "-qd" + std::to_string(dp.queue_depths.front());
  sweep.tracking.push_back({top, model::Metric::Iops, "TC " + std::to_string(dp.thread_counts.front()) + " / QD " +
                                                          std::to_string(dp.queue_depths.front()) + " IOPS"});
  p.subtests.push_back(std::move(sweep));
  for (uint32_t k = 0; k < 3; ++k) {
    model::SubTestPlan h;
    h.id = kPointIds[k];
    h.title = name + " – Response Time Histogram at " + kPointNames[k];
    h.role = model::role::kDirthHistogram;
    h.role_index = k;
    h.purge = false;
    h.wipc_enabled = false;
    const std::string at = std::string(" (TC/QD of the ") + kPointNames[k] + " point)";
    if (dp.histogram_prewrite_seconds > 0)
      h.cells.push_back(make_cell("prewrite", "Pre-write: " + workload_label(pw) + at,
                                  workload_spec(c, pw, 0, 0, dp.histogram_prewrite_seconds)));
    h.cells.push_back(make_cell("capture", "Histogram capture: " + workload_label(*wl) + at,
                                workload_spec(c, *wl, 0, 0, dp.histogram_seconds)));
    p.subtests.push_back(std::move(h));
  }
  p.dirth = dp;
}

SubtestWorstCase dirth_worst_case(const model::TestPlan& p, const model::SubTestPlan& s) {
  SubtestWorstCase out;
  double cells = 0;
  for (const auto& c : s.cells) cells += c.spec.seconds;
  if (s.role == model::role::kDirthHistogram) {
    out.seconds = cells;
    out.how = "pre-write and capture at the chosen point";
  } else {
    out.seconds = cells * p.max_rounds;
    out.how = std::to_string(p.max_rounds) + " Rounds of " + duration_words(cells);
  }
  return out;
}

std::vector<std::string> describe_dirth_subtest(const model::TestPlan& p, const model::SubTestPlan& s) {
  std::vector<std::string> out;
  const auto& d = *p.dirth;
  if (s.role == model::role::kDirthSweep) {
    const size_t points = d.thread_counts.size() * d.queue_depths.size();
    out.push_back("each Round: " + (d.round_prewrite_seconds > 0 ? duration_words(d.round_prewrite_seconds) + " pre-write, then "
                                                                 : std::string()) +
                  std::to_string(points) + " TC × QD points of " + duration_words(p.cell_seconds) + " (" +
                  (d.sweep_order == "toio-descending" ? "total OIO descending" : "TC outer, QD inner, descending") +
                  "); until steady state as the preconditioning");
    out.push_back("then MaxIOPS = highest IOPS with ART <= " + num(d.art_ceiling_ns / 1e6) + " ms, MinIOPS = TC " +
                  std::to_string(d.thread_counts.back()) + " / QD " + std::to_string(d.queue_depths.back()) +
                  ", MidIOPS closest to their midpoint");
  } else if (s.role == model::role::kDirthHistogram) {
    for (const auto& c : s.cells) out.push_back(c.label + ", " + duration_words(c.spec.seconds));
    out.push_back("skipped when the sweep finds no point for it (no ART under the ceiling)");
  }
  return out;
}

}  // namespace pts::config::detail
