// config/wsat.cpp — the Write Saturation row of the procedure table (PTS-E 1.1 §10), definition
// side: the [wsat] table (stimulus, stop rule, the readings of the FOB plateau, cliff and steady
// plateau), resolved into one sub-test of samples from FOB and the model::WsatPlan that
// pts/wsat.cpp runs. The rules and their sources: docs/pts-rules.md.
#include <algorithm>
#include <cmath>

#include "config/procedure_rows.h"
#include "config/resolver_text.h"
#include "config/toml_reader.h"
#include "config/workloads.h"
#include "core/units.h"

namespace pts::config {

namespace {

using namespace detail;

/// [wsat]
struct WsatDef {
  std::string workload;            ///< default stimulus (a [workload.ID])
  double max_hours = 24;
  double capacity_multiple = 4;
  bool stop_at_steady = false;
  uint32_t ss_interval_samples = 31;
  std::vector<std::string> operator_hours_editions;  ///< editions whose test period is the operator's
  double operator_hours_min = 6, operator_hours_max = 24;
  uint32_t fob_samples = 5;
  double cliff_fraction = 0.5;
  uint32_t plateau_samples = 30;
  int line = 0;
};

void read(TableReader& r, TestDefinition& d) {
  WsatDef w;
  w.line = r.line();
  r.only_keys({"workload", "max_hours", "capacity_multiple", "stop_at_steady", "ss_interval_samples",
               "operator_hours_editions", "operator_hours_range", "fob_samples", "cliff_fraction", "plateau_samples"});
  if (auto v = r.string("workload", true)) w.workload = *v;
  if (auto v = r.number("max_hours", 0, true, 1000)) w.max_hours = *v;
  if (auto v = r.number("capacity_multiple", 0, true, 100)) w.capacity_multiple = *v;
  if (auto v = r.boolean("stop_at_steady")) w.stop_at_steady = *v;
  if (auto v = r.integer("ss_interval_samples", 1, 100000)) w.ss_interval_samples = static_cast<uint32_t>(*v);
  if (auto v = r.strings("operator_hours_editions")) w.operator_hours_editions = *v;
  if (const toml::array* a = r.array("operator_hours_range")) {
    const auto lo = a->size() == 2 ? (*a)[0].value<double>() : std::nullopt;
    const auto hi = a->size() == 2 ? (*a)[1].value<double>() : std::nullopt;
    if (!lo || !hi || !(*lo > 0) || *hi < *lo || *hi > 1000)
      r.problems().add(line_of(*a), "[wsat] operator_hours_range is [MIN, MAX] hours, 0 < MIN <= MAX <= 1000");
    else
      w.operator_hours_min = *lo, w.operator_hours_max = *hi;
  }
  if (auto v = r.integer("fob_samples", 1, 100000)) w.fob_samples = static_cast<uint32_t>(*v);
  if (auto v = r.number("cliff_fraction", 0, true, 1)) {
    if (*v >= 1) r.problems().add(r.line("cliff_fraction"), "[wsat] cliff_fraction must be below 1");
    w.cliff_fraction = *v;
  }
  if (auto v = r.integer("plateau_samples", 1, 1000000)) w.plateau_samples = static_cast<uint32_t>(*v);
  d.own_table = w;
}

void check(const TestDefinition& d, Problems& p, bool /*shared_ok*/) {
  const auto& w = d.own<WsatDef>();
  check_workload(d, w.workload, "[wsat] workload", w.line, p);
  check_class_workloads(d, p);
}

void resolve(ResolveCtx& c) {
  const WsatDef& w = c.d.own<WsatDef>();
  const WorkloadDef* wl = stimulus(c, w.workload);
  if (!wl) return;
  auto& p = c.plan();
  model::WsatPlan wp;
  wp.workload = wl->id;
  wp.workload_title = wl->title;
  wp.spec_max_seconds = w.max_hours * 3600;
  wp.max_seconds = c.scaled(wp.spec_max_seconds);
  wp.capacity_multiple = w.capacity_multiple;
  wp.stop_bytes = static_cast<uint64_t>(std::floor(static_cast<long double>(w.capacity_multiple) * c.id.capacity_bytes));
  wp.stop_at_steady = w.stop_at_steady;
  wp.ss_interval_samples = w.ss_interval_samples;
  wp.fob_samples = w.fob_samples;
  wp.cliff_fraction = w.cliff_fraction;
  wp.plateau_samples = w.plateau_samples;
  // The test period: 4 × capacity or 24 h, whichever first; where the edition lets the operator
  // choose the period (operator_hours_editions), any period inside operator_hours_range is the spec's.
  const bool hours_choice = std::find(w.operator_hours_editions.begin(), w.operator_hours_editions.end(),
                                      p.pts_edition) != w.operator_hours_editions.end();
  const bool hours_ok = hours_choice ? w.max_hours >= w.operator_hours_min && w.max_hours <= w.operator_hours_max
                                     : w.max_hours == 24;
  if (!hours_ok || w.capacity_multiple != 4)
    c.deviate("wsat-stop", "WSAT stops at " + num(w.capacity_multiple) + " × capacity or " + num(w.max_hours) +
                               " h instead of 4 × capacity or " +
                               (hours_choice ? "a period of " + num(w.operator_hours_min) + "–" +
                                                   num(w.operator_hours_max) + " h of the operator's choice"
                                             : std::string("24 h")));
  else if (hours_choice)
    c.interpret("WSAT test period: " + num(w.max_hours) + " h or " + num(w.capacity_multiple) +
                " × capacity, whichever first; " + edition_title(p.pts_edition) + " leaves the period to the operator (" +
                num(w.operator_hours_min) + "–" + num(w.operator_hours_max) +
                " h in the one PTS 2.0 implementation; [wsat] max_hours)");
  if (w.stop_at_steady) {
    const std::string rule = "Rounds of " + std::to_string(w.ss_interval_samples) + " samples (" +
                             std::to_string(w.ss_interval_samples - 1) + " of the stimulus + 1 steady-state sample), "
                             "tracked on the IOPS of each Round's last sample, Measurement Window " +
                             std::to_string(p.window_rounds) + " Rounds, judged from the " +
                             std::to_string(p.window_rounds) + "th Round on (CloudHarmony's and ADATA's WSAT; "
                             "[wsat] ss_interval_samples)";
    // Not a deviation in either edition: CloudHarmony's PTS-E 1.1 implementation names it the
    // spec's "alternate steady state test method", ADATA's PTS 2.0 one stops at it.
    c.interpret("WSAT also stops at steady state, the spec's alternate method: " + rule);
  }
  c.interpret("WSAT FOB plateau: the mean IOPS of the first " + std::to_string(w.fob_samples) +
              " samples ([wsat] fob_samples; the sources do not define it)");
  c.interpret("WSAT write cliff: the first sample below " + num(w.cliff_fraction * 100) +
              " % of the FOB plateau ([wsat] cliff_fraction)");
  c.interpret("WSAT steady plateau: the mean IOPS of the last " + std::to_string(w.plateau_samples) +
              " samples ([wsat] plateau_samples)");
  note_unsegmented_client(c);
  c.interpret("WSAT time limit: counted in stimulus time (the samples' durations), so a resumed run keeps its limit");
  model::SubTestPlan s;
  s.id = wl->id;
  s.title = "WSAT – " + wl->title;
  s.role = model::SubTestRole::WsatSamples;
  s.purge = purge_wanted(c);
  s.wipc_enabled = false;
  s.cells.push_back(make_cell("wsat", workload_label(*wl), workload_spec(c, *wl, p.threads, p.queue_depth, p.cell_seconds)));
  if (w.stop_at_steady)  // a Tracking Variable only where a steady-state determination applies
    s.tracking.push_back({"wsat", model::Metric::Iops,
                          workload_label(*wl) + " IOPS (last sample of each Round of " +
                              std::to_string(w.ss_interval_samples) + ")"});
  p.subtests.push_back(std::move(s));
  p.procedure_plan = wp;
}

SubtestWorstCase worst_case(const model::TestPlan& p, const model::SubTestPlan& s) {
  const auto* w = p.params<model::WsatPlan>();
  if (!w || s.role != model::SubTestRole::WsatSamples) return rounds_worst_case(p, s);
  return {w->max_seconds, "until " + num(w->capacity_multiple) + " × capacity (" + core::format_bytes(w->stop_bytes) +
                              ") is written or " + duration_words(w->max_seconds) + " of samples, whichever first"};
}

SubtestText describe(const model::TestPlan& p, const model::SubTestPlan& s) {
  const auto* w = p.params<model::WsatPlan>();
  if (!w || s.role != model::SubTestRole::WsatSamples || s.cells.empty()) return describe_rounds(p, s);
  SubtestText out;
  out.phases.push_back("from FOB: " + std::string(s.purge ? "purge" : "no purge") + ", no WIPC");
  out.phases.push_back("samples of " + duration_words(p.cell_seconds) + " " + s.cells[0].label + " at " + tcqd(p) +
                       ", back to back");
  out.phases.push_back("stop " + worst_case(p, s).how +
                       (w->stop_at_steady ? ", or at steady state (Rounds of " +
                                                std::to_string(w->ss_interval_samples) + " samples, the last tracked)"
                                          : ""));
  return out;
}

}  // namespace

const ProcedureRow& wsat_procedure() {
  static const ProcedureRow row = [] {
    ProcedureRow r;
    r.name = "wsat";
    r.table = "wsat";
    r.reads = {"workload", "editions.workloads", "steady_state.window_rounds", "steady_state.data_excursion_pct",
               "steady_state.slope_excursion_pct"};
    r.scaled = true;
    r.takes_workload = true;
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
