// config/sweep.cpp — the Iometer-style sweep row of the procedure table, definition side (not a
// SNIA PTS test). The [sweep] table (workload, the depth steps as workers × outstanding I/Os
// each, the read shares, each step's ramp and measured interval, the Little's-law tolerance and
// the gain under which writes "stop climbing", where the profile comes from and which
// preconditioning runs first) is resolved into the review preconditioning (when asked for), one
// "sweep-steps" sub-test whose cells are every step's ramp (excluded) and measured interval,
// read share outer and depth inner, and the model::SweepPlan that pts/sweep.cpp runs.
#include <algorithm>
#include <optional>

#include "config/procedure_rows.h"
#include "config/resolver_text.h"
#include "config/review_common.h"
#include "config/toml_reader.h"
#include "config/workloads.h"

namespace pts::config {

namespace {

using namespace detail;

/// [sweep]
struct SweepDef {
  std::string workload;
  std::vector<uint32_t> workers;      ///< TC per depth step; empty = the plan's TC
  std::vector<uint32_t> outstanding;  ///< QD per worker per depth step (same length)
  std::vector<uint32_t> read_pcts;    ///< empty = the workload's
  double ramp_seconds = 30;
  double interval_seconds = 300;
  double climb_gain_pct = 4;
  double littles_law_tolerance_pct = 5;
  ReviewKeys review;
  int line = 0;
  int depth_line = 0;
};

/// An array of integers in [lo, hi] that may repeat (a depth step's workers do).
std::optional<std::vector<uint32_t>> integers(TableReader& r, std::string_view key, int64_t lo, int64_t hi) {
  const toml::array* a = r.array(key);
  if (!a) return std::nullopt;
  std::vector<uint32_t> out;
  bool ok = true;
  for (const auto& e : *a) {
    const auto v = e.value_exact<int64_t>();  // an integer node only: a float is never cast
    if (!v || *v < lo || *v > hi) {
      r.problems().add(line_of(e), r.where() + " " + std::string(key) + ": values are integers from " +
                                       std::to_string(lo) + " to " + std::to_string(hi));
      ok = false;
      continue;
    }
    out.push_back(static_cast<uint32_t>(*v));
  }
  if (a->empty()) {
    r.problems().add(line_of(*a), r.where() + " " + std::string(key) + " is empty");
    ok = false;
  }
  if (!ok) return std::nullopt;
  return out;
}

void read(TableReader& r, TestDefinition& d) {
  SweepDef x;
  x.line = r.line();
  std::vector<std::string_view> keys = {"workload", "workers", "outstanding", "read_pcts", "ramp_seconds",
                                        "interval_seconds", "climb_gain_pct", "littles_law_tolerance_pct"};
  keys.insert(keys.end(), review_key_names().begin(), review_key_names().end());
  r.only_keys(keys);
  if (auto v = r.string("workload", true)) x.workload = *v;
  x.depth_line = r.line("workers");
  if (auto v = integers(r, "workers", 1, 1024)) x.workers = *v;
  if (auto v = integers(r, "outstanding", 1, 65536)) x.outstanding = *v;
  if (x.workers.size() != x.outstanding.size() && r.node("workers") && r.node("outstanding"))
    r.problems().add(x.depth_line, "[sweep] workers lists " + std::to_string(x.workers.size()) +
                                       " steps and outstanding " + std::to_string(x.outstanding.size()) +
                                       ": each depth step is a pair (workers, outstanding I/Os per worker)");
  if ((r.node("workers") != nullptr) != (r.node("outstanding") != nullptr))
    r.problems().add(x.line, "[sweep] workers and outstanding go together (one depth step per pair)");
  if (auto v = r.counts("read_pcts", 0, 100)) x.read_pcts = *v;
  if (auto v = r.number("ramp_seconds", 0, false, 86400)) x.ramp_seconds = *v;
  if (auto v = r.number("interval_seconds", 0, true, 86400)) x.interval_seconds = *v;
  if (auto v = r.number("climb_gain_pct", 0, true, 100)) x.climb_gain_pct = *v;
  if (auto v = r.number("littles_law_tolerance_pct", 0, true, 100)) x.littles_law_tolerance_pct = *v;
  read_review_keys(r, x.review);
  d.own_table = x;
}

void check(const TestDefinition& d, Problems& p, bool /*shared_ok*/) {
  const auto& x = d.own<SweepDef>();
  check_workload(d, x.workload, "[sweep] workload", x.line, p);
}


void resolve(ResolveCtx& c) {
  const SweepDef& x = c.d.own<SweepDef>();
  const auto it = c.d.workloads.find(x.workload);
  if (it == c.d.workloads.end()) return;
  const WorkloadDef& wl = it->second;
  auto& p = c.plan();
  const ReviewStart start = start_review(c, x.review, wl);
  const std::string& name = start.name;
  model::SweepPlan sp;
  sp.workload = wl.id;
  sp.workload_title = wl.title;
  sp.spec_ramp_seconds = x.ramp_seconds;
  sp.ramp_seconds = c.scaled(x.ramp_seconds);
  sp.spec_interval_seconds = x.interval_seconds;
  sp.interval_seconds = c.scaled(x.interval_seconds);
  sp.climb_gain_pct = x.climb_gain_pct;
  sp.littles_law_tolerance_pct = x.littles_law_tolerance_pct;
  sp.profile = start.profile;
  sp.review = start.review;

  std::vector<std::pair<uint32_t, uint32_t>> depths;
  for (size_t k = 0; k < std::min(x.workers.size(), x.outstanding.size()); ++k)
    depths.emplace_back(x.workers[k], x.outstanding[k]);
  if (depths.empty()) depths.emplace_back(p.threads, p.queue_depth);
  std::vector<uint32_t> shares = x.read_pcts.empty() ? std::vector<uint32_t>{wl.read_pct} : x.read_pcts;
  std::string steps;
  for (const auto& [w, q] : depths) steps += (steps.empty() ? "" : ", ") + std::to_string(w) + "×" + std::to_string(q);
  std::string mixes;
  for (uint32_t r : shares) mixes += (mixes.empty() ? "" : ", ") + std::to_string(r);
  c.interpret(name + " sweep (Iometer style): read share " + mixes + " % (outer) × depth steps workers × outstanding "
              "I/Os each " + steps + " (inner); a worker is a thread (TC), its outstanding I/Os its QD; each step a " +
              duration_words(sp.ramp_seconds) + " ramp that is excluded (a run of its own), then " +
              duration_words(sp.interval_seconds) + " measured");
  c.interpret(name + " checks Little's law per step (IOPS × mean latency within " + num(x.littles_law_tolerance_pct) +
              " % of TC × QD) and names where writes stop climbing: the first doubling of the total depth that "
              "gains less than " + num(x.climb_gain_pct) + " % IOPS ([sweep] climb_gain_pct)");
  if (depths.size() > 1)
    c.interpret(name + " doubles the load by workers, then by depth: it cannot tell workers from depth (only a fixed "
                       "total traded one for the other would)");

  model::SubTestPlan s;
  s.id = "sweep";
  s.title = name + " – Sweep, " + workload_label(wl);
  s.role = model::SubTestRole::SweepSteps;
  s.purge = !sp.review.enabled && purge_wanted(c);
  s.wipc_enabled = false;
  WorkloadDef w = wl;
  for (uint32_t r : shares) {
    w.read_pct = r;
    for (const auto& [tc, qd] : depths) {
      const std::string id = "rw" + std::to_string(r) + "-w" + std::to_string(tc) + "x" + std::to_string(qd);
      const std::string label = workload_label(w) + " at " + std::to_string(tc) + " workers × " + std::to_string(qd) +
                                " (total QD " + std::to_string(tc * qd) + ")";
      model::AccessSpec spec = workload_spec(c, w, tc, qd, sp.ramp_seconds);
      if (sp.ramp_seconds > 0) s.cells.push_back(make_cell(id + "-ramp", "Ramp (excluded): " + label, spec));
      spec.seconds = sp.interval_seconds;
      s.cells.push_back(make_cell(id, label, spec));
    }
  }
  p.subtests.push_back(std::move(s));
  p.procedure_plan = sp;
}

SubtestWorstCase worst_case(const model::TestPlan& p, const model::SubTestPlan& s) {
  if (s.role == model::SubTestRole::ReviewPrecondition) return review_worst_case(p, s);
  SubtestWorstCase out;
  for (const auto& c : s.cells) out.seconds += c.spec.seconds;
  out.how = std::to_string(s.cells.size()) + " runs, ramps included";
  return out;
}

SubtestText describe(const model::TestPlan& p, const model::SubTestPlan& s) {
  if (s.role == model::SubTestRole::ReviewPrecondition) return describe_review(p, s);
  SubtestText out;
  const auto* sp = p.params<model::SweepPlan>();
  for (const auto& c : s.cells) {
    if (c.id.size() > 5 && c.id.compare(c.id.size() - 5, 5, "-ramp") == 0) continue;
    out.phases.push_back(c.label + ", " + duration_words(c.spec.seconds) +
                         (sp && sp->ramp_seconds > 0 ? " after a " + duration_words(sp->ramp_seconds) + " ramp"
                                                     : std::string()));
  }
  return out;
}

/// A step exceeds an engine limit: its workers and depth come from [sweep], not from flags.
std::string explain_limit(const TestDefinition& d, const model::SubTestPlan& sub, const model::CellPlan& cell,
                          const std::string& problem) {
  if (sub.role != model::SubTestRole::SweepSteps) return problem;
  return d.file + ":" + std::to_string(d.own<SweepDef>().depth_line) + ": [sweep] step " + std::to_string(cell.spec.threads) +
         " workers × " + std::to_string(cell.spec.queue_depth) + " is larger than the target supports: " + problem;
}

}  // namespace

const ProcedureRow& sweep_procedure() {
  static const ProcedureRow row = [] {
    ProcedureRow r;
    r.name = "sweep";
    r.table = "sweep";
    r.reads = {"workload", "engine"};
    r.scaled = true;
    r.not_snia_group = "Review-lab workloads (not SNIA PTS tests: curves, sweeps, application profiles)";
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
