// config/hir.cpp — the Host Idle Recovery row of the procedure table (PTS-E 1.1 §11), definition
// side: the [hir] table (stimulus, wait states, Access A / B / C, baseline), resolved into the
// steady-state preconditioning sub-test, one sub-test per wait state and the model::HirPlan that
// pts/hir.cpp runs. The rules and their sources: docs/pts-rules.md.
#include <algorithm>

#include "config/procedure_rows.h"
#include "config/resolver_text.h"
#include "config/toml_reader.h"
#include "config/workloads.h"

namespace pts::config {

namespace {

using namespace detail;

/// [hir]
struct HirDef {
  std::string workload;
  uint32_t precondition_round_cells = 30;  ///< cells per preconditioning Round; the last is tracked
  std::vector<double> wait_seconds;        ///< Access B idle per wait state
  double access_a_seconds = 5;
  uint32_t repetitions = 360;
  double access_c_sample_seconds = 5;  ///< one Access C sample
  uint32_t access_c_samples = 360;     ///< Access C samples back to back (360 × 5 s = 1800 s)
  std::string baseline = "precondition";
  int line = 0;
};

void read(TableReader& r, TestDefinition& d) {
  HirDef h;
  h.line = r.line();
  r.only_keys({"workload", "precondition_round_cells", "wait_seconds", "access_a_seconds", "repetitions",
               "access_c_sample_seconds", "access_c_samples", "baseline"});
  if (auto v = r.string("workload", true)) h.workload = *v;
  if (auto v = r.integer("precondition_round_cells", 1, 1000)) h.precondition_round_cells = static_cast<uint32_t>(*v);
  if (const toml::array* a = r.array("wait_seconds", true)) {
    for (const auto& e : *a) {
      const auto v = e.value<double>();
      if (!e.is_number() || !v || !(*v > 0) || *v > 86400) {
        std::string shown = e.is_number() && v ? number_text(*v) : std::string(type_name(e));
        r.problems().add(line_of(e), "[hir] wait_seconds: " + shown +
                                         " is not an idle time (seconds greater than 0, at most 86400)");
        continue;
      }
      h.wait_seconds.push_back(*v);
    }
    if (a->empty()) r.problems().add(line_of(*a), "[hir] wait_seconds is empty: HIR needs at least one wait state");
  }
  if (auto v = r.number("access_a_seconds", 0, true, 86400)) h.access_a_seconds = *v;
  if (auto v = r.integer("repetitions", 1, 1000000)) h.repetitions = static_cast<uint32_t>(*v);
  if (auto v = r.number("access_c_sample_seconds", 0, true, 86400)) h.access_c_sample_seconds = *v;
  if (auto v = r.integer("access_c_samples", 1, 1000000)) h.access_c_samples = static_cast<uint32_t>(*v);
  if (auto v = r.choice("baseline", {"precondition", "preceding-return"})) h.baseline = *v;
  d.own_table = h;
}

void check(const TestDefinition& d, Problems& p, bool /*shared_ok*/) {
  const auto& h = d.own<HirDef>();
  check_workload(d, h.workload, "[hir] workload", h.line, p);
  check_class_workloads(d, p);
}

/// "5s", "2p5s" — a sub-test id for a wait state.
std::string wait_id(double seconds) {
  std::string n = num(seconds);
  std::replace(n.begin(), n.end(), '.', 'p');
  return "wait-" + n + "s";
}

void resolve(ResolveCtx& c) {
  const HirDef& h = c.d.own<HirDef>();
  const WorkloadDef* wl = stimulus(c, h.workload);
  if (!wl) return;
  auto& p = c.plan();
  const std::string label = workload_label(*wl);
  model::HirPlan hp;
  hp.spec_access_a_seconds = h.access_a_seconds;
  hp.access_a_seconds = c.scaled(h.access_a_seconds);
  hp.repetitions = h.repetitions;
  hp.spec_access_c_sample_seconds = h.access_c_sample_seconds;
  hp.access_c_sample_seconds = c.scaled(h.access_c_sample_seconds);
  hp.access_c_samples = h.access_c_samples;
  hp.spec_wait_seconds = h.wait_seconds;
  for (double w : h.wait_seconds) hp.wait_seconds.push_back(c.scaled(w));
  hp.baseline = h.baseline;
  if (h.wait_seconds != std::vector<double>{5, 10, 15, 25, 50} || h.access_a_seconds != 5 || h.repetitions != 360 ||
      h.access_c_sample_seconds != 5 || h.access_c_samples != 360) {
    std::string waits;
    for (double w : h.wait_seconds) waits += (waits.empty() ? "" : ", ") + num(w);
    c.deviate("hir-phases", "HIR wait states " + waits + " s, " + std::to_string(h.repetitions) + " × (" +
                                num(h.access_a_seconds) + " s writes + idle), " + std::to_string(h.access_c_samples) +
                                " × " + num(h.access_c_sample_seconds) + " s back to baseline, instead of 5, 10, 15, "
                                "25, 50 s, 360 × (5 s + idle), 360 × 5 s");
  }
  c.interpret("HIR preconditioning: Rounds of " + std::to_string(h.precondition_round_cells) + " × " +
              duration_words(p.cell_seconds) + " " + label + " until steady state, tracked on the last sample of "
              "each Round (the reading of two implementations; the spec text was not available; [hir] "
              "precondition_round_cells)");
  c.interpret(h.baseline == "precondition"
                  ? "HIR baseline: the steady-state window average IOPS of the preconditioning; recovery = mean IOPS "
                    "of a wait state's Access A writes ÷ baseline ([hir] baseline)"
                  : "HIR baseline: the mean IOPS of the Access C before each wait state (the preconditioning's "
                    "window average before the first); recovery = mean Access A IOPS ÷ baseline ([hir] baseline)");
  note_unsegmented_client(c);
  c.interpret("HIR Access B: the host submits nothing (the engine and the kernel counters before and after each idle "
              "are journaled); Access C, the return to baseline, is " + std::to_string(hp.access_c_samples) + " samples of " +
              duration_words(hp.access_c_sample_seconds) + " back to back with no idle (ADATA's PTS 2.0 HIR: 360 × 5 s, "
              "so the recovery curve has points; [hir] access_c_samples, access_c_sample_seconds)");
  p.subtests.push_back(precondition_subtest(c, *wl, h.precondition_round_cells,
                                            "HIR – Preconditioning " + label + " to steady state"));
  for (size_t i = 0; i < h.wait_seconds.size(); ++i) {
    model::SubTestPlan s;
    s.id = wait_id(h.wait_seconds[i]);
    s.title = "HIR – Wait State " + std::to_string(i + 1) + ": " + num(h.wait_seconds[i]) + " s idle";
    s.role = model::SubTestRole::HirWaitState;
    s.role_index = static_cast<uint32_t>(i);
    s.purge = false;
    s.wipc_enabled = false;
    s.cells.push_back(make_cell("access-a", "Access A: " + label,
                                workload_spec(c, *wl, p.threads, p.queue_depth, hp.access_a_seconds)));
    s.cells.push_back(make_cell("access-c", "Access C: " + label,
                                workload_spec(c, *wl, p.threads, p.queue_depth, hp.access_c_sample_seconds)));
    for (const auto& other : p.subtests)
      if (other.id == s.id)
        c.errors.push_back(c.at(h.line) + "[hir] wait_seconds lists " + num(h.wait_seconds[i]) + " twice");
    p.subtests.push_back(std::move(s));
  }
  p.procedure_plan = hp;
}

bool wait_state(const model::TestPlan& p, const model::SubTestPlan& s) {
  const auto* h = p.params<model::HirPlan>();
  return h && s.role == model::SubTestRole::HirWaitState && s.role_index < h->wait_seconds.size();
}

SubtestWorstCase worst_case(const model::TestPlan& p, const model::SubTestPlan& s) {
  if (!wait_state(p, s)) return rounds_worst_case(p, s);
  const auto& h = *p.params<model::HirPlan>();
  return {h.repetitions * (h.access_a_seconds + h.wait_seconds[s.role_index]) +
              h.access_c_samples * h.access_c_sample_seconds,
          std::to_string(h.repetitions) + " × (" + duration_words(h.access_a_seconds) + " + " +
              duration_words(h.wait_seconds[s.role_index]) + " idle) + " + std::to_string(h.access_c_samples) + " × " +
              duration_words(h.access_c_sample_seconds)};
}

std::string after_colon(const std::string& label) {
  const auto at = label.find(": ");
  return at == std::string::npos ? label : label.substr(at + 2);
}

SubtestText describe(const model::TestPlan& p, const model::SubTestPlan& s) {
  if (!wait_state(p, s) || s.cells.size() != 2) return describe_rounds(p, s);
  const auto& h = *p.params<model::HirPlan>();
  SubtestText out;
  out.phases.push_back(std::to_string(h.repetitions) + " × (Access A " + duration_words(h.access_a_seconds) + " " +
                       after_colon(s.cells[0].label) + " at " + tcqd(p) + " + Access B " +
                       duration_words(h.wait_seconds[s.role_index]) + " host idle, nothing submitted)");
  out.phases.push_back("then Access C: " + std::to_string(h.access_c_samples) + " × " +
                       duration_words(h.access_c_sample_seconds) + " " + after_colon(s.cells[1].label) +
                       " back to back, no idle (back to baseline)");
  return out;
}

}  // namespace

const ProcedureRow& hir_procedure() {
  static const ProcedureRow row = [] {
    ProcedureRow r;
    r.name = "hir";
    r.table = "hir";
    r.reads = {"workload", "editions.workloads", "steady_state.window_rounds", "steady_state.max_rounds",
               "steady_state.data_excursion_pct", "steady_state.slope_excursion_pct"};
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
