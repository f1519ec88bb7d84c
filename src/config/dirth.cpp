// config/dirth.cpp — the Demand Intensity / Response Time Histogram row of the procedure table
// (PTS-E 1.1 §13), definition side; ECW (§14) runs it with its composite workload. The [dirth]
// table (stimulus, preconditioning workload, the TC × QD grid, the MaxIOPS ceiling, pre-writes
// and histogram lengths) is resolved into the preconditioning, the sweep in the chosen order,
// three histogram sub-tests whose TC/QD the sweep picks at run time, and the model::DirthPlan
// that pts/dirth.cpp runs.
#include <algorithm>
#include <cmath>
#include <functional>

#include "config/procedure_rows.h"
#include "config/resolver_text.h"
#include "config/toml_reader.h"
#include "config/workloads.h"

namespace pts::config {

namespace {

using namespace detail;

/// [dirth]
struct DirthDef {
  std::string workload;               ///< the sweep and histogram stimulus
  std::string precondition_workload;  ///< preconditioning and pre-writes
  uint32_t precondition_round_cells = 30;
  std::string precondition_tracked_sample = "first";  ///< which sample of a Round is tracked
  std::vector<uint32_t> thread_counts;
  std::vector<uint32_t> queue_depths;
  std::string sweep_order = "toio-descending";
  double art_ceiling_ms = 5;
  double round_prewrite_minutes = 5;
  double histogram_prewrite_minutes = 60;
  double histogram_minutes = 10;
  std::string mid_rule = "closest-to-midpoint-under-ceiling";
  int line = 0;
  int grid_line = 0;     ///< thread_counts, for messages about the grid
  int ceiling_line = 0;
};

const char* const kPointNames[3] = {"MaxIOPS", "MidIOPS", "MinIOPS"};
const char* const kPointIds[3] = {"histogram-max", "histogram-mid", "histogram-min"};

void read(TableReader& r, TestDefinition& d) {
  DirthDef x;
  x.line = r.line();
  r.only_keys({"workload", "precondition_workload", "precondition_round_cells", "precondition_tracked_sample",
               "thread_counts", "queue_depths",
               "sweep_order", "art_ceiling_ms", "round_prewrite_minutes", "histogram_prewrite_minutes",
               "histogram_minutes", "mid_rule"});
  if (auto v = r.string("workload", true)) x.workload = *v;
  if (auto v = r.string("precondition_workload", true)) x.precondition_workload = *v;
  if (auto v = r.integer("precondition_round_cells", 1, 1000)) x.precondition_round_cells = static_cast<uint32_t>(*v);
  if (auto v = r.choice("precondition_tracked_sample", {"first", "last"})) x.precondition_tracked_sample = *v;
  x.grid_line = r.line("thread_counts");
  if (auto v = r.counts("thread_counts", 1, 1024, true)) x.thread_counts = *v;
  if (auto v = r.counts("queue_depths", 1, 65536, true)) x.queue_depths = *v;
  if (auto v = r.choice("sweep_order", {"toio-descending", "tc-outer"})) x.sweep_order = *v;
  x.ceiling_line = r.line("art_ceiling_ms");
  if (auto v = r.number("art_ceiling_ms", 0, true, 60000)) x.art_ceiling_ms = *v;
  if (auto v = r.number("round_prewrite_minutes", 0, false, 1440)) x.round_prewrite_minutes = *v;
  if (auto v = r.number("histogram_prewrite_minutes", 0, false, 1440)) x.histogram_prewrite_minutes = *v;
  if (auto v = r.number("histogram_minutes", 0, true, 1440)) x.histogram_minutes = *v;
  if (auto v = r.choice("mid_rule", {"closest-to-midpoint-under-ceiling", "closest-to-midpoint"})) x.mid_rule = *v;
  d.own_table = x;
}

void check(const TestDefinition& d, Problems& p, bool /*shared_ok*/) {
  const auto& x = d.own<DirthDef>();
  check_workload(d, x.workload, "[dirth] workload", x.line, p);
  check_workload(d, x.precondition_workload, "[dirth] precondition_workload", x.line, p);
  for (const auto& [id, w] : d.workloads)
    if (w.pattern != model::AccessPattern::Random)
      p.add(w.line, "[workload." + id + "] the DIRTH procedure sweeps random access only");
  check_class_workloads(d, p);
}

std::string upper(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

std::string grid_text(const std::vector<uint32_t>& v) {
  std::string out;
  for (uint32_t x : v) out += (out.empty() ? "" : ",") + std::to_string(x);
  return "{" + out + "}";
}

/// How many samples a pre-write of `seconds` is run in: one per cell length (rounded, at least
/// one), 60 × 1 min at the spec's values.
uint32_t prewrite_samples(double seconds, double cell_seconds) {
  if (!(seconds > 0)) return 0;
  if (!(cell_seconds > 0)) return 1;
  return static_cast<uint32_t>(std::max(1.0, std::round(seconds / cell_seconds)));
}

/// "07" of 60, "007" of 100: cell ids that sort in run order.
std::string two_digits(uint32_t n, uint32_t of) {
  std::string s = std::to_string(n);
  const size_t width = std::to_string(of).size();
  return std::string(width > s.size() ? width - s.size() : 0, '0') + s;
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

void resolve(ResolveCtx& c) {
  const DirthDef& d = c.d.own<DirthDef>();
  const WorkloadDef* wl = stimulus(c, d.workload);
  if (!wl) return;
  const WorkloadDef& pw = runnable(c, c.d.workloads.at(d.precondition_workload));
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
  const std::string pc_tcqd = tcqd(p);
  c.interpret(name + " stimulus " + wl->title + " (" + workload_label(*wl) + "); preconditioning and pre-writes " +
              pw.title + " (" + workload_label(pw) + ") — the spec text was not available, this follows the one "
              "implementation found ([dirth] workload, precondition_workload)");
  c.interpret(name + " preconditioning: Rounds of " + std::to_string(d.precondition_round_cells) + " × " +
              duration_words(p.cell_seconds) + " at " + pc_tcqd + " until steady state, tracked on the " +
              d.precondition_tracked_sample + " sample of each Round ([dirth] precondition_round_cells, "
              "precondition_tracked_sample; the one implementation tracks the first)");
  c.interpret(name + " sweep: each Round a " + duration_words(dp.round_prewrite_seconds) + " pre-write at " + pc_tcqd +
              ", then every TC × QD point for " + duration_words(p.cell_seconds) + " in " +
              (dp.sweep_order == "toio-descending" ? "descending total OIO (more threads first on ties)"
                                                   : "TC from high to low, QD from high to low within each TC") +
              " ([dirth] sweep_order); TC = threads, QD = outstanding I/Os per thread; Tracking Variable the IOPS "
              "at TC " + std::to_string(dp.thread_counts.front()) + " / QD " + std::to_string(dp.queue_depths.front()));
  c.interpret(name + " MaxIOPS: the highest window-mean IOPS whose window-mean ART is at most " + num(ceiling_ms) +
              " ms ([dirth] art_ceiling_ms, --art-ceiling; the one implementation: below 5 ms, which differs only at "
              "exactly 5 ms), with no limit on the maximum response time: no source adds one to the ART ceiling; "
              "MinIOPS: TC " + std::to_string(dp.thread_counts.back()) +
              " / QD " + std::to_string(dp.queue_depths.back()) + "; MidIOPS: the point" +
              (dp.mid_rule == "closest-to-midpoint-under-ceiling" ? " under the ceiling" : "") +
              " whose IOPS is closest to (MaxIOPS + MinIOPS) / 2 ([dirth] mid_rule)");
  c.interpret(name + " histograms: at each of the three points a " + duration_words(dp.histogram_prewrite_seconds) +
              " pre-write at that point's TC/QD (in samples of about one cell, plotted before the histogram), then " +
              duration_words(dp.histogram_seconds) + " of the stimulus whose every I/O's response time goes into "
              "the histogram");

  p.subtests.push_back(precondition_subtest(c, pw, d.precondition_round_cells,
                                            name + " – Preconditioning " + workload_label(pw) + " at " + pc_tcqd,
                                            d.precondition_tracked_sample == "first"));
  model::SubTestPlan sweep;
  sweep.id = "sweep";
  sweep.title = name + " – Demand Intensity sweep TC × QD, " + workload_label(*wl);
  sweep.role = model::SubTestRole::DirthSweep;
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
    h.role = model::SubTestRole::DirthHistogram;
    h.role_index = k;
    h.purge = false;
    h.wipc_enabled = false;
    const std::string at = std::string(" (TC/QD of the ") + kPointNames[k] + " point)";
    // The pre-write in samples of about one cell (the one implementation: 60 one-minute
    // samples), so its IOPS can be plotted over time before the histogram (SNIA's report).
    const uint32_t samples = prewrite_samples(dp.histogram_prewrite_seconds, p.cell_seconds);
    for (uint32_t n = 1; n <= samples; ++n)
      h.cells.push_back(make_cell(samples == 1 ? std::string("prewrite") : "prewrite-" + two_digits(n, samples),
                                  "Pre-write: " + workload_label(pw) + at + (samples == 1 ? "" : " #" + std::to_string(n)),
                                  workload_spec(c, pw, 0, 0, dp.histogram_prewrite_seconds / samples)));
    h.cells.push_back(make_cell("capture", "Histogram capture: " + workload_label(*wl) + at,
                                workload_spec(c, *wl, 0, 0, dp.histogram_seconds)));
    p.subtests.push_back(std::move(h));
  }
  p.procedure_plan = dp;
}

SubtestWorstCase worst_case(const model::TestPlan& p, const model::SubTestPlan& s) {
  if (!p.params<model::DirthPlan>() ||
      (s.role != model::SubTestRole::DirthHistogram && s.role != model::SubTestRole::DirthSweep))
    return rounds_worst_case(p, s);
  SubtestWorstCase out;
  double cells = 0;
  for (const auto& c : s.cells) cells += c.spec.seconds;
  if (s.role == model::SubTestRole::DirthHistogram) {
    out.seconds = cells;
    out.how = "pre-write and capture at the chosen point";
  } else {
    out.seconds = cells * p.max_rounds;
    out.how = std::to_string(p.max_rounds) + " Rounds of " + duration_words(cells);
  }
  return out;
}

SubtestText describe(const model::TestPlan& p, const model::SubTestPlan& s) {
  const auto* d = p.params<model::DirthPlan>();
  if (!d || s.role == model::SubTestRole::SteadyRounds) return describe_rounds(p, s);
  SubtestText out;
  if (s.role == model::SubTestRole::DirthSweep) {
    const size_t points = d->thread_counts.size() * d->queue_depths.size();
    out.phases.push_back("each Round: " +
                         (d->round_prewrite_seconds > 0 ? duration_words(d->round_prewrite_seconds) + " pre-write, then "
                                                        : std::string()) +
                         std::to_string(points) + " TC × QD points of " + duration_words(p.cell_seconds) + " (" +
                         (d->sweep_order == "toio-descending" ? "total OIO descending" : "TC outer, QD inner, descending") +
                         "); until steady state as the preconditioning");
    out.phases.push_back("then MaxIOPS = highest IOPS with ART <= " + num(d->art_ceiling_ns / 1e6) + " ms, MinIOPS = TC " +
                         std::to_string(d->thread_counts.back()) + " / QD " + std::to_string(d->queue_depths.back()) +
                         ", MidIOPS closest to their midpoint");
    out.then_cells = true;  // the sweep's points are its cells
  } else if (s.role == model::SubTestRole::DirthHistogram) {
    size_t prewrites = 0;
    double prewrite_seconds = 0;
    for (const auto& c : s.cells)
      if (c.id.rfind("prewrite", 0) == 0) ++prewrites, prewrite_seconds += c.spec.seconds;
    if (prewrites)
      out.phases.push_back(s.cells.front().label.substr(0, s.cells.front().label.rfind(" #")) + ", " +
                           duration_words(prewrite_seconds) +
                           (prewrites > 1 ? " in " + std::to_string(prewrites) + " samples of " +
                                                duration_words(prewrite_seconds / static_cast<double>(prewrites))
                                          : std::string()));
    for (const auto& c : s.cells)
      if (c.id.rfind("prewrite", 0) != 0) out.phases.push_back(c.label + ", " + duration_words(c.spec.seconds));
    out.phases.push_back("skipped when the sweep finds no point for it (no ART under the ceiling)");
  }
  return out;
}

/// A grid point exceeds an engine limit: its TC and QD come from [dirth], not from flags.
std::string explain_limit(const TestDefinition& d, const model::SubTestPlan& sub, const model::CellPlan& cell,
                          const std::string& problem) {
  if (sub.role != model::SubTestRole::DirthSweep || cell.id.rfind("tc", 0) != 0) return problem;
  std::string msg = problem;
  for (const auto& [flag, word] : {std::pair<std::string, std::string>{"--oio ", "QD "}, {"--threads ", "TC "}})
    for (size_t at = msg.find(flag); at != std::string::npos; at = msg.find(flag, at)) msg.replace(at, flag.size(), word);
  return d.file + ":" + std::to_string(d.own<DirthDef>().grid_line) + ": [dirth] thread_counts x queue_depths: point TC " +
         std::to_string(cell.spec.threads) + " / QD " + std::to_string(cell.spec.queue_depth) +
         " is larger than the target supports: " + msg;
}

}  // namespace

const ProcedureRow& dirth_procedure() {
  static const ProcedureRow row = [] {
    ProcedureRow r;
    r.name = "dirth";
    r.table = "dirth";
    r.reads = {"workload", "editions.workloads", "steady_state.window_rounds", "steady_state.max_rounds",
               "steady_state.data_excursion_pct", "steady_state.slope_excursion_pct"};
    r.scaled = true;
    r.takes_workload = true;
    r.takes_art_ceiling = true;
    r.read = read;
    r.check = check;
    r.resolve = resolve;
    r.worst_case = worst_case;
    r.describe = describe;
    r.explain_limit = explain_limit;
    return r;
  }();
  return row;
}

}  // namespace pts::config
