// config/xsr.cpp — the Cross Stimulus Recovery row of the procedure table (PTS-E 1.1 §12),
// definition side: the [xsr] table (three Access Groups and the recovery rule), resolved into
// one sub-test holding a cell per group and the model::XsrPlan that pts/xsr.cpp runs. The rules
// and their sources: docs/pts-rules.md.
#include <cmath>

#include "config/procedure_rows.h"
#include "config/resolver_text.h"
#include "config/toml_reader.h"
#include "config/workloads.h"

namespace pts::config {

namespace {

using namespace detail;

/// One [[xsr.group]].
struct XsrGroupDef {
  std::string id;
  std::string workload;
  double hours = 0;
  int line = 0;
};

/// [xsr]
struct XsrDef {
  std::vector<XsrGroupDef> groups;
  std::string recovery_reference = "group1-mean";
  int line = 0;
};

void read(TableReader& r, TestDefinition& d) {
  XsrDef x;
  x.line = r.line();
  r.only_keys({"groups", "recovery_reference"});
  if (auto v = r.choice("recovery_reference", {"group1-mean"})) x.recovery_reference = *v;
  if (const toml::array* a = r.array("groups", true)) {
    for (const auto& node : *a) {
      const toml::table* t = node.as_table();
      if (!t) {
        r.problems().add(line_of(node),
                         "[xsr] groups entries are tables like { id = \"ag1\", workload = \"...\", hours = 8 }");
        continue;
      }
      TableReader g(*t, "[xsr] group", r.problems());
      g.only_keys({"id", "workload", "hours"});
      XsrGroupDef def;
      def.line = line_of(node);
      if (auto v = g.string("id", true)) def.id = *v;
      if (auto v = g.string("workload", true)) def.workload = *v;
      if (auto v = g.number("hours", 0, true, 1000, true)) def.hours = *v;
      for (const auto& other : x.groups)
        if (!def.id.empty() && other.id == def.id)
          r.problems().add(def.line, "[xsr] group id '" + def.id + "' is used twice");
      x.groups.push_back(std::move(def));
    }
    if (x.groups.size() != 3)
      r.problems().add(line_of(*a), "[xsr] groups: XSR runs three Access Groups (large SEQ, small RND, large SEQ), "
                                    "not " + std::to_string(x.groups.size()));
  }
  d.own_table = x;
}

void check(const TestDefinition& d, Problems& p, bool /*shared_ok*/) {
  for (const auto& g : d.own<XsrDef>().groups) check_workload(d, g.workload, "[xsr] group '" + g.id + "'", g.line, p);
}

void resolve(ResolveCtx& c) {
  const XsrDef& x = c.d.own<XsrDef>();
  auto& p = c.plan();
  model::XsrPlan xp;
  xp.recovery_reference = x.recovery_reference;
  model::SubTestPlan s;
  s.id = "main";
  s.role = model::SubTestRole::XsrGroups;
  s.purge = purge_wanted(c);
  s.wipc_enabled = false;
  std::string title, groups_text;
  bool as_spec = x.groups.size() == 3;
  static const struct { model::AccessPattern pattern; uint32_t bs; double hours; } kSpec[3] = {
      {model::AccessPattern::Sequential, 1048576, 8}, {model::AccessPattern::Random, 8192, 6},
      {model::AccessPattern::Sequential, 1048576, 8}};
  for (size_t g = 0; g < x.groups.size(); ++g) {
    const auto& gd = x.groups[g];
    const WorkloadDef& w = c.d.workloads.at(gd.workload);
    const std::string label = workload_label(w);
    s.cells.push_back(make_cell(gd.id, "Access Group " + std::to_string(g + 1) + ": " + label,
                                workload_spec(c, w, p.threads, p.queue_depth, p.cell_seconds)));
    xp.groups.push_back({gd.id, c.scaled(gd.hours * 3600), gd.hours * 3600});
    title += (title.empty() ? "" : " → ") + label;
    groups_text += (groups_text.empty() ? "" : ", ") + label + " " + num(gd.hours) + " h";
    if (g < 3 && (w.pattern != kSpec[g].pattern || w.block_bytes != kSpec[g].bs || !w.bs_split.empty() ||
                  w.read_pct != 0 || gd.hours != kSpec[g].hours))
      as_spec = false;
  }
  s.title = "XSR – " + title;
  if (!as_spec)
    c.deviate("xsr-groups", "XSR Access Groups " + groups_text + " instead of SEQ 1024 KiB W 8 h, RND 8 KiB W 6 h, "
                            "SEQ 1024 KiB W 8 h");
  c.interpret("XSR durations 8 h / 6 h / 8 h and TC/QD come from one implementation (the spec text was not "
              "available); TC/QD here: " + tcqd(p));
  note_unsegmented_client(c);
  c.interpret("XSR recovery time: " + std::string(model::xsr_recovery_rule()) + " (ADATA's XSR, the one implementation; the spec "
              "text was not available; [xsr] recovery_reference)");
  p.subtests.push_back(std::move(s));
  p.procedure_plan = xp;
}

SubtestWorstCase worst_case(const model::TestPlan& p, const model::SubTestPlan& s) {
  const auto* x = p.params<model::XsrPlan>();
  if (!x || s.role != model::SubTestRole::XsrGroups) return rounds_worst_case(p, s);
  SubtestWorstCase out;
  for (const auto& g : x->groups) out.seconds += std::ceil(g.seconds / p.cell_seconds - 1e-9) * p.cell_seconds;
  out.how = "the Access Groups' durations in whole " + duration_words(p.cell_seconds) + " samples";
  return out;
}

SubtestText describe(const model::TestPlan& p, const model::SubTestPlan& s) {
  const auto* x = p.params<model::XsrPlan>();
  if (!x || s.role != model::SubTestRole::XsrGroups) return describe_rounds(p, s);
  SubtestText out;
  for (size_t g = 0; g < x->groups.size() && g < s.cells.size(); ++g)
    out.phases.push_back(s.cells[g].label + " at " + tcqd(p) + " for " + duration_words(x->groups[g].seconds) +
                         " in " + duration_words(p.cell_seconds) + " samples");
  return out;
}

}  // namespace

const ProcedureRow& xsr_procedure() {
  static const ProcedureRow row = [] {
    ProcedureRow r;
    r.name = "xsr";
    r.table = "xsr";
    r.reads = {"workload"};
    r.scaled = true;
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
