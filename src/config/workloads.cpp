// config/workloads.cpp — see workloads.h. Every range below is what a run can do, not what the
// spec says; departures from the spec are deviations at plan time, not load errors.
#include "config/workloads.h"

#include <algorithm>
#include <cmath>

#include "config/resolver_text.h"
#include "config/toml_reader.h"
#include "core/units.h"

namespace pts::config::detail {

namespace {

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

void read_workload(const std::string& id, const toml::table& t, Problems& p, TestDefinition& d) {
  const std::string where = "[workload." + id + "]";
  TableReader r(t, where, p);
  r.only_keys({"title", "pattern", "read_pct", "block_size", "bs_split", "zones"});
  WorkloadDef w;
  w.id = id;
  w.line = r.line();
  w.title = r.string("title").value_or(id);
  if (auto v = r.choice("pattern", {"random", "sequential"}))
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
  d.workloads[id] = std::move(w);
}

}  // namespace

void read_workloads(TableReader& top, Problems& p, TestDefinition& d) {
  const toml::table* w = top.table("workload", true);
  if (!w) return;
  for (auto&& [key, node] : *w) {
    const std::string id(key.str());
    const toml::table* t = node.as_table();
    if (!t) {
      p.add(line_of(node), "[workload." + id + "] must be a table");
      continue;
    }
    read_workload(id, *t, p, d);
  }
  if (w->empty()) p.add(line_of(*w), "[workload] defines no workload");
}

void check_workload(const TestDefinition& d, const std::string& name, const std::string& where, int line,
                    Problems& p) {
  if (name.empty() || d.workloads.count(name)) return;
  std::string known;
  for (const auto& [id, _] : d.workloads) known += (known.empty() ? "" : ", ") + id;
  p.add(line, where + " names workload '" + name + "', which no [workload." + name + "] defines" +
                  (known.empty() ? "" : " (defined: " + known + ")"));
}

void check_class_workloads(const TestDefinition& d, Problems& p) {
  for (const auto& [edition, classes] : d.editions)
    for (const auto& [cls, cs] : classes)
      for (const auto& w : cs.workloads)
        check_workload(d, w, "[editions.\"" + edition + "\"." + cls + "] workloads", cs.line, p);
}

std::string workload_label(const WorkloadDef& w) {
  std::string bs = w.bs_split.empty() ? core::format_block_size(w.block_bytes)
                                      : std::to_string(w.bs_split.size()) + "-size block mix";
  return std::string(pattern_tag(w.pattern)) + " " + bs + " " + mix(w.read_pct) +
         (w.zones.empty() ? "" : ", zoned " + model::zones_text(w.zones));
}

const WorkloadDef& runnable(ResolveCtx& c, const WorkloadDef& w) {
  if (w.bs_split.empty()) return w;
  if (auto it = c.runnable.find(w.id); it != c.runnable.end()) return it->second;
  std::vector<model::BlockSizeShare> kept;
  std::string left_out;
  uint32_t left_pct = 0;
  for (const auto& b : w.bs_split) {
    if (std::string why = not_applicable(b.bytes, c.id.lba_size); why.empty()) {
      kept.push_back(b);
    } else {
      left_out += (left_out.empty() ? "" : ", ") + core::format_block_size(b.bytes) + " (" +
                  std::to_string(b.percent) + " %)";
      left_pct += b.percent;
    }
  }
  if (kept.size() == w.bs_split.size() || kept.empty()) return w;
  WorkloadDef out = w;
  out.bs_split = model::renormalised_split(kept);
  uint32_t kept_pct = 0;
  for (const auto& b : kept) kept_pct += b.percent;
  std::string shares;
  for (size_t i = 0; i < kept.size(); ++i)
    shares += (i ? ", " : "") + core::format_block_size(kept[i].bytes) + " " + std::to_string(kept[i].percent) +
              " → " + std::to_string(out.bs_split[i].percent) + " %";
  c.deviate("bs-split-lba",
            "[workload." + w.id + "] " + w.title + ": block sizes " + left_out + ", " + std::to_string(left_pct) +
                " % of the I/Os, are left out: the target's LBA size is " + std::to_string(c.id.lba_size) +
                " B, and an I/O smaller than one LBA (or not a multiple of it) cannot be issued; the other sizes "
                "keep their proportions, each share × 100 / " +
                std::to_string(kept_pct) + " rounded to whole percent by largest remainder: " + shares);
  return c.runnable.emplace(w.id, std::move(out)).first->second;
}

model::AccessSpec workload_spec(ResolveCtx& c, const WorkloadDef& def, uint32_t threads, uint32_t queue_depth,
                                double seconds) {
  const WorkloadDef& w = runnable(c, def);
  model::AccessSpec s;
  s.pattern = w.pattern;
  s.read_pct = w.read_pct;
  s.block_bytes = w.bs_split.empty() ? w.block_bytes : 0;
  s.bs_split = w.bs_split;
  if (!s.bs_split.empty())
    for (const auto& b : s.bs_split) s.block_bytes = std::max(s.block_bytes, b.bytes);
  s.threads = threads;
  s.queue_depth = queue_depth;
  s.seconds = seconds;
  s.active_range_pct = c.plan().active_range_pct;
  s.zones = w.zones;
  if (c.o.seed) s.seed = *c.o.seed;
  if (std::find(c.checked.begin(), c.checked.end(), w.id) != c.checked.end()) return s;
  c.checked.push_back(w.id);  // the target checks once per workload, not per cell
  std::vector<uint32_t> sizes;
  if (w.bs_split.empty()) sizes.push_back(w.block_bytes);
  for (const auto& b : w.bs_split) sizes.push_back(b.bytes);
  for (uint32_t bs : sizes)
    if (std::string why = not_applicable(bs, c.id.lba_size); !why.empty())
      c.errors.push_back(c.at(w.line) + "[workload." + w.id + "] cannot run on " +
                         (c.id.path.empty() ? "this target" : c.id.path) + ": " + why);
  check_zones_fit(w.zones, s.block_bytes, c.id, s.active_range_pct,
                  c.d.file + ":" + std::to_string(w.zones_line) + ": [workload." + w.id + "]", "", c.errors);
  return s;
}

model::CellPlan make_cell(std::string id, std::string label, model::AccessSpec spec) {
  model::CellPlan cell;
  cell.id = std::move(id);
  cell.label = std::move(label);
  cell.spec = std::move(spec);
  return cell;
}

const WorkloadDef* stimulus(ResolveCtx& c, const std::string& default_id) {
  const auto& all = c.d.workloads;
  if (!c.o.workload) {
    auto it = all.find(default_id);
    return it == all.end() ? nullptr : &runnable(c, it->second);
  }
  auto it = all.find(*c.o.workload);
  if (it == all.end()) {
    std::string known;
    for (const auto& [id, _] : all) known += (known.empty() ? "" : ", ") + id;
    c.errors.push_back("--workload: '" + *c.o.workload + "' is not a workload of " + c.d.file + " (" + known + ")");
    return nullptr;
  }
  const auto& listed = c.cs.workloads;
  const bool allowed = std::find(listed.begin(), listed.end(), it->first) != listed.end() || it->first == default_id;
  const std::string who = edition_title(c.o.pts_edition) + " " + c.o.device_class;
  if (allowed)
    c.note("stimulus " + it->second.title + " (--workload " + it->first + "; " + who + " lists it)");
  else
    c.deviate("workload", "stimulus " + it->second.title + " instead of the " + all.at(default_id).title + " " + who +
                              " defines");
  return &runnable(c, it->second);
}

bool purge_wanted(ResolveCtx& c) {
  const auto& p = c.plan();
  return c.d.purge && !(p.purge_method == model::PurgeMethod::None && !p.purge_auto);
}

void note_unsegmented_client(ResolveCtx& c) {
  const auto& p = c.plan();
  if (p.device_class != "client" || p.ar_segments.count > 1) return;
  c.interpret("Client ActiveRange: " + num(p.active_range_pct) + " % as one range, no AR segmentation (the sources "
              "apply PTS-C's 2048 segments to IOPS, TP and LAT only; ADATA's PTS 2.0 client mode segments nothing)");
}

model::SubTestPlan precondition_subtest(ResolveCtx& c, const WorkloadDef& w, uint32_t cells_per_round,
                                        const std::string& title, bool track_first) {
  auto& p = c.plan();
  model::SubTestPlan s;
  s.id = "precondition";
  s.title = title;
  s.purge = purge_wanted(c);
  s.wipc_enabled = false;
  const model::AccessSpec spec = workload_spec(c, w, p.threads, p.queue_depth, p.cell_seconds);
  const int width = cells_per_round >= 100 ? 3 : 2;
  for (uint32_t k = 1; k <= cells_per_round; ++k) {
    std::string n = std::to_string(k);
    n.insert(0, static_cast<size_t>(std::max(0, width - static_cast<int>(n.size()))), '0');
    s.cells.push_back(make_cell("pc-" + n, workload_label(w) + " #" + std::to_string(k), spec));
  }
  const auto& tracked = track_first ? s.cells.front() : s.cells.back();
  s.tracking.push_back({tracked.id, model::Metric::Iops,
                        workload_label(w) + " IOPS" +
                            (cells_per_round > 1 ? track_first ? " (first sample of each Round)" : " (last sample of each Round)"
                                                 : "")});
  return s;
}

SubtestWorstCase rounds_worst_case(const model::TestPlan& p, const model::SubTestPlan& s) {
  double round = 0;
  for (const auto& cell : s.cells)
    if (cell.applicable) round += cell.spec.seconds;
  return {round * p.max_rounds, std::to_string(p.max_rounds) + " Rounds of " + duration_words(round)};
}

SubtestText describe_rounds(const model::TestPlan& p, const model::SubTestPlan& s) {
  SubtestText out;
  if (s.cells.empty()) return out;
  const std::string label = s.cells[0].label.substr(0, s.cells[0].label.rfind(" #"));
  out.phases.push_back("Rounds of " + std::to_string(s.cells.size()) + " × " + duration_words(s.cells[0].spec.seconds) +
                       " " + label + " at TC " + std::to_string(s.cells[0].spec.threads) + " / QD " +
                       std::to_string(s.cells[0].spec.queue_depth) + " until steady state (window " +
                       std::to_string(p.window_rounds) + ", at most " + std::to_string(p.max_rounds) + " Rounds)");
  for (const auto& t : s.tracking) out.phases.push_back("Tracking Variable: " + t.label + " (cell " + t.cell_id + ")");
  return out;
}

std::string duration_words(double seconds) {
  auto fmt = [](double v, const char* unit) { return num(std::round(v * 1000) / 1000) + " " + unit; };
  if (seconds >= 3600 && std::fmod(seconds, 360) == 0) return fmt(seconds / 3600, "h");
  if (seconds >= 60 && std::fmod(seconds, 6) == 0) return fmt(seconds / 60, "min");
  return fmt(seconds, "s");
}

std::string tcqd(const model::TestPlan& p) {
  return "TC " + std::to_string(p.threads) + " / QD " + std::to_string(p.queue_depth);
}

}  // namespace pts::config::detail
