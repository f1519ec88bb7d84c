// config/definition_loader.cpp — reads tests-pts/<test>.toml into a TestDefinition and
// validates it, collecting every problem with its file:line (definition.h): the parts every
// procedure shares here, the shared tables the procedure's row reads, the row's own table by
// its read function; a shared key the row does not read is refused. Uses toml++ through
// toml_reader.h.
#include <algorithm>
#include <fstream>
#include <sstream>

#include "config/definition.h"
#include "config/procedure_table.h"
#include "config/toml_reader.h"
#include "config/workloads.h"
#include "core/units.h"

namespace pts::config {

using detail::line_of;
using detail::parse_toml;
using detail::Problems;
using detail::TableReader;

const std::vector<std::string>& known_editions() {
  static const std::vector<std::string> v = {"pts-e-1.1", "pts-2.0.2"};
  return v;
}

const std::vector<std::string>& known_classes() {
  static const std::vector<std::string> v = {"enterprise", "client"};
  return v;
}

std::string cell_id(uint32_t read_pct, uint32_t block_bytes) {
  return "rw" + std::to_string(read_pct) + "-bs" + std::to_string(block_bytes);
}

const char* metric_name(model::Metric metric) {
  switch (metric) {
    case model::Metric::Iops: return "iops";
    case model::Metric::Mbps: return "mbps";
    case model::Metric::MeanLatencyNs: return "mean_latency";
    case model::Metric::MaxLatencyNs: return "max_latency";
  }
  return "?";
}

namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

bool valid_id(const std::string& id) {
  if (id.empty()) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
}

void read_test(TableReader r, TestDefinition& d) {
  r.only_keys({"id", "title", "aliases", "template", "description", "procedure"});
  if (auto v = r.string("id", true)) {
    if (!valid_id(*v)) r.problems().add(r.line("id"), "[test] id '" + *v + "' must use a-z, 0-9, '-' or '_'");
    d.id = *v;
  }
  if (auto v = r.string("title", true)) d.title = *v;
  if (auto v = r.strings("aliases")) d.aliases = *v;
  d.template_name = r.string("template").value_or(d.id);
  if (auto v = r.string("description")) d.description = *v;
  if (auto v = r.string("procedure")) {
    if (!v->empty() && find_procedure(*v)) d.procedure = *v;
    else r.problems().add(r.line("procedure"), "[test] procedure '" + *v + "' is not one of " + procedure_names());
  }
}

/// Refuses every shared key of table `t` (named `where`; keys "<prefix>.<key>" in shared_keys())
/// that the procedure does not read.
void refuse_unread_keys(const toml::table& t, const std::string& prefix, const std::string& where,
                        const ProcedureRow& row, Problems& p) {
  const auto& shared = shared_keys();
  for (auto&& [key, node] : t) {
    const std::string k(key.str());
    const std::string qualified = prefix + "." + k;
    if (std::find(shared.begin(), shared.end(), qualified) == shared.end() || reads(row, qualified)) continue;
    const int line = key.source().begin.line > 0 ? static_cast<int>(key.source().begin.line) : line_of(node);
    p.add(line, where + " " + k + ": the " + row.name + " procedure does not read this key; remove it");
  }
}

void read_steady_state(TableReader r, TestDefinition& d) {
  r.only_keys({"cell_seconds", "window_rounds", "max_rounds", "data_excursion_pct", "slope_excursion_pct"});
  if (auto v = r.number("cell_seconds", 0, true, 86400)) d.cell_seconds = *v;
  if (auto v = r.integer("window_rounds", 2, 1000)) d.window_rounds = static_cast<uint32_t>(*v);
  if (auto v = r.integer("max_rounds", 1, 100000)) d.max_rounds = static_cast<uint32_t>(*v);
  if (auto v = r.number("data_excursion_pct", 0, true, 100)) d.data_excursion_pct = *v;
  if (auto v = r.number("slope_excursion_pct", 0, true, 100)) d.slope_excursion_pct = *v;
  if (d.max_rounds < d.window_rounds)
    r.problems().add(r.line("max_rounds"), "[steady_state] max_rounds " + std::to_string(d.max_rounds) +
                                               " is shorter than window_rounds " + std::to_string(d.window_rounds));
}

void read_preconditioning(TableReader r, TestDefinition& d) {
  r.only_keys({"purge", "wipc", "wipc_capacity_multiple", "wipc_block_size", "wipc_threads", "wipc_queue_depth"});
  if (auto v = r.boolean("purge")) d.purge = *v;
  if (auto v = r.integer("wipc_threads", 1, 1024)) d.wipc_threads = static_cast<uint32_t>(*v);
  if (auto v = r.integer("wipc_queue_depth", 1, 65536)) d.wipc_queue_depth = static_cast<uint32_t>(*v);
  if (auto v = r.boolean("wipc")) d.wipc = *v;
  if (auto v = r.number("wipc_capacity_multiple", 0, true, 100)) d.wipc_capacity_multiple = *v;
  if (auto s = r.string("wipc_block_size"); s && *s == "subtest") {
    d.wipc_block_bytes = 0;
  } else if (auto bs = r.block_size("wipc_block_size")) {
    d.wipc_block_bytes = *bs;
  }
}

void read_engine(TableReader r, TestDefinition& d) {
  r.only_keys({"poll_budget_us"});
  // "auto" (the engine's own choice per target, see model/access_spec.h) or microseconds.
  const toml::node* node = r.node("poll_budget_us");
  if (!node) return;
  if (node->is_string() && node->value_or(std::string{}) == "auto") {
    d.poll_budget_ns = model::kPollBudgetAuto;
  } else if (const auto us = node->value_exact<int64_t>(); us && *us >= 0 &&
                                                      uint64_t(*us) <= model::kMaxPollBudgetUs) {
    d.poll_budget_ns = static_cast<uint64_t>(*us) * 1000;
  } else {
    r.problems().add(r.line("poll_budget_us"), "[engine] poll_budget_us must be \"auto\" or a whole number of "
                                               "microseconds from 0 to " + std::to_string(model::kMaxPollBudgetUs));
  }
}

void read_matrix(TableReader r, TestDefinition& d) {
  r.only_keys({"pattern", "rw_mix", "block_sizes", "data_pattern", "zones"});
  if (auto p = r.string("pattern", true)) {
    if (*p == "random") d.pattern = model::AccessPattern::Random;
    else if (*p == "sequential") d.pattern = model::AccessPattern::Sequential;
    else r.problems().add(r.line("pattern"), "[matrix] pattern '" + *p + "' must be \"random\" or \"sequential\"");
  }
  if (auto p = r.string("data_pattern")) {
    if (*p != "random")
      r.problems().add(r.line("data_pattern"),
                       "[matrix] data_pattern '" + *p + "': only \"random\" (incompressible) data is supported");
  }
  if (const toml::array* a = r.array("rw_mix", true)) {
    for (const auto& e : *a) {
      const auto v = e.value_exact<int64_t>();  // an integer node only: a float is never cast
      if (!v || *v < 0 || *v > 100) {
        r.problems().add(line_of(e), "[matrix] rw_mix values are read percentages, integers 0…100");
        continue;
      }
      if (std::find(d.rw_mix.begin(), d.rw_mix.end(), static_cast<uint32_t>(*v)) != d.rw_mix.end())
        r.problems().add(line_of(e), "[matrix] rw_mix lists " + std::to_string(*v) + " twice");
      d.rw_mix.push_back(static_cast<uint32_t>(*v));
    }
    if (a->empty()) r.problems().add(line_of(*a), "[matrix] rw_mix is empty");
  }
  if (auto v = r.block_sizes("block_sizes")) d.block_sizes = *v;
  if (auto z = r.string("zones")) {
    d.zones_line = r.line("zones");
    std::string why;
    if (!model::parse_zones(*z, d.zones, why)) r.problems().add(d.zones_line, "[matrix] zones '" + *z + "': " + why);
    for (const auto& m : model::zone_problems(d.zones))
      r.problems().add(d.zones_line, "[matrix] zones '" + *z + "': " + m);
    if (!d.zones.empty() && d.pattern == model::AccessPattern::Sequential)
      r.problems().add(d.zones_line, "[matrix] zones apply to random access only (pattern is \"sequential\")");
  }
}

void read_subtests(const toml::array& arr, Problems& p, TestDefinition& d) {
  for (const auto& node : arr) {
    const toml::table* t = node.as_table();
    if (!t) {
      p.add(line_of(node), "[[subtest]] must be a table");
      continue;
    }
    TableReader r(*t, "[[subtest]]", p);
    r.only_keys({"id", "title", "block_sizes"});
    SubTestDef s;
    s.line = r.line();
    if (auto v = r.string("id", true)) {
      if (!valid_id(*v)) p.add(r.line("id"), "[[subtest]] id '" + *v + "' must use a-z, 0-9, '-' or '_'");
      for (const auto& other : d.subtests)
        if (other.id == *v) p.add(r.line("id"), "[[subtest]] id '" + *v + "' is used twice");
      s.id = *v;
    }
    s.title = r.string("title").value_or(s.id);
    if (auto v = r.block_sizes("block_sizes")) s.block_sizes = *v;
    else if (!t->contains("block_sizes")) {
      if (d.block_sizes.empty()) p.add(s.line, "[[subtest]] '" + s.id + "' needs block_sizes ([matrix] has none)");
      s.block_sizes = d.block_sizes;
    }
    d.subtests.push_back(std::move(s));
  }
}

std::optional<model::Metric> parse_metric(const std::string& name) {
  for (auto m : {model::Metric::Iops, model::Metric::Mbps, model::Metric::MeanLatencyNs, model::Metric::MaxLatencyNs})
    if (name == metric_name(m)) return m;
  return std::nullopt;
}

void read_tracking(const toml::array& arr, const std::string& where, Problems& p, ClassSettings& cs) {
  for (const auto& node : arr) {
    const toml::table* t = node.as_table();
    if (!t) {
      p.add(line_of(node), where + " tracking entries are tables like { rw = 0, bs = \"4k\", metric = \"iops\" }");
      continue;
    }
    TableReader r(*t, where + " tracking", p);
    r.only_keys({"rw", "bs", "metric"});
    TrackingDef td;
    td.line = line_of(node);
    auto rw = r.integer("rw", 0, 100, true);
    auto bs = r.block_size("bs", true);
    auto metric = r.string("metric", true);
    if (metric && !parse_metric(*metric))
      p.add(r.line("metric"), where + " tracking metric '" + *metric +
                                  "' must be one of iops, mbps, mean_latency, max_latency");
    if (!rw || !bs || !metric || !parse_metric(*metric)) continue;
    td.read_pct = static_cast<uint32_t>(*rw);
    td.block_bytes = *bs;
    td.metric = *parse_metric(*metric);
    cs.tracking.push_back(td);
  }
}

void read_class(const toml::table& t, const std::string& where, Problems& p, ClassSettings& cs,
                const ProcedureRow& row) {
  TableReader r(t, where, p);
  cs.line = r.line();
  r.only_keys({"write_cache", "active_range_pct", "active_range_segments", "active_range_amount", "threads",
               "queue_depth", "tc_qd", "tracking", "subtests", "workloads"});
  refuse_unread_keys(t, "editions", where, row, p);
  if (auto v = r.boolean("write_cache", true)) cs.write_cache_enabled = *v;
  if (auto v = r.number("active_range_pct", 0, true, 100, true)) cs.active_range_pct = *v;
  if (auto v = r.integer("active_range_segments", 1, 1 << 20)) {
    cs.active_range_segments = static_cast<uint32_t>(*v);
    cs.segments_line = r.line("active_range_segments");
  }
  if (auto v = r.string("active_range_amount")) {
    cs.amount_line = r.line("active_range_amount");
    const auto bytes = core::parse_size_bytes(*v);
    if (!bytes || *bytes == 0)
      p.add(cs.amount_line, where + " active_range_amount '" + *v + "' is not a size (e.g. \"16g\")");
    else cs.active_range_amount_bytes = *bytes;
  }
  if (cs.active_range_segments > 1 && cs.active_range_amount_bytes == 0 && cs.amount_line == 0)
    p.add(cs.segments_line, where + " active_range_segments > 1 needs active_range_amount (the capacity the "
                                    "segments cover together, e.g. \"16g\")");
  if (auto v = r.integer("threads", 1, 1024, true)) cs.threads = static_cast<uint32_t>(*v);
  if (auto v = r.integer("queue_depth", 1, 65536, true)) cs.queue_depth = static_cast<uint32_t>(*v);
  if (auto v = r.string("tc_qd", true)) {
    if (*v == "required") cs.tc_qd_rule = TcQdRule::Required;
    else if (*v == "recommended") cs.tc_qd_rule = TcQdRule::Recommended;
    else if (*v == "operator-choice") cs.tc_qd_rule = TcQdRule::OperatorChoice;
    else p.add(r.line("tc_qd"), where + " tc_qd '" + *v + "' must be required, recommended or operator-choice");
  }
  if (reads(row, "editions.tracking"))  // a procedure that reads Tracking Variables needs them
    if (const toml::array* a = r.array("tracking", true)) {
      read_tracking(*a, where, p, cs);
      if (a->empty()) p.add(line_of(*a), where + " tracking is empty: steady state needs a Tracking Variable");
    }
  if (auto v = r.strings("subtests")) cs.subtests = *v;
  if (reads(row, "editions.workloads"))
    if (auto v = r.strings("workloads")) cs.workloads = *v;
}

}  // namespace

core::Result<TestDefinition> parse_definition(const std::string& text, const std::string& file) {
  Problems p(file);
  auto parsed = parse_toml(text, p);
  if (!parsed) return core::Error(core::ErrorKind::BadInput, p.list());
  const toml::table& root = *parsed;
  TestDefinition d;
  d.file = file;
  TableReader top(root, "the file", p);
  std::vector<std::string_view> tables = {"test", "steady_state", "preconditioning", "engine", "matrix", "subtest",
                                          "editions", "workload"};
  for (const ProcedureRow* row : procedures())
    if (row->table) tables.push_back(row->table);
  top.only_keys(tables);
  if (const toml::table* t = top.table("test", true)) read_test(TableReader(*t, "[test]", p), d);
  const ProcedureRow& row = *find_procedure(d.procedure);  // unknown: reported; read as the default
  d.procedure = row.name;
  if (const toml::table* t = top.table("steady_state")) {
    read_steady_state(TableReader(*t, "[steady_state]", p), d);
    refuse_unread_keys(*t, "steady_state", "[steady_state]", row, p);
  }
  if (const toml::table* t = top.table("preconditioning")) {
    read_preconditioning(TableReader(*t, "[preconditioning]", p), d);
    refuse_unread_keys(*t, "preconditioning", "[preconditioning]", row, p);
  }
  if (!reads(row, "preconditioning.wipc")) d.wipc = false;  // the procedure has no WIPC
  // The shared tables: read when the procedure reads them (then they are required), refused
  // when it does not.
  auto refuse_table = [&](const char* key, const std::string& shown) {
    if (root.contains(key) && !reads(row, key))
      p.add(top.line(key), shown + ": the " + std::string(row.name) + " procedure does not read this table; remove it");
  };
  refuse_table("engine", "[engine]");
  refuse_table("matrix", "[matrix]");
  refuse_table("subtest", "[[subtest]]");
  refuse_table("workload", "[workload.*]");
  if (reads(row, "engine"))
    if (const toml::table* t = top.table("engine")) read_engine(TableReader(*t, "[engine]", p), d);
  const size_t before_shared = p.size();
  const bool matrix = reads(row, "matrix");
  if (matrix)
    if (const toml::table* t = top.table("matrix", true)) read_matrix(TableReader(*t, "[matrix]", p), d);
  if (reads(row, "workload")) detail::read_workloads(top, p, d);
  for (const ProcedureRow* other : procedures())  // tables of other procedures
    if (other->table && other != &row && (!row.table || std::string(row.table) != other->table) &&
        root.contains(other->table))
      p.add(top.line(other->table),
            "[" + std::string(other->table) + "] does not apply: [test] procedure is \"" + row.name + "\"");
  if (row.table)
    if (const toml::table* t = top.table(row.table, true)) {
      TableReader own(*t, "[" + std::string(row.table) + "]", p);
      if (row.read) row.read(own, d);
    }
  if (reads(row, "subtest"))
    if (const toml::array* a = top.array("subtest")) read_subtests(*a, p, d);
  if (d.subtests.empty() && matrix) {
    if (d.block_sizes.empty() && root.contains("matrix") && !root["matrix"]["block_sizes"])
      p.add(top.line("matrix"), "[matrix] needs block_sizes (or define [[subtest]] tables with block_sizes)");
    d.subtests.push_back(SubTestDef{"main", d.title, d.block_sizes, 1});
  }
  const bool shared_ok = p.size() == before_shared;
  if (d.wipc && !root["preconditioning"]["wipc_block_size"])
    p.add(top.line("preconditioning"), "[preconditioning] needs wipc_block_size (a size, or \"subtest\" for the "
                                       "sub-test's block size) when wipc = true");

  if (const toml::table* eds = top.table("editions", true)) {
    for (auto&& [ekey, enode] : *eds) {
      const std::string edition(ekey.str());
      const int eline = ekey.source().begin.line > 0 ? static_cast<int>(ekey.source().begin.line) : line_of(enode);
      if (!contains(known_editions(), edition)) {
        p.add(eline, "[editions] unknown edition '" + edition + "' (known: " + joined(known_editions()) + ")");
        continue;
      }
      const toml::table* classes = enode.as_table();
      if (!classes) {
        p.add(eline, "[editions.\"" + edition + "\"] must be a table of classes");
        continue;
      }
      for (auto&& [ckey, cnode] : *classes) {
        const std::string cls(ckey.str());
        const std::string where = "[editions.\"" + edition + "\"." + cls + "]";
        const int cline = ckey.source().begin.line > 0 ? static_cast<int>(ckey.source().begin.line) : line_of(cnode);
        if (!contains(known_classes(), cls)) {
          p.add(cline, "[editions.\"" + edition + "\"] unknown class '" + cls + "' (known: " +
                           joined(known_classes()) + ")");
          continue;
        }
        const toml::table* ct = cnode.as_table();
        if (!ct) {
          p.add(cline, where + " must be a table");
          continue;
        }
        read_class(*ct, where, p, d.editions[edition][cls], row);
      }
    }
    if (eds->empty()) p.add(line_of(*eds), "[editions] defines no edition");
  }
  if (row.check && (!row.table || d.own_table.has_value())) row.check(d, p, shared_ok);
  if (!p.empty()) return core::Error(core::ErrorKind::BadInput, p.list());
  return d;
}

core::Result<TestDefinition> load_definition(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return core::bad_input(path + ": cannot read the test definition");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_definition(ss.str(), path);
}

}  // namespace pts::config
