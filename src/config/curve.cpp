// config/curve.cpp — the latency-vs-load curve row of the procedure table, definition side (not
// a SNIA PTS test: VDbench's `iorate=curve` as review labs run it). The [curve] table (workload,
// the points as fractions of the achieved maximum, their arrival process, warm-up and measured
// interval, the optional response-time stop, where the profile comes from and which
// preconditioning runs first) is resolved into the review preconditioning (when asked for), one
// "curve-points" sub-test whose cells are a QD 1 reference, the maximum run and the points, each
// after its own excluded warm-up, and the model::CurvePlan that pts/curve.cpp runs.
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

/// [curve]
struct CurveDef {
  std::string workload;
  std::vector<double> fractions_pct = {10, 50, 70, 80, 90, 100};  ///< VDbench's default curve
  std::string arrival = "exponential";
  double warmup_seconds = 30;
  double interval_seconds = 60;
  double stop_response_ms = 0;
  bool qd1_reference = true;
  ReviewKeys review;
  int line = 0;
};

void read_fractions(TableReader& r, CurveDef& x) {
  const toml::array* a = r.array("points_pct");
  if (!a) return;
  x.fractions_pct.clear();
  for (const auto& e : *a) {
    const auto v = e.value<double>();
    if (!e.is_number() || !v || !(*v > 0) || *v > 200) {
      const std::string shown = e.is_number() && v ? number_text(*v) + " %" : std::string(type_name(e));
      r.problems().add(line_of(e), "[curve] points_pct: " + shown +
                                       " is not a curve point (a fraction of the maximum rate above 0 % and at most 200 %)");
      continue;
    }
    if (std::find(x.fractions_pct.begin(), x.fractions_pct.end(), *v) != x.fractions_pct.end())
      r.problems().add(line_of(e), "[curve] points_pct lists " + number_text(*v) + " % twice");
    x.fractions_pct.push_back(*v);
  }
  if (a->empty()) r.problems().add(line_of(*a), "[curve] points_pct is empty: a curve needs at least one point");
}

void read(TableReader& r, TestDefinition& d) {
  CurveDef x;
  x.line = r.line();
  std::vector<std::string_view> keys = {"workload", "points_pct", "arrival", "warmup_seconds", "interval_seconds",
                                        "stop_response_ms", "qd1_reference"};
  keys.insert(keys.end(), review_key_names().begin(), review_key_names().end());
  r.only_keys(keys);
  if (auto v = r.string("workload", true)) x.workload = *v;
  read_fractions(r, x);
  if (auto v = r.choice("arrival", {"exponential", "uniform", "fixed"})) x.arrival = *v;
  if (auto v = r.number("warmup_seconds", 0, false, 86400)) x.warmup_seconds = *v;
  if (auto v = r.number("interval_seconds", 0, true, 86400)) x.interval_seconds = *v;
  if (auto v = r.number("stop_response_ms", 0, true, 600000)) x.stop_response_ms = *v;
  if (auto v = r.boolean("qd1_reference")) x.qd1_reference = *v;
  read_review_keys(r, x.review);
  d.own_table = x;
}

void check(const TestDefinition& d, Problems& p, bool /*shared_ok*/) {
  const auto& x = d.own<CurveDef>();
  check_workload(d, x.workload, "[curve] workload", x.line, p);
}

}  // namespace

namespace {


void add_measured(model::SubTestPlan& s, const std::string& id, const std::string& label, model::AccessSpec spec,
                  double warmup_seconds, double interval_seconds) {
  if (warmup_seconds > 0) {
    spec.seconds = warmup_seconds;
    s.cells.push_back(make_cell(id + "-warmup", "Warm-up (excluded): " + label, spec));
  }
  spec.seconds = interval_seconds;
  s.cells.push_back(make_cell(id, label, spec));
}

void resolve(ResolveCtx& c) {
  const CurveDef& x = c.d.own<CurveDef>();
  const auto it = c.d.workloads.find(x.workload);
  if (it == c.d.workloads.end()) return;
  const WorkloadDef& wl = it->second;
  auto& p = c.plan();
  const ReviewStart start = start_review(c, x.review, wl);
  const std::string& name = start.name;
  model::CurvePlan cp;
  cp.workload = wl.id;
  cp.workload_title = wl.title;
  cp.fractions_pct = x.fractions_pct;
  cp.arrival = x.arrival;
  cp.spec_warmup_seconds = x.warmup_seconds;
  cp.warmup_seconds = c.scaled(x.warmup_seconds);
  cp.spec_interval_seconds = x.interval_seconds;
  cp.interval_seconds = c.scaled(x.interval_seconds);
  cp.stop_response_ms = x.stop_response_ms;
  cp.qd1_reference = x.qd1_reference;
  cp.profile = start.profile;
  cp.review = start.review;

  model::Arrival arrival = model::Arrival::Exponential;
  model::parse_arrival(x.arrival, arrival);
  std::string points;
  for (double f : x.fractions_pct) points += (points.empty() ? "" : ", ") + num(f);
  c.interpret(name + " curve (VDbench iorate=curve): first the maximum rate (unpaced, TC " + std::to_string(p.threads) +
              " × QD " + std::to_string(p.queue_depth) + "), then points paced at " + points +
              " % of the maximum it achieved, with " + x.arrival + " arrivals ([curve] arrival); each point " +
              duration_words(cp.interval_seconds) + " after a " + duration_words(cp.warmup_seconds) +
              " warm-up at the same rate that is excluded (a run of its own: the schedule starts again with the "
              "measured interval)");
  c.interpret(name + " latency: response time runs from each I/O's scheduled arrival, so a point the drive cannot "
                     "sustain shows the wait for a free slot (no coordinated omission); service time runs from its "
                     "submission. The maximum run is unpaced: there the two are the same");
  if (x.stop_response_ms > 0)
    c.interpret(name + " stopcurve: the curve ends after the first point whose mean response time exceeds " +
                num(x.stop_response_ms) + " ms ([curve] stop_response_ms)");

  model::SubTestPlan s;
  s.id = "curve";
  s.title = name + " – Latency vs load, " + workload_label(wl);
  s.role = model::SubTestRole::CurvePoints;
  s.purge = !cp.review.enabled && purge_wanted(c);
  s.wipc_enabled = false;
  if (x.qd1_reference)
    add_measured(s, "qd1", "QD 1 reference: " + workload_label(wl) + " at TC 1 / QD 1",
                 workload_spec(c, wl, 1, 1, cp.interval_seconds), cp.warmup_seconds, cp.interval_seconds);
  const model::AccessSpec at_depth = workload_spec(c, wl, p.threads, p.queue_depth, cp.interval_seconds);
  add_measured(s, "max", "Maximum rate: " + workload_label(wl) + " at " + tcqd(p), at_depth, cp.warmup_seconds,
               cp.interval_seconds);
  for (double f : x.fractions_pct) {
    model::AccessSpec paced = at_depth;
    paced.arrival = arrival;  // rate_iops: the fraction of the achieved maximum, set when the point runs
    add_measured(s, model::curve_point_id(f), num(f) + " % of the maximum: " + workload_label(wl) + ", " + x.arrival +
                                           " arrivals",
                 paced, cp.warmup_seconds, cp.interval_seconds);
  }
  p.subtests.push_back(std::move(s));
  p.procedure_plan = cp;
}

SubtestWorstCase worst_case(const model::TestPlan& p, const model::SubTestPlan& s) {
  if (s.role == model::SubTestRole::ReviewPrecondition) return review_worst_case(p, s);
  SubtestWorstCase out;
  for (const auto& c : s.cells) out.seconds += c.spec.seconds;
  out.how = std::to_string(s.cells.size()) + " runs, warm-ups included";
  return out;
}

SubtestText describe(const model::TestPlan& p, const model::SubTestPlan& s) {
  if (s.role == model::SubTestRole::ReviewPrecondition) return describe_review(p, s);
  SubtestText out;
  const auto* cp = p.params<model::CurvePlan>();
  for (const auto& c : s.cells) {
    if (c.id.size() > 7 && c.id.compare(c.id.size() - 7, 7, "-warmup") == 0) continue;
    out.phases.push_back(c.label + ", " + duration_words(c.spec.seconds) +
                         (cp && cp->warmup_seconds > 0 ? " after a " + duration_words(cp->warmup_seconds) + " warm-up"
                                                        : std::string()));
  }
  if (cp && cp->stop_response_ms > 0)
    out.phases.push_back("stops after a point whose mean response time exceeds " + num(cp->stop_response_ms) + " ms");
  return out;
}

}  // namespace

const ProcedureRow& curve_procedure() {
  static const ProcedureRow row = [] {
    ProcedureRow r;
    r.name = "curve";
    r.table = "curve";
    r.reads = {"workload", "engine"};
    r.scaled = true;
    r.not_snia_group = "Review-lab workloads (not SNIA PTS tests: curves, sweeps, application profiles)";
    r.read = read;
    r.check = check;
    r.resolve = resolve;
    r.worst_case = worst_case;
    r.describe = describe;
    return r;
  }();
  return row;
}

}  // namespace pts::config
