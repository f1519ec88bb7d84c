// report/template_loader.cpp — see template_loader.h. The only file of report/ that includes
// toml++.
#include "report/template_loader.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <toml++/toml.h>

#include "report/record_view.h"
#include "report/run_tables.h"

#ifndef PTS_TEMPLATES_SOURCE_DIR
#define PTS_TEMPLATES_SOURCE_DIR ""
#endif

namespace pts::report {

namespace fs = std::filesystem;

namespace {

/// Collects "file:line: message" problems while walking the TOML tree.
struct Problems {
  std::string file;
  std::vector<std::string> list;
  void add(const toml::node& at, const std::string& msg) {
    list.push_back(file + ":" + std::to_string(at.source().begin.line) + ": " + msg);
  }
};

using Allowed = std::set<std::string>;

void check_keys(const toml::table& t, const Allowed& allowed, const std::string& what, Problems& p) {
  for (auto&& [k, v] : t)
    if (!allowed.count(std::string(k.str()))) p.add(v, "unknown key '" + std::string(k.str()) + "' in " + what);
}

std::string get_string(const toml::table& t, const char* key, Problems& p, bool required, const std::string& what) {
  const toml::node* n = t.get(key);
  if (!n) {
    if (required) p.add(t, what + " needs '" + key + "'");
    return "";
  }
  if (auto s = n->value<std::string>()) return *s;
  p.add(*n, "'" + std::string(key) + "' in " + what + " must be a string");
  return "";
}

int64_t get_int(const toml::table& t, const char* key, int64_t def, Problems& p, const std::string& what) {
  const toml::node* n = t.get(key);
  if (!n) return def;
  if (auto v = n->value_exact<int64_t>()) return *v;
  p.add(*n, "'" + std::string(key) + "' in " + what + " must be an integer");
  return def;
}

bool get_bool(const toml::table& t, const char* key, bool def, Problems& p, const std::string& what) {
  const toml::node* n = t.get(key);
  if (!n) return def;
  if (auto b = n->value_exact<bool>()) return *b;
  p.add(*n, "'" + std::string(key) + "' in " + what + " must be true or false");
  return def;
}

template <typename E>
E get_enum(const toml::table& t, const char* key, E def, const std::vector<std::pair<const char*, E>>& names,
           Problems& p, const std::string& what) {
  const std::string s = get_string(t, key, p, false, what);
  if (s.empty()) return def;
  std::string all;
  for (const auto& [n, e] : names) {
    if (s == n) return e;
    all += (all.empty() ? "" : ", ") + std::string(n);
  }
  p.add(*t.get(key), "'" + std::string(key) + "' = '" + s + "' in " + what + " is not one of: " + all);
  return def;
}

const std::vector<std::pair<const char*, Dimension>> kDimensions = {
    {"block_size", Dimension::BlockSize}, {"rw_mix", Dimension::RwMix}, {"cell", Dimension::Cell},
    {"threads", Dimension::Threads},      {"queue_depth", Dimension::QueueDepth}};

std::vector<std::string> get_strings(const toml::table& t, const char* key, Problems& p, const std::string& what) {
  std::vector<std::string> out;
  const toml::node* n = t.get(key);
  if (!n) return out;
  const auto* arr = n->as_array();
  if (!arr) {
    p.add(*n, "'" + std::string(key) + "' in " + what + " must be an array of strings");
    return out;
  }
  for (const auto& e : *arr) {
    if (auto v = e.value<std::string>()) out.push_back(*v);
    else p.add(e, "'" + std::string(key) + "' in " + what + " must hold strings");
  }
  return out;
}

CellFilter read_filter(const toml::table& t, Problems& p) {
  CellFilter out;
  if (const toml::node* f = t.get("filter")) {
    if (const auto* ft = f->as_table()) {
      check_keys(*ft, {"read_pct", "block_bytes", "id_prefix", "threads"}, "filter", p);
      out.id_prefix = get_string(*ft, "id_prefix", p, false, "filter");
      if (const toml::node* th = ft->get("threads")) {
        out.max_threads = get_string(*ft, "threads", p, false, "filter") == "max";
        if (!out.max_threads) p.add(*th, "filter 'threads' takes \"max\" (the cells with the most threads)");
      }
      if (ft->get("read_pct")) out.read_pct = static_cast<uint32_t>(get_int(*ft, "read_pct", 0, p, "filter"));
      if (ft->get("block_bytes")) out.block_bytes = static_cast<uint32_t>(get_int(*ft, "block_bytes", 0, p, "filter"));
    } else {
      p.add(*f, "'filter' must be a table, e.g. { read_pct = 0 }");
    }
  }
  return out;
}

/// The keys of the phase table kinds (samples, points, findings).
void read_phase_table_keys(const toml::table& t, TableSpec& s, Problems& p) {
  const std::string what = "[[sheet.table]]";
  s.x = get_enum<SampleAxis>(t, "x", SampleAxis::Minutes,
                             {{"minutes", SampleAxis::Minutes}, {"tgbw", SampleAxis::Tgbw},
                              {"drive_fills", SampleAxis::DriveFills}, {"sample", SampleAxis::Sample},
                              {"round", SampleAxis::Round}, {"write_mbps", SampleAxis::WriteMbps}},
                             p, what);
  s.metrics = get_strings(t, "metrics", p, what);
  s.levels = get_strings(t, "levels", p, what);
  s.keys = get_strings(t, "keys", p, what);
  s.mark = get_string(t, "mark", p, false, what);
  s.x_metric = get_string(t, "x_metric", p, false, what);
  s.series_by_subtest = get_bool(t, "series_by_subtest", false, p, what);
  s.series_by_cell = get_bool(t, "series_by_cell", false, p, what);
  s.continuous_time = get_bool(t, "continuous_time", false, p, what);
  if (s.series_by_cell && !s.series_by_subtest)
    p.add(*t.get("series_by_cell"), "series_by_cell = true splits each sub-test's series: it needs series_by_subtest");
  const bool runs = s.kind == TableKind::Runs;
  for (const auto& m : s.metrics)
    if (runs ? !is_run_metric(m) : !find_metric(m))
      p.add(*t.get("metrics"), "unknown metric '" + m + "' (known: " + (runs ? run_metric_names() : metric_names()) + ")");
  if (runs && !is_run_metric(s.x_metric))
    p.add(t, "a 'runs' table needs 'x_metric', a run metric (" + run_metric_names() + ")");
  const bool samples = s.kind == TableKind::Samples;
  if (samples && s.metrics.empty()) p.add(t, "a 'samples' table needs 'metrics'");
  if (samples && s.series_by_subtest && s.metrics.size() != 1)
    p.add(t, "series_by_subtest = true draws one metric per sub-test: give exactly one in 'metrics'");
  const bool jobs = s.kind == TableKind::Jobs;
  s.job_prefix = get_string(t, "job_prefix", p, false, what);
  if (jobs && s.metrics.size() != 1) p.add(t, "a 'jobs' table shows one metric: give exactly one in 'metrics'");
  if (!jobs && t.get("job_prefix")) p.add(*t.get("job_prefix"), "'job_prefix' applies to 'jobs' tables only");
  if (!samples)
    for (const char* k : {"x", "metrics", "levels", "mark", "series_by_subtest", "series_by_cell", "continuous_time"})
      if (t.get(k) && !((runs || jobs) && std::string(k) == "metrics"))
        p.add(*t.get(k), "'" + std::string(k) + "' applies to 'samples' tables only");
  s.pivot = get_string(t, "pivot", p, false, what);
  if (!s.pivot.empty() && (!runs || (s.pivot != "read_pct" && s.pivot != "total_qd") || s.metrics.size() != 1))
    p.add(*t.get("pivot"), "'pivot' (\"read_pct\" or \"total_qd\") applies to 'runs' tables with one metric");
  if (runs) {
  } else if (s.kind == TableKind::Points) {
    const MetricInfo* xm = s.x_metric.empty() ? nullptr : find_metric(s.x_metric);
    if (!xm || !xm->in_window_results)
      p.add(t, "a 'points' table needs 'x_metric', a stored window metric (" + metric_names(true) + ")");
  } else if (t.get("x_metric")) {
    p.add(*t.get("x_metric"), "'x_metric' applies to 'points' tables only");
  }
  if (s.kind != TableKind::Findings && t.get("keys")) p.add(*t.get("keys"), "'keys' applies to 'findings' tables only");
}

TableSpec read_table(const toml::table& t, SheetRepeat repeat, Problems& p) {
  const std::string what = "[[sheet.table]]";
  check_keys(t, {"id", "kind", "caption", "metric", "printed", "filter", "rows", "columns", "series_label", "x",
                 "metrics", "levels", "mark", "series_by_subtest", "series_by_cell", "continuous_time", "x_metric",
                 "keys", "pivot", "job_prefix"},
             what, p);
  TableSpec s;
  s.source_line = static_cast<int>(t.source().begin.line);
  s.id = get_string(t, "id", p, true, what);
  s.kind = get_enum<TableKind>(t, "kind", TableKind::Matrix,
                               {{"convergence", TableKind::Convergence}, {"window", TableKind::Window},
                                {"determination", TableKind::Determination}, {"matrix", TableKind::Matrix},
                                {"raw", TableKind::Raw}, {"samples", TableKind::Samples},
                                {"findings", TableKind::Findings}, {"interpretations", TableKind::Interpretations},
                                {"points", TableKind::Points}, {"histogram", TableKind::Histogram},
                                {"toio", TableKind::Toio}, {"access_mix", TableKind::AccessMix},
                                {"runs", TableKind::Runs}, {"jobs", TableKind::Jobs}},
                               p, what);
  if (!t.get("kind")) p.add(t, what + " needs 'kind'");
  s.caption = get_string(t, "caption", p, false, what);
  s.metric = get_string(t, "metric", p, false, what);
  const bool needs_metric =
      s.kind == TableKind::Convergence || s.kind == TableKind::Matrix || s.kind == TableKind::Points;
  if (needs_metric && s.metric.empty()) p.add(t, what + " of this kind needs 'metric'");
  if (!s.metric.empty() && !find_metric(s.metric))
    p.add(*t.get("metric"), "unknown metric '" + s.metric + "' (known: " + metric_names() + ")");
  else if ((s.kind == TableKind::Matrix || s.kind == TableKind::Points) && !s.metric.empty() &&
           !find_metric(s.metric)->in_window_results)
    p.add(*t.get("metric"), "metric '" + s.metric + "' has no stored Measurement Window result (a matrix shows " +
                                "what pts stored: " + metric_names(true) + ")");
  if (!needs_metric && !s.metric.empty()) p.add(*t.get("metric"), "'metric' has no effect on this kind of table");
  s.printed = get_bool(t, "printed", true, p, what);
  s.rows = get_enum<Dimension>(t, "rows", Dimension::BlockSize, kDimensions, p, what);
  s.columns = get_enum<Dimension>(t, "columns", Dimension::RwMix, kDimensions, p, what);
  s.series_label = get_enum<Dimension>(t, "series_label", Dimension::BlockSize, kDimensions, p, what);
  if (s.kind == TableKind::Matrix && s.rows == s.columns) p.add(t, "matrix rows and columns must differ");
  read_phase_table_keys(t, s, p);
  if ((s.kind == TableKind::Window || s.kind == TableKind::Determination) && repeat != SheetRepeat::Tracking)
    p.add(t, "a '" + std::string(s.kind == TableKind::Window ? "window" : "determination") +
                 "' table needs a sheet with repeat = \"tracking\"");
  s.filter = read_filter(t, p);
  return s;
}

HeadlineSpec read_headline(const toml::table& t, Problems& p) {
  const std::string what = "[[headline]]";
  check_keys(t, {"label", "metric", "filter", "subtest", "finding"}, what, p);
  HeadlineSpec h;
  h.source_line = static_cast<int>(t.source().begin.line);
  h.label = get_string(t, "label", p, true, what);
  h.finding = get_string(t, "finding", p, false, what);
  if (!h.finding.empty()) {  // a stored finding: no metric, no filter
    if (t.get("metric") || t.get("filter")) p.add(t, what + " with 'finding' takes no 'metric' or 'filter'");
    h.subtest = get_string(t, "subtest", p, false, what);
    return h;
  }
  h.metric = get_string(t, "metric", p, true, what);
  h.subtest = get_string(t, "subtest", p, false, what);
  const MetricInfo* m = h.metric.empty() ? nullptr : find_metric(h.metric);
  if (!h.metric.empty() && (!m || !m->in_window_results))
    p.add(*t.get("metric"), "headline metric '" + h.metric + "' is not a stored window result (known: " +
                                metric_names(true) + ")");
  h.filter = read_filter(t, p);
  if (!t.get("filter")) p.add(t, what + " needs 'filter' (e.g. { read_pct = 0, block_bytes = 4096 })");
  return h;
}

SeriesStyle read_style(const toml::table& t, Problems& p) {
  const std::string what = "a chart style";
  check_keys(t, {"key", "color", "dash", "line", "marker", "width"}, what, p);
  SeriesStyle s;
  s.key = get_string(t, "key", p, true, what);
  s.color = get_string(t, "color", p, false, what);
  if (!s.color.empty() && (s.color.size() != 7 || s.color[0] != '#' ||
                           s.color.find_first_not_of("0123456789abcdefABCDEF", 1) != std::string::npos))
    p.add(*t.get("color"), "color must look like \"#RRGGBB\"");
  s.dash = get_string(t, "dash", p, false, what);
  if (!s.dash.empty() && !std::set<std::string>{"solid", "dash", "round_dot", "long_dash", "dash_dot"}.count(s.dash))
    p.add(*t.get("dash"), "dash must be one of: solid, dash, round_dot, long_dash, dash_dot");
  s.line = get_bool(t, "line", true, p, what);
  s.marker = get_string(t, "marker", p, false, what);
  if (!s.marker.empty() &&
      !std::set<std::string>{"none", "circle", "diamond", "square", "triangle", "x"}.count(s.marker))
    p.add(*t.get("marker"), "marker must be one of: none, circle, diamond, square, triangle, x");
  if (const toml::node* n = t.get("width")) {
    if (auto d = n->value<double>()) s.width = *d;
    else p.add(*n, "'width' must be a number");
  }
  return s;
}

ChartSpec read_chart(const toml::table& t, const std::set<std::string>& table_ids, Problems& p) {
  const std::string what = "[[sheet.chart]]";
  check_keys(t, {"table", "type", "title", "x_title", "y_title", "x_log_base", "y_log_base", "y_range", "styles",
                 "series", "width_px", "height_px", "point_labels"},
             what, p);
  ChartSpec c;
  c.source_line = static_cast<int>(t.source().begin.line);
  c.table = get_string(t, "table", p, true, what);
  if (!c.table.empty() && !table_ids.count(c.table))
    p.add(*t.get("table"), "chart refers to table '" + c.table + "', which this sheet does not define");
  c.type = get_enum<ChartType>(t, "type", ChartType::Line,
                               {{"line", ChartType::Line}, {"scatter", ChartType::Scatter}, {"column", ChartType::Column}},
                               p, what);
  c.title = get_string(t, "title", p, false, what);
  c.x_title = get_string(t, "x_title", p, false, what);
  c.y_title = get_string(t, "y_title", p, false, what);
  c.x_log_base = static_cast<int>(get_int(t, "x_log_base", 0, p, what));
  c.y_log_base = static_cast<int>(get_int(t, "y_log_base", 0, p, what));
  for (const auto& [k, b] : {std::pair<const char*, int>{"x_log_base", c.x_log_base}, {"y_log_base", c.y_log_base}})
    if (b != 0 && (b < 2 || b > 1000)) p.add(*t.get(k), std::string(k) + " must be 0 (linear) or 2…1000");
  c.y_range_from_data = get_enum<bool>(t, "y_range", false, {{"zero", false}, {"data", true}}, p, what);
  if (c.y_range_from_data && c.y_log_base) p.add(*t.get("y_range"), "y_range = \"data\" and a log y axis exclude each other");
  if (c.x_log_base && c.type != ChartType::Scatter)
    p.add(*t.get("x_log_base"), "a logarithmic x axis needs type = \"scatter\"");
  c.series = get_strings(t, "series", p, what);
  c.point_labels = get_string(t, "point_labels", p, false, what);
  c.width_px = static_cast<int>(get_int(t, "width_px", c.width_px, p, what));
  c.height_px = static_cast<int>(get_int(t, "height_px", c.height_px, p, what));
  if (const toml::node* s = t.get("styles")) {
    if (const auto* arr = s->as_array()) {
      for (const auto& e : *arr) {
        if (const auto* st = e.as_table()) c.styles.push_back(read_style(*st, p));
        else p.add(e, "each entry of 'styles' must be a table");
      }
    } else {
      p.add(*s, "'styles' must be an array of tables");
    }
  }
  return c;
}

SheetSpec read_sheet(const toml::table& t, Problems& p) {
  const std::string what = "[[sheet]]";
  check_keys(t, {"name", "title", "repeat", "role", "group", "table", "chart"}, what, p);
  SheetSpec s;
  s.source_line = static_cast<int>(t.source().begin.line);
  s.name = get_string(t, "name", p, true, what);
  s.title = get_string(t, "title", p, true, what);
  s.repeat = get_enum<SheetRepeat>(t, "repeat", SheetRepeat::Once,
                                   {{"once", SheetRepeat::Once}, {"subtest", SheetRepeat::Subtest},
                                    {"tracking", SheetRepeat::Tracking}},
                                   p, what);
  s.group = get_string(t, "group", p, false, what);
  if (!s.group.empty() && s.repeat != SheetRepeat::Subtest)
    p.add(*t.get("group"), "'group' lays out sheets sub-test by sub-test: it needs repeat = \"subtest\"");
  if (const toml::node* n = t.get("role")) {
    const std::string name = get_string(t, "role", p, false, what);
    if (const auto role = model::role_from_name(name)) s.role = *role;
    else if (n->is_string()) p.add(*n, "'role' = '" + name + "' in " + what + " is not one of: " + model::role_names());
    s.any_role = false;
  }
  std::set<std::string> ids;
  if (const toml::node* n = t.get("table")) {
    if (const auto* arr = n->as_array()) {
      for (const auto& e : *arr) {
        const auto* tt = e.as_table();
        if (!tt) {
          p.add(e, "'table' entries must be tables ([[sheet.table]])");
          continue;
        }
        s.tables.push_back(read_table(*tt, s.repeat, p));
        if (!s.tables.back().id.empty() && !ids.insert(s.tables.back().id).second)
          p.add(e, "table id '" + s.tables.back().id + "' is used twice on this sheet");
      }
    } else {
      p.add(*n, "'table' must be an array of tables ([[sheet.table]])");
    }
  }
  if (s.tables.empty()) p.add(t, "a sheet needs at least one [[sheet.table]]");
  for (const auto& tb : s.tables)
    if (tb.kind == TableKind::Raw && (s.tables.size() > 1 || t.get("chart")))
      p.add(t, "a 'raw' table needs a sheet of its own (no other table, no chart): it spans printed pages");
  if (const toml::node* n = t.get("chart")) {
    if (const auto* arr = n->as_array()) {
      for (const auto& e : *arr) {
        if (const auto* ct = e.as_table()) s.charts.push_back(read_chart(*ct, ids, p));
        else p.add(e, "'chart' entries must be tables ([[sheet.chart]])");
      }
    } else {
      p.add(*n, "'chart' must be an array of tables ([[sheet.chart]])");
    }
  }
  return s;
}

std::string exe_dir() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  return fs::path(std::string(buf, static_cast<size_t>(n))).parent_path().string();
}

}  // namespace

core::Result<std::string> find_templates_dir() {
  std::vector<std::string> tried;
  if (const char* env = std::getenv("PTSUITE_TEMPLATES_DIR"); env && *env) {
    if (fs::is_directory(env)) return std::string(env);
    return core::bad_input(std::string("PTSUITE_TEMPLATES_DIR=") + env + " is not a directory");
  }
  const std::string exe = exe_dir();
  if (!exe.empty())
    for (const char* rel : {"../templates", "../../templates", "templates", "../share/ptsuite/templates"}) tried.push_back(exe + "/" + rel);
  if (*PTS_TEMPLATES_SOURCE_DIR) tried.push_back(PTS_TEMPLATES_SOURCE_DIR);
  for (const auto& dir : tried) {
    std::error_code ec;
    if (fs::is_regular_file(fs::path(dir) / "iops.toml", ec))
      return fs::weakly_canonical(dir, ec).string();
  }
  std::string all;
  for (const auto& d : tried) all += "\n  " + d;
  return core::bad_input("report templates not found; set PTSUITE_TEMPLATES_DIR. Looked in:" + all);
}

namespace {

/// A sheet title of a template written for `from` ("{test_name}" or a base's test name) under
/// the name `to`: "{test_name} – CPU Use" reads "ECW – CPU Use".
void replace_test_name(std::string& title, const std::string& from, const std::string& to) {
  for (size_t pos = title.find(from); !from.empty() && pos != std::string::npos; pos = title.find(from, pos + to.size()))
    title.replace(pos, from.size(), to);
}

void read_sheets(const toml::table& root, ReportTemplate& t, Problems& p) {
  if (const toml::node* n = root.get("sheet")) {
    if (const auto* arr = n->as_array()) {
      for (const auto& e : *arr) {
        if (const auto* st = e.as_table()) t.sheets.push_back(read_sheet(*st, p));
        else p.add(e, "'sheet' entries must be tables ([[sheet]])");
      }
    } else {
      p.add(*n, "'sheet' must be an array of tables ([[sheet]])");
    }
  }
}

/// Whether the template at `path` names a base itself (a parse error is reported by its load).
bool has_base(const std::string& path) {
  try {
    return toml::parse_file(path).get("base") != nullptr;
  } catch (const toml::parse_error&) {
    return false;
  }
}

}  // namespace

core::Result<ReportTemplate> load_template_file(const std::string& path) {
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    return core::bad_input(path + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
  }
  Problems p{path, {}};
  check_keys(root, {"name", "test_name", "subtitle", "base", "sheet", "headline"}, "the template", p);
  ReportTemplate t;
  t.source_file = path;
  t.name = get_string(root, "name", p, true, "the template");
  t.test_name = get_string(root, "test_name", p, true, "the template");
  t.subtitle = get_string(root, "subtitle", p, false, "the template");
  // base = "dirth": the pages of another template of this folder, under this template's names.
  if (const toml::node* n = root.get("base")) {
    const std::string base = get_string(root, "base", p, false, "the template");
    const fs::path base_path = fs::path(path).parent_path() / (base + ".toml");
    if (root.get("headline"))
      p.add(*n, "a template with 'base' takes its [[headline]]s from it; remove them");
    else if (base.empty() || base.find('/') != std::string::npos || base == fs::path(path).stem().string())
      p.add(*n, "'base' = '" + base + "' must name another template of this folder");
    else if (!fs::is_regular_file(base_path))
      p.add(*n, "'base' = '" + base + "': no template " + base_path.string());
    else if (has_base(base_path.string()))
      p.add(*n, "'base' = '" + base + "' has a base itself: a base is one level deep");
    else if (auto b = load_template_file(base_path.string()); !b.ok())
      for (const auto& m : b.error().messages) p.list.push_back(m);
    else {
      // Its own [[sheet]]s (ECW's access probabilities) come first, then the base's.
      read_sheets(root, t, p);
      for (auto& s : t.sheets) replace_test_name(s.title, "{test_name}", t.test_name);
      for (auto s : b->sheets) {
        replace_test_name(s.title, b->test_name, t.test_name);
        t.sheets.push_back(std::move(s));
      }
      t.headlines = b->headlines;
    }
    if (!p.list.empty()) return core::Error(core::ErrorKind::BadInput, std::move(p.list));
    return t;
  }
  if (const toml::node* n = root.get("headline")) {
    if (const auto* arr = n->as_array()) {
      for (const auto& e : *arr) {
        if (const auto* ht = e.as_table()) t.headlines.push_back(read_headline(*ht, p));
        else p.add(e, "'headline' entries must be tables ([[headline]])");
      }
    } else {
      p.add(*n, "'headline' must be an array of tables ([[headline]])");
    }
  }
  read_sheets(root, t, p);
  for (auto& s : t.sheets) replace_test_name(s.title, "{test_name}", t.test_name);
  if (t.sheets.empty()) p.list.push_back(path + ":1: the template defines no [[sheet]]");
  if (!p.list.empty()) return core::Error(core::ErrorKind::BadInput, std::move(p.list));
  return t;
}

core::Result<ReportTemplate> load_template(const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos || name.find("..") != std::string::npos)
    return core::bad_input("template name '" + name + "' is not a plain name");
  auto dir = find_templates_dir();
  if (!dir) return dir.take_error();
  const std::string path = *dir + "/" + name + ".toml";
  if (!fs::is_regular_file(path)) return core::bad_input("no report template '" + name + "' (" + path + ")");
  return load_template_file(path);
}

}  // namespace pts::report
