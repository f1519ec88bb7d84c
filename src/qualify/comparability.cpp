// qualify/comparability.cpp — see comparability.h.
#include "qualify/comparability.h"

#include <algorithm>

#include "core/units.h"
#include "report/record_view.h"

namespace pts::qualify {

namespace {

using report::trimmed_number;

/// Values in order of first appearance, joined by ", ".
class Distinct {
 public:
  void add(const std::string& v) {
    if (std::find(items_.begin(), items_.end(), v) == items_.end()) items_.push_back(v);
  }
  std::string text(const std::string& none = "none") const {
    std::string out;
    for (const auto& v : items_) out += (out.empty() ? "" : ", ") + v;
    return out.empty() ? none : out;
  }

 private:
  std::vector<std::string> items_;
};

std::string block_text(const model::AccessSpec& s) {
  if (s.bs_split.empty()) return core::format_block_size(s.block_bytes);
  std::string out = "mix";
  for (const auto& b : s.bs_split) out += " " + core::format_block_size(b.bytes) + " " + std::to_string(b.percent) + " %";
  return out;
}

std::string purge_text(const model::RunRecord& r) {
  Distinct planned, done;
  for (const auto& p : r.plan.subtests)
    planned.add(!p.purge ? "none" : r.plan.purge_auto ? "auto" : model::purge_method_name(r.plan.purge_method));
  for (const auto& st : r.subtests)
    if (st.purge) done.add(st.purge->is_snia_purge ? "a SNIA purge" : "not a SNIA purge");
  return "planned " + planned.text() + "; done: " + done.text("none recorded");
}

std::string wipc_text(const model::RunRecord& r) {
  Distinct d;
  for (const auto& p : r.plan.subtests) {
    if (!p.wipc_enabled) {
      d.add("none");
      continue;
    }
    d.add(trimmed_number(r.plan.wipc_capacity_multiple, 3) + " × capacity, " +
          (p.wipc.pattern == model::AccessPattern::Sequential ? "SEQ " : "RND ") + block_text(p.wipc) + ", TC " +
          std::to_string(p.wipc.threads) + " × QD " + std::to_string(p.wipc.queue_depth));
  }
  return d.text();
}

/// The version of ptsuite that made the run: tool_version up to ", engine …" (which names the
/// engine and, for a simulated drive, its profile — the drive, not the tool).
std::string ptsuite_version(const model::RunRecord& r) {
  const std::string v = r.tool_version.substr(0, r.tool_version.find(", engine "));
  return v.empty() ? "not recorded" : v;
}

}  // namespace

uint32_t targets_per_run(const model::RunRecord&) { return 1; }

std::vector<Aspect> comparability_aspects(const model::RunRecord& r) {
  const auto& plan = r.plan;
  Distinct patterns, blocks, reads, oio, split;
  for (const auto& p : plan.subtests)
    for (const auto& c : p.cells) {
      if (!c.applicable) continue;
      patterns.add(c.spec.pattern == model::AccessPattern::Sequential ? "sequential" : "random");
      blocks.add(block_text(c.spec));
      reads.add(report::rw_mix_label(c.spec.read_pct));
      oio.add(std::to_string(uint64_t{c.spec.threads} * c.spec.queue_depth));
      split.add(std::to_string(c.spec.threads) + " × " + std::to_string(c.spec.queue_depth));
    }
  std::string cell = trimmed_number(plan.cell_seconds, 3) + " s per cell";
  if (plan.time_scale != 1.0) cell += ", time scale " + trimmed_number(plan.time_scale, 6);
  std::string ar = trimmed_number(plan.active_range_pct, 3) + " %";
  if (plan.ar_segments.count > 0) ar += " in " + std::to_string(plan.ar_segments.count) + " segments";
  return {
      {"test", plan.test_id + (plan.title.empty() ? "" : " (" + plan.title + ")")},
      {"edition and class", report::edition_label(plan.pts_edition) + " " + plan.device_class},
      {"access pattern", patterns.text()},
      {"block sizes", blocks.text()},
      {"read shares (R/W)", reads.text()},
      {"total outstanding I/O (TC × QD)", oio.text()},
      {"TC × QD split", split.text()},
      {"targets per run", std::to_string(targets_per_run(r))},
      {"purge", purge_text(r)},
      {"preconditioning (WIPC)", wipc_text(r)},
      {"ActiveRange", ar},
      {"write cache (required)", plan.write_cache_enabled ? "enabled" : "disabled"},
      {"data pattern", plan.data_pattern},
      {"cell length", cell},
      {"steady-state rules", "window " + std::to_string(plan.window_rounds) + " Rounds, at most " +
                                 std::to_string(plan.max_rounds) + ", data " +
                                 trimmed_number(plan.data_excursion_limit * 100, 3) + " %, slope " +
                                 trimmed_number(plan.slope_excursion_limit * 100, 3) + " %"},
      {"ptsuite version", ptsuite_version(r)},
      {"drive", r.simulated_drive ? "simulated (virtual time)" : "real"},
  };
}

std::vector<Difference> differences(const std::vector<const model::RunRecord*>& runs,
                                    const std::vector<std::string>& names) {
  std::vector<std::vector<Aspect>> all;
  for (const auto* r : runs) all.push_back(comparability_aspects(*r));
  std::vector<Difference> out;
  if (all.empty()) return out;
  for (size_t a = 0; a < all[0].size(); ++a) {
    bool same = true;
    for (const auto& run : all) same = same && run[a].value == all[0][a].value;
    if (same) continue;
    Difference d;
    d.aspect = all[0][a].name;
    d.text = d.aspect + ":";
    for (size_t i = 0; i < all.size(); ++i) {
      d.values.push_back(all[i][a].value);
      d.text += std::string(i ? ";" : "") + " " + (i < names.size() ? names[i] : "run " + std::to_string(i + 1)) + " " +
                all[i][a].value;
    }
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace pts::qualify
