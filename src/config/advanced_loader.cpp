// config/advanced_loader.cpp — see advanced_loader.h. Every range below is what a run can do,
// not what the spec says; departures from the spec are deviations at plan time
// (advanced_resolver.cpp), not load errors.
#include "config/advanced_loader.h"

#include <algorithm>
#include <set>

#include "core/units.h"

namespace pts::config::detail {

namespace {

const std::vector<std::string>& procedures() {
  static const std::vector<std::string> v = {kProcSteadyRounds, kProcWsat, kProcHir, kProcXsr, kProcDirth};
  return v;
}

const std::vector<std::string>& procedure_tables() {
  static const std::vector<std::string> v = {kProcWsat, kProcHir, kProcXsr, kProcDirth};
  return v;
}

bool one_of(const std::string& v, std::initializer_list<const char*> allowed) {
  return std::any_of(allowed.begin(), allowed.end(), [&](const char* a) { return v == a; });
}

std::string list(std::initializer_list<const char*> allowed) {
  std::string out;
  for (const char* a : allowed) out += (out.empty() ? "" : ", ") + std::string(a);
  return out;
}

/// A string key that must be one of `allowed`.
std::optional<std::string> choice(TableReader& r, std::string_view key, std::initializer_list<const char*> allowed) {
  auto v = r.string(key);
  if (v && !one_of(*v, allowed)) {
    r.problems().add(r.line(key), r.where() + " " + std::string(key) + " '" + *v + "' must be one of " + list(allowed));
    return std::nullopt;
  }
  return v;
}

/// An array of positive integers in [lo, hi], no value twice; nullopt after a problem.
std::optional<std::vector<uint32_t>> counts(TableReader& r, std::string_view key, int64_t lo, int64_t hi,
                                            bool required) {
  const toml::array* a = r.array(key, required);
  if (!a) return std::nullopt;
  std::vector<uint32_t> out;
  bool good = true;
  for (const auto& e : *a) {
    const auto v = e.value<int64_t>();
    if (!e.is_integer() || *v < lo || *v > hi) {
      r.problems().add(line_of(e), r.where() + " " + std::string(key) + " values must be integers from " +
                                       std::to_string(lo) + " to " + std::to_string(hi));
      good = false;
      continue;
    }
    if (std::find(out.begin(), out.end(), static_cast<uint32_t>(*v)) != out.end()) {
      r.problems().add(line_of(e), r.where() + " " + std::string(key) + " lists " + std::to_string(*v) + " twice");
      good = false;
    }
    out.push_back(static_cast<uint32_t>(*v));
  }
  if (good && out.empty()) {
    r.problems().add(line_of(*a), r.where() + " " + std::string(key) + " is empty");
    good = false;
  }
  if (!good) return std::nullopt;
  return out;
}

void read_bs_split(const toml::array& a, const std::string& where, Problems& p, WorkloadDef& w) {
  uint32_t sum = 0;
  for (const auto& node : a) {
    const toml::table* t = node.as_table();
    if (!t) {
      p.add(line_of(node), where + " bs_split entries are tables like { bs = \"4k\", pct = 67 }");
      continue;
    }
    TableReader r(*t, where + " bs_split", p);
    r.only_keys({"bs", "pct"});
    auto bs = r.block_size("bs", true);
    auto pct = r.integer("pct", 1, 100, true);
    if (!bs || !pct) continue;
    for (const auto& s : w.bs_split)
      if (s.bytes == *bs) p.add(line_of(node), where + " bs_split lists " + core::format_block_size(*bs) + " twice");
    w.bs_split.push_back({*bs, static_cast<uint32_t>(*pct)});
    sum += static_cast<uint32_t>(*pct);
  }
  if (a.empty()) p.add(line_of(a), where + " bs_split is empty");
  else if (sum != 100 && w.bs_split.size() == a.size())
    p.add(line_of(a), where + " bs_split shares sum to " + std::to_string(sum) + " %, not 100 %");
}

void read_workload(const std::string& id, const toml::table& t, Problems& p, AdvancedDef& a) {
  const std::string where = "[workload." + id + "]";
  TableReader r(t, where, p);
  r.only_keys({"title", "pattern", "read_pct", "block_size", "bs_split", "zones"});
  WorkloadDef w;
  w.id = id;
  w.line = r.line();
  w.title = r.string("title").value_or(id);
  if (auto v = choice(r, "pattern", {"random", "sequential"}))
    w.pattern = *v == "random" ? model::AccessPattern::Random : model::AccessPattern::Sequential;
  else if (!t.contains("pattern"))
    p.add(w.line, where + " needs \"pattern\"");
  if (auto v = r.integer("read_pct", 0, 100, true)) w.read_pct = static_cast<uint32_t>(*v);
  const bool has_bs = t.contains("block_size"), has_split = t.contains("bs_split");
  if (has_bs == has_split) p.add(w.line, where + " needs exactly one of block_size and bs_split");
  if (auto v = r.block_size("block_size")) w.block_bytes = *v;
  if (const toml::array* s = r.array("bs_split")) read_bs_split(*s, where, p, w);
  if (auto z = r.string("zones")) {  // fio's zoned syntax, as [matrix] zones
    w.zones_line = r.line("zones");
    std::string why;
    if (!model::parse_zones(*z, w.zones, why)) p.add(w.zones_line, where + " zones '" + *z + "': " + why);
    for (const auto& m : model::zone_problems(w.zones)) p.add(w.zones_line, where + " zones '" + *z + "': " + m);
    if (w.pattern == model::AccessPattern::Sequential)
      p.add(w.zones_line, where + " zones apply to random access only (pattern is \"sequential\")");
  }
  a.workloads[id] = std::move(w);
}

void read_wsat(TableReader r, WsatDef& w) {
  w.line = r.line();
  r.only_keys({"workload", "max_hours", "capacity_multiple", "stop_at_steady", "fob_samples", "cliff_fraction",
               "plateau_samples"});
  if (auto v = r.string("workload", true)) w.workload = *v;
  if (auto v = r.number("max_hours", 0, true, 1000)) w.max_hours = *v;
  if (auto v = r.number("capacity_multiple", 0, true, 100)) w.capacity_multiple = *v;
  if (auto v = r.boolean("stop_at_steady")) w.stop_at_steady = *v;
  if (auto v = r.integer("fob_samples", 1, 100000)) w.fob_samples = static_cast<uint32_t>(*v);
  if (auto v = r.number("cliff_fraction", 0, true, 1)) {
    if (*v >= 1) r.problems().add(r.line("cliff_fraction"), "[wsat] cliff_fraction must be below 1");
    w.cliff_fraction = *v;
  }
  if (auto v = r.integer("plateau_samples", 1, 1000000)) w.plateau_samples = static_cast<uint32_t>(*v);
}

void read_hir(TableReader r, HirDef& h) {
  h.line = r.line();
  r.only_keys({"workload", "precondition_round_cells", "wait_seconds", "access_a_seconds", "repetitions",
               "access_c_seconds", "baseline"});
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
  if (auto v = r.number("access_c_seconds", 0, true, 864000)) h.access_c_seconds = *v;
  if (auto v = choice(r, "baseline", {"precondition", "preceding-return"})) h.baseline = *v;
}

void read_xsr(TableReader r, XsrDef& x) {
  x.line = r.line();
  r.only_keys({"groups", "recovery_reference", "recovery_tolerance_pct"});
  if (auto v = choice(r, "recovery_reference", {"group1-mean"})) x.recovery_reference = *v;
  if (auto v = r.number("recovery_tolerance_pct", 0, false, 50)) x.recovery_tolerance_pct = *v;
  const toml::array* a = r.array("groups", true);
  if (!a) return;
  for (const auto& node : *a) {
    const toml::table* t = node.as_table();
    if (!t) {
      r.problems().add(line_of(node), "[xsr] groups entries are tables like { id = \"ag1\", workload = \"...\", hours = 8 }");
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
      if (!def.id.empty() && other.id == def.id) r.problems().add(def.line, "[xsr] group id '" + def.id + "' is used twice");
    x.groups.push_back(std::move(def));
  }
  if (x.groups.size() != 3)
    r.problems().add(line_of(*a), "[xsr] groups: XSR runs three Access Groups (large SEQ, small RND, large SEQ), not " +
                                      std::to_string(x.groups.size()));
}

void read_dirth(TableReader r, DirthDef& d) {
  d.line = r.line();
  r.only_keys({"workload", "precondition_workload", "precondition_round_cells", "thread_counts", "queue_depths",
               "sweep_order", "art_ceiling_ms", "round_prewrite_minutes", "histogram_prewrite_minutes",
               "histogram_minutes", "mid_rule"});
  if (auto v = r.string("workload", true)) d.workload = *v;
  if (auto v = r.string("precondition_workload", true)) d.precondition_workload = *v;
  if (auto v = r.integer("precondition_round_cells", 1, 1000)) d.precondition_round_cells = static_cast<uint32_t>(*v);
  d.grid_line = r.line("thread_counts");
  if (auto v = counts(r, "thread_counts", 1, 1024, true)) d.thread_counts = *v;
  if (auto v = counts(r, "queue_depths", 1, 65536, true)) d.queue_depths = *v;
  if (auto v = choice(r, "sweep_order", {"toio-descending", "tc-outer"})) d.sweep_order = *v;
  d.ceiling_line = r.line("art_ceiling_ms");
  if (auto v = r.number("art_ceiling_ms", 0, true, 60000)) d.art_ceiling_ms = *v;
  if (auto v = r.number("round_prewrite_minutes", 0, false, 1440)) d.round_prewrite_minutes = *v;
  if (auto v = r.number("histogram_prewrite_minutes", 0, false, 1440)) d.histogram_prewrite_minutes = *v;
  if (auto v = r.number("histogram_minutes", 0, true, 1440)) d.histogram_minutes = *v;
  if (auto v = choice(r, "mid_rule", {"closest-to-midpoint-under-ceiling", "closest-to-midpoint"})) d.mid_rule = *v;
}

/// `name` names a [workload.*] of the definition; else a problem at `line`.
void check_workload(const AdvancedDef& a, const std::string& name, const std::string& where, int line, Problems& p) {
  if (name.empty() || a.workloads.count(name)) return;
  std::string known;
  for (const auto& [id, _] : a.workloads) known += (known.empty() ? "" : ", ") + id;
  p.add(line, where + " names workload '" + name + "', which no [workload." + name + "] defines" +
                  (known.empty() ? "" : " (defined: " + known + ")"));
}

}  // namespace

bool known_procedure(const std::string& name) {
  const auto& v = procedures();
  return std::find(v.begin(), v.end(), name) != v.end();
}

std::string procedure_names() {
  std::string out;
  for (const auto& n : procedures()) out += (out.empty() ? "" : ", ") + n;
  return out;
}

void read_advanced(const toml::table& root, TableReader& top, Problems& p, TestDefinition& d) {
  for (const auto& name : procedure_tables())
    if (name != d.procedure && root.contains(name))
      p.add(top.line(name), "[" + name + "] does not apply: [test] procedure is \"" + d.procedure + "\"");
  if (const toml::table* w = top.table("workload", true)) {
    for (auto&& [key, node] : *w) {
      const std::string id(key.str());
      const toml::table* t = node.as_table();
      if (!t) {
        p.add(line_of(node), "[workload." + id + "] must be a table");
        continue;
      }
      read_workload(id, *t, p, d.advanced);
    }
    if (w->empty()) p.add(line_of(*w), "[workload] defines no workload");
  }
  AdvancedDef& a = d.advanced;
  const std::string where = "[" + d.procedure + "]";
  const toml::table* t = top.table(d.procedure, true);
  if (!t) return;
  if (d.procedure == kProcWsat) read_wsat(TableReader(*t, where, p), a.wsat.emplace());
  else if (d.procedure == kProcHir) read_hir(TableReader(*t, where, p), a.hir.emplace());
  else if (d.procedure == kProcXsr) read_xsr(TableReader(*t, where, p), a.xsr.emplace());
  else if (d.procedure == kProcDirth) read_dirth(TableReader(*t, where, p), a.dirth.emplace());
}

void reject_advanced_tables(const toml::table& root, TableReader& top, Problems& p) {
  for (const auto& name : procedure_tables())
    if (root.contains(name))
      p.add(top.line(name), "[" + name + "] does not apply: [test] procedure is \"steady-rounds\" (the default)");
  if (root.contains("workload"))
    p.add(top.line("workload"), "[workload.*] tables are for the advanced procedures; this test runs a [matrix]");
}

void cross_check_advanced(const TestDefinition& d, Problems& p) {
  const AdvancedDef& a = d.advanced;
  if (d.wipc)
    p.add(1, "[preconditioning] wipc: the " + d.procedure +
                 " procedure has no WIPC (it starts from FOB or preconditions with its own stimulus); set wipc = false");
  if (a.wsat) check_workload(a, a.wsat->workload, "[wsat] workload", a.wsat->line, p);
  if (a.hir) check_workload(a, a.hir->workload, "[hir] workload", a.hir->line, p);
  if (a.xsr)
    for (const auto& g : a.xsr->groups) check_workload(a, g.workload, "[xsr] group '" + g.id + "'", g.line, p);
  if (a.dirth) {
    check_workload(a, a.dirth->workload, "[dirth] workload", a.dirth->line, p);
    check_workload(a, a.dirth->precondition_workload, "[dirth] precondition_workload", a.dirth->line, p);
    for (const auto& [id, w] : a.workloads)
      if (w.pattern != model::AccessPattern::Random)
        p.add(w.line, "[workload." + id + "] the DIRTH procedure sweeps random access only");
  }
  for (const auto& [edition, classes] : d.editions)
    for (const auto& [cls, cs] : classes)
      for (const auto& w : cs.workloads)
        check_workload(a, w, "[editions.\"" + edition + "\"." + cls + "] workloads", cs.line, p);
}

}  // namespace pts::config::detail
