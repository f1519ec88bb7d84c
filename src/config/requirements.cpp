// config/requirements.cpp — see requirements.h. The file's shape (docs/qualify.md):
//   [sheet]                 title, source, notes
//   [points.NAME]           test, subtest, read_pct, block_size, threads, queue_depth, load
//   [[requirement]]         id, text, at (a point's NAME), figure, and exactly one of min / max
#include "config/requirements.h"

#include <algorithm>
#include <set>

#include "config/catalog.h"
#include "config/toml_reader.h"
#include "core/atomic_file.h"

namespace pts::config {

namespace {

using detail::line_of;
using detail::parse_toml;
using detail::Problems;
using detail::TableReader;

/// Test ids and aliases → the id run.json stores; empty when tests-pts/ cannot be read (the
/// problem is then reported once).
std::vector<std::pair<std::string, std::string>> test_names(std::string& problem) {
  std::vector<std::pair<std::string, std::string>> out;
  auto dir = find_tests_dir();
  if (!dir) {
    problem = dir.error().message();
    return out;
  }
  auto defs = load_all_definitions(*dir);
  if (!defs) {
    problem = defs.error().message();
    return out;
  }
  for (const auto& d : *defs) {
    out.emplace_back(d.id, d.id);
    for (const auto& a : d.aliases) out.emplace_back(a, d.id);
  }
  return out;
}

void read_sheet(TableReader r, model::RequirementSheet& s) {
  r.only_keys({"title", "source", "notes"});
  if (auto v = r.string("title", true)) s.title = *v;
  if (auto v = r.string("source")) s.source = *v;
  if (auto v = r.strings("notes")) s.notes = *v;
}

model::TestPoint read_point(const std::string& name, TableReader r,
                            const std::vector<std::pair<std::string, std::string>>& tests) {
  model::TestPoint t;
  t.name = name;
  t.source_line = r.line();
  r.only_keys({"test", "subtest", "read_pct", "block_size", "threads", "queue_depth", "load"});
  if (auto v = r.string("test", true)) {
    auto it = std::find_if(tests.begin(), tests.end(), [&](const auto& e) { return e.first == *v; });
    if (it != tests.end()) {
      t.test = it->second;
    } else if (!tests.empty()) {
      std::string known;
      for (const auto& [alias, id] : tests)
        if (alias == id) known += (known.empty() ? "" : ", ") + id;
      r.problems().add(r.line("test"), r.where() + " test '" + *v + "' is not a test of tests-pts/ (known: " + known + ")");
    }
  }
  if (auto v = r.string("subtest")) t.subtest = *v;
  if (auto v = r.integer("read_pct", 0, 100)) t.read_pct = static_cast<uint32_t>(*v);
  if (auto v = r.block_size("block_size")) t.block_bytes = *v;
  if (auto v = r.integer("threads", 1, 1024)) t.threads = static_cast<uint32_t>(*v);
  if (auto v = r.integer("queue_depth", 1, 65536)) t.queue_depth = static_cast<uint32_t>(*v);
  if (auto v = r.string("load")) t.load = *v;
  if (!t.read_pct && !t.block_bytes && !t.threads && !t.queue_depth)
    r.problems().add(r.line(), r.where() + " selects no cell: give read_pct, block_size, threads or queue_depth");
  return t;
}

model::Requirement read_requirement(TableReader r, const std::set<std::string>& points, const FigureCheck& check) {
  model::Requirement q;
  q.source_line = r.line();
  r.only_keys({"id", "text", "at", "figure", "min", "max"});
  if (auto v = r.string("id", true)) q.id = *v;
  if (auto v = r.string("text")) q.text = *v;
  if (auto v = r.string("at", true)) {
    q.point = *v;
    if (!points.count(*v)) {
      std::string known;
      for (const auto& p : points) known += (known.empty() ? "" : ", ") + p;
      r.problems().add(r.line("at"), r.where() + " at = '" + *v + "' names no [points." + *v + "] table (defined: " +
                                         (known.empty() ? "none" : known) + ")");
    }
  }
  if (auto v = r.string("figure", true)) {
    q.figure = *v;
    if (check)
      if (auto why = check(*v)) r.problems().add(r.line("figure"), r.where() + " " + (q.id.empty() ? "" : q.id + ": ") +
                                                                       "figure '" + *v + "' " + *why);
  }
  const bool has_min = r.node("min") != nullptr, has_max = r.node("max") != nullptr;
  if (has_min == has_max) {
    r.problems().add(r.line(), r.where() + (has_min ? " has both min and max" : " has neither min nor max") +
                                   ": give exactly one (min: a floor, max: a ceiling)");
  } else if (has_min) {
    q.kind = model::LimitKind::Floor;
    if (auto v = r.number("min", 0, false, 1e15)) q.limit = *v;
  } else {
    q.kind = model::LimitKind::Ceiling;
    if (auto v = r.number("max", 0, true, 1e15)) q.limit = *v;
  }
  return q;
}

}  // namespace

core::Result<model::RequirementSheet> parse_requirement_sheet(const std::string& text, const std::string& file,
                                                              const FigureCheck& figure_check) {
  Problems p(file);
  auto parsed = parse_toml(text, p);
  if (!parsed) return core::Error(core::ErrorKind::BadInput, p.list());
  const toml::table& root = *parsed;
  model::RequirementSheet s;
  s.file = file;
  TableReader top(root, "the file", p);
  top.only_keys({"sheet", "points", "requirement"});
  if (const toml::table* t = top.table("sheet", true)) read_sheet(TableReader(*t, "[sheet]", p), s);
  std::string tests_problem;
  const auto tests = test_names(tests_problem);
  if (!tests_problem.empty()) p.add(1, "cannot check test names: " + tests_problem);
  std::set<std::string> names;
  if (const toml::table* points = top.table("points", true)) {
    for (auto&& [key, node] : *points) {
      const std::string name(key.str());
      const std::string where = "[points." + name + "]";
      if (const auto* t = node.as_table()) {
        s.points.push_back(read_point(name, TableReader(*t, where, p), tests));
        names.insert(name);
      } else {
        p.add(line_of(node), where + " must be a table");
      }
    }
    if (points->empty()) p.add(line_of(*points), "[points] defines no test point");
  }
  if (const toml::node* n = root.get("requirement")) {
    const auto* arr = n->as_array();
    if (!arr || !arr->is_array_of_tables()) {
      p.add(line_of(*n), "'requirement' must be an array of tables ([[requirement]])");
    } else {
      for (auto& e : *arr) s.requirements.push_back(read_requirement(TableReader(*e.as_table(), "[[requirement]]", p), names, figure_check));
    }
  }
  if (s.requirements.empty() && !root.get("requirement")) p.add(1, "no [[requirement]]: the sheet asks for nothing");
  std::set<std::string> ids;
  for (const auto& q : s.requirements)
    if (!q.id.empty() && !ids.insert(q.id).second) p.add(q.source_line, "[[requirement]] id '" + q.id + "' given twice");
  for (const auto& t : s.points)
    if (std::none_of(s.requirements.begin(), s.requirements.end(), [&](const auto& q) { return q.point == t.name; }))
      p.add(t.source_line, "[points." + t.name + "] is used by no [[requirement]] (remove it or name it with at = '" +
                               t.name + "')");
  if (!p.empty()) return core::Error(core::ErrorKind::BadInput, p.list());
  return s;
}

core::Result<model::RequirementSheet> load_requirement_sheet(const std::string& path, const FigureCheck& figure_check) {
  auto text = core::read_file(path);
  if (!text) return core::bad_input(path + ": cannot read the requirement sheet (" + text.error().message() + ")");
  return parse_requirement_sheet(*text, path, figure_check);
}

}  // namespace pts::config
