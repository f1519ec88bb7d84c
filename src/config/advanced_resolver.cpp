// config/advanced_resolver.cpp — see advanced_resolver.h: the shared workload/cell helpers
// (advanced_cells.h), WSAT, HIR and XSR; DIRTH/ECW are in dirth_resolver.cpp.
#include "config/advanced_resolver.h"

#include <algorithm>
#include <cmath>

#include "config/advanced_cells.h"
#include "config/resolver_text.h"
#include "core/units.h"

namespace pts::config {

namespace detail {

std::string workload_label(const WorkloadDef& w) {
  std::string bs = w.bs_split.empty() ? core::format_block_size(w.block_bytes)
                                      : std::to_string(w.bs_split.size()) + "-size block mix";
  return std::string(pattern_tag(w.pattern)) + " " + bs + " " + mix(w.read_pct) +
         (w.zones.empty() ? "" : ", zoned " + model::zones_text(w.zones));
}

model::AccessSpec workload_spec(AdvancedCtx& c, const WorkloadDef& w, uint32_t threads, uint32_t queue_depth,
                                double seconds) {
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
      c.errors.push_back(c.d.file + ":" + std::to_string(w.line) + ": [workload." + w.id + "] cannot run on " +
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

const WorkloadDef* stimulus(AdvancedCtx& c, const std::string& default_id, bool choosable) {
  const auto& all = c.d.advanced.workloads;
  if (!c.o.workload) {
    auto it = all.find(default_id);
    return it == all.end() ? nullptr : &it->second;
  }
  if (!choosable) {
    c.errors.push_back("--workload: " + c.d.title + " runs the workloads its definition names; it takes no --workload");
    return nullptr;
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
    c.r.notes.push_back("stimulus " + it->second.title + " (--workload " + it->first + "; " + who + " lists it)");
  else
    c.deviate("workload", "stimulus " + it->second.title + " instead of the " + all.at(default_id).title + " " + who +
                              " defines");
  return &it->second;
}

bool purge_wanted(AdvancedCtx& c) {
  const auto& p = c.plan();
  return c.d.purge && !(p.purge_method == model::PurgeMethod::None && !p.purge_auto);
}

model::SubTestPlan precondition_subtest(AdvancedCtx& c, const WorkloadDef& w, uint32_t cells_per_round,
                                        const std::string& title) {
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
  s.tracking.push_back({s.cells.back().id, model::Metric::Iops,
                        workload_label(w) + " IOPS" + (cells_per_round > 1 ? " (last sample of each Round)" : "")});
  return s;
}

std::string duration_words(double seconds) {
  auto fmt = [](double v, const char* unit) { return num(std::round(v * 1000) / 1000) + " " + unit; };
  if (seconds >= 3600 && std::fmod(seconds, 360) == 0) return fmt(seconds / 3600, "h");
  if (seconds >= 60 && std::fmod(seconds, 6) == 0) return fmt(seconds / 60, "min");
  return fmt(seconds, "s");
}

}  // namespace detail

namespace {

using detail::AdvancedCtx;
using detail::duration_words;
using detail::make_cell;
using detail::num;
using detail::workload_label;
using detail::workload_spec;

std::string after_colon(const std::string& label) {
  const auto at = label.find(": ");
  return at == std::string::npos ? label : label.substr(at + 2);
}

std::string tcqd(const model::TestPlan& p) {
  return "TC " + std::to_string(p.threads) + " / QD " + std::to_string(p.queue_depth);
}

void resolve_wsat(AdvancedCtx& c) {
  const WsatDef& w = *c.d.advanced.wsat;
  const WorkloadDef* wl = detail::stimulus(c, w.workload, true);
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
  wp.fob_samples = w.fob_samples;
  wp.cliff_fraction = w.cliff_fraction;
  wp.plateau_samples = w.plateau_samples;
  if (w.max_hours != 24 || w.capacity_multiple != 4)
    c.deviate("wsat-stop", "WSAT stops at " + num(w.capacity_multiple) + " × capacity or " + num(w.max_hours) +
                               " h instead of 4 × capacity or 24 h");
  if (w.stop_at_steady) {
    if (p.pts_edition == "pts-e-1.1")
      c.deviate("wsat-steady-stop", "WSAT also stops at the first steady window of samples; PTS-E 1.1 runs to "
                                    "4 × capacity or 24 h without a steady-state determination");
    else
      c.interpret("WSAT also stops at the first window of " + std::to_string(p.window_rounds) +
                  " samples that meets the steady-state criteria (a PTS 2.0 option)");
  }
  c.interpret("WSAT FOB plateau: the mean IOPS of the first " + std::to_string(w.fob_samples) +
              " samples ([wsat] fob_samples; the sources do not define it)");
  c.interpret("WSAT write cliff: the first sample below " + num(w.cliff_fraction * 100) +
              " % of the FOB plateau ([wsat] cliff_fraction)");
  c.interpret("WSAT steady plateau: the mean IOPS of the last " + std::to_string(w.plateau_samples) +
              " samples ([wsat] plateau_samples); the steady-state criteria are also assessed on the last " +
              std::to_string(p.window_rounds) + " samples");
  c.interpret("WSAT time limit: counted in stimulus time (the samples' durations), so a resumed run keeps its limit");
  model::SubTestPlan s;
  s.id = wl->id;
  s.title = "WSAT – " + wl->title;
  s.role = model::role::kWsatSamples;
  s.purge = detail::purge_wanted(c);
  s.wipc_enabled = false;
  s.cells.push_back(make_cell("wsat", workload_label(*wl), workload_spec(c, *wl, p.threads, p.queue_depth, p.cell_seconds)));
  s.tracking.push_back({"wsat", model::Metric::Iops, workload_label(*wl) + " IOPS"});
  p.subtests.push_back(std::move(s));
  p.wsat = wp;
}

/// "5s", "2p5s" — a sub-test id for a wait state.
std::string wait_id(double seconds) {
  std::string n = num(seconds);
  std::replace(n.begin(), n.end(), '.', 'p');
  return "wait-" + n + "s";
}

void resolve_hir(AdvancedCtx& c) {
  const HirDef& h = *c.d.advanced.hir;
  const WorkloadDef* wl = detail::stimulus(c, h.workload, true);
  if (!wl) return;
  auto& p = c.plan();
  const std::string label = workload_label(*wl);
  model::HirPlan hp;
  hp.spec_access_a_seconds = h.access_a_seconds;
  hp.access_a_seconds = c.scaled(h.access_a_seconds);
  hp.repetitions = h.repetitions;
  hp.spec_access_c_seconds = h.access_c_seconds;
  hp.access_c_seconds = c.scaled(h.access_c_seconds);
  hp.spec_wait_seconds = h.wait_seconds;
  for (double w : h.wait_seconds) hp.wait_seconds.push_back(c.scaled(w));
  hp.baseline = h.baseline;
  if (h.wait_seconds != std::vector<double>{5, 10, 15, 25, 50} || h.access_a_seconds != 5 || h.repetitions != 360 ||
      h.access_c_seconds != 1800) {
    std::string waits;
    for (double w : h.wait_seconds) waits += (waits.empty() ? "" : ", ") + num(w);
    c.deviate("hir-phases", "HIR wait states " + waits + " s, " + std::to_string(h.repetitions) + " × (" +
                                num(h.access_a_seconds) + " s writes + idle), " + num(h.access_c_seconds) +
                                " s back to baseline, instead of 5, 10, 15, 25, 50 s, 360 × (5 s + idle), 1800 s");
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
  c.interpret("HIR Access B: the host submits nothing (the engine and the kernel counters before and after each idle "
              "are journaled); Access C is one continuous run of " + duration_words(hp.access_c_seconds));
  p.subtests.push_back(detail::precondition_subtest(c, *wl, h.precondition_round_cells,
                                                    "HIR – Preconditioning " + label + " to steady state"));
  for (size_t i = 0; i < h.wait_seconds.size(); ++i) {
    model::SubTestPlan s;
    s.id = wait_id(h.wait_seconds[i]);
    s.title = "HIR – Wait State " + std::to_string(i + 1) + ": " + num(h.wait_seconds[i]) + " s idle";
    s.role = model::role::kHirWaitState;
    s.role_index = static_cast<uint32_t>(i);
    s.purge = false;
    s.wipc_enabled = false;
    s.cells.push_back(make_cell("access-a", "Access A: " + label,
                                workload_spec(c, *wl, p.threads, p.queue_depth, hp.access_a_seconds)));
    s.cells.push_back(make_cell("access-c", "Access C: " + label,
                                workload_spec(c, *wl, p.threads, p.queue_depth, hp.access_c_seconds)));
    for (const auto& other : p.subtests)
      if (other.id == s.id) c.errors.push_back(c.d.file + ":" + std::to_string(h.line) + ": [hir] wait_seconds lists " +
                                               num(h.wait_seconds[i]) + " twice");
    p.subtests.push_back(std::move(s));
  }
  p.hir = hp;
}

void resolve_xsr(AdvancedCtx& c) {
  const XsrDef& x = *c.d.advanced.xsr;
  if (c.o.workload) {
    detail::stimulus(c, "", false);
    return;
  }
  auto& p = c.plan();
  model::XsrPlan xp;
  xp.recovery_reference = x.recovery_reference;
  xp.recovery_tolerance = x.recovery_tolerance_pct / 100;
  model::SubTestPlan s;
  s.id = "main";
  s.role = model::role::kXsrGroups;
  s.purge = detail::purge_wanted(c);
  s.wipc_enabled = false;
  std::string title, groups_text;
  bool as_spec = x.groups.size() == 3;
  static const struct { model::AccessPattern pattern; uint32_t bs; double hours; } kSpec[3] = {
      {model::AccessPattern::Sequential, 1048576, 8}, {model::AccessPattern::Random, 8192, 6},
      {model::AccessPattern::Sequential, 1048576, 8}};
  for (size_t g = 0; g < x.groups.size(); ++g) {
    const auto& gd = x.groups[g];
    const WorkloadDef& w = c.d.advanced.workloads.at(gd.workload);
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
  c.interpret("XSR recovery time: from the start of Access Group 3 to the start of its first sample whose MB/s "
              "reaches the mean MB/s of every Access Group 1 sample, less " + num(x.recovery_tolerance_pct) +
              " % ([xsr] recovery_tolerance_pct; group 1's mean holds its FOB samples); \"not recovered\" when none "
              "does");
  p.subtests.push_back(std::move(s));
  p.xsr = xp;
}

}  // namespace

void resolve_advanced(const TestDefinition& d, const ClassSettings& cs, const RunOptions& o,
                      const model::DeviceIdentity& id, ResolvedPlan& r, std::vector<std::string>& errors) {
  AdvancedCtx c{d, cs, o, id, r, errors};
  auto& p = r.plan;
  p.procedure = d.procedure;
  p.time_scale = o.time_scale.value_or(1.0);
  if (o.art_ceiling_ms && d.procedure != kProcDirth)
    errors.push_back("--art-ceiling: only DIRTH and ECW have an ART ceiling");
  if (d.procedure == kProcWsat) resolve_wsat(c);
  else if (d.procedure == kProcHir) resolve_hir(c);
  else if (d.procedure == kProcXsr) resolve_xsr(c);
  else if (d.procedure == kProcDirth) detail::resolve_dirth(c);
  if (p.time_scale != 1.0) {
    std::string what;
    for (const auto& s : p.subtests) {
      if (s.role == model::role::kSteadyRounds) continue;  // Rounds of cells: --cell-seconds, not the scale
      const auto wc = advanced_worst_case(p, s);
      what += (what.empty() ? "" : "; ") + s.id + " worst case " + duration_words(wc.seconds);
    }
    c.deviate("time-scale", "every phase length of the test is multiplied by " + num(p.time_scale) +
                                " (--time-scale): " + what + ". A scaled run is a trial, not a compliant PTS run");
  }
}

SubtestWorstCase advanced_worst_case(const model::TestPlan& p, const model::SubTestPlan& s) {
  SubtestWorstCase out;
  if (s.role == model::role::kWsatSamples && p.wsat) {
    out.seconds = p.wsat->max_seconds;
    out.how = "until " + num(p.wsat->capacity_multiple) + " × capacity (" + core::format_bytes(p.wsat->stop_bytes) +
              ") is written or " + duration_words(p.wsat->max_seconds) + " of samples, whichever first";
  } else if (s.role == model::role::kHirWaitState && p.hir && s.role_index < p.hir->wait_seconds.size()) {
    const auto& h = *p.hir;
    out.seconds = h.repetitions * (h.access_a_seconds + h.wait_seconds[s.role_index]) + h.access_c_seconds;
    out.how = std::to_string(h.repetitions) + " × (" + duration_words(h.access_a_seconds) + " + " +
              duration_words(h.wait_seconds[s.role_index]) + " idle) + " + duration_words(h.access_c_seconds);
  } else if (s.role == model::role::kXsrGroups && p.xsr) {
    for (const auto& g : p.xsr->groups)
      out.seconds += std::ceil(g.seconds / p.cell_seconds - 1e-9) * p.cell_seconds;
    out.how = "the Access Groups' durations in whole " + duration_words(p.cell_seconds) + " samples";
  } else if (p.dirth && (s.role == model::role::kDirthHistogram || s.role == model::role::kDirthSweep)) {
    return detail::dirth_worst_case(p, s);
  } else {
    double round = 0;
    for (const auto& cell : s.cells)
      if (cell.applicable) round += cell.spec.seconds;
    out.seconds = round * p.max_rounds;
    out.how = std::to_string(p.max_rounds) + " Rounds of " + duration_words(round);
  }
  return out;
}

std::vector<std::string> describe_advanced_subtest(const model::TestPlan& p, const model::SubTestPlan& s) {
  std::vector<std::string> out;
  const std::string tq = tcqd(p);
  if (s.role == model::role::kWsatSamples && p.wsat && !s.cells.empty()) {
    out.push_back("from FOB: " + std::string(s.purge ? "purge" : "no purge") + ", no WIPC");
    out.push_back("samples of " + duration_words(p.cell_seconds) + " " + s.cells[0].label + " at " + tq +
                  ", back to back");
    out.push_back("stop " + advanced_worst_case(p, s).how + (p.wsat->stop_at_steady ? ", or at steady state" : ""));
  } else if (s.role == model::role::kHirWaitState && p.hir && s.cells.size() == 2) {
    const auto& h = *p.hir;
    out.push_back(std::to_string(h.repetitions) + " × (Access A " + duration_words(h.access_a_seconds) + " " +
                  after_colon(s.cells[0].label) + " at " + tq + " + Access B " +
                  duration_words(h.wait_seconds[s.role_index]) + " host idle, nothing submitted)");
    out.push_back("then Access C: " + duration_words(h.access_c_seconds) + " continuous " +
                  after_colon(s.cells[1].label) + " (back to baseline)");
  } else if (s.role == model::role::kXsrGroups && p.xsr) {
    for (size_t g = 0; g < p.xsr->groups.size() && g < s.cells.size(); ++g)
      out.push_back(s.cells[g].label + " at " + tq + " for " + duration_words(p.xsr->groups[g].seconds) + " in " +
                    duration_words(p.cell_seconds) + " samples");
  } else if (s.role == model::role::kSteadyRounds && !s.cells.empty()) {
    const std::string label = s.cells[0].label.substr(0, s.cells[0].label.rfind(" #"));
    out.push_back("Rounds of " + std::to_string(s.cells.size()) + " × " + duration_words(s.cells[0].spec.seconds) +
                  " " + label + " at TC " + std::to_string(s.cells[0].spec.threads) + " / QD " +
                  std::to_string(s.cells[0].spec.queue_depth) + " until steady state (window " +
                  std::to_string(p.window_rounds) + ", at most " + std::to_string(p.max_rounds) + " Rounds)");
    for (const auto& t : s.tracking) out.push_back("Tracking Variable: " + t.label + " (cell " + t.cell_id + ")");
  } else if (p.dirth) {
    return detail::describe_dirth_subtest(p, s);
  }
  return out;
}

}  // namespace pts::config
