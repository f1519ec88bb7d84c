// config/plan_resolver.cpp — see plan_resolver.h. Pure: definition + options + identity in,
// TestPlan + Deviations out; the procedure's row adds its sub-tests.
#include "config/plan_resolver.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "config/engine_check.h"
#include "config/procedure_table.h"
#include "config/workloads.h"
#include "config/resolver_text.h"
#include "core/units.h"

namespace pts::config {
namespace {

using detail::duration_words;
using detail::edition_title;
using detail::mix;
using detail::not_applicable;
using detail::num;
using detail::pattern_tag;

void deviate(ResolvedPlan& r, std::string code, std::string text) {
  r.deviations.push_back(model::Deviation{std::move(code), std::move(text)});
}

/// Seed of the AR segment layout when the operator gives none: fixed, so `plan` shows the
/// layout `run` will use and runs on one drive are comparable; --seed N derives another.
constexpr uint64_t kSegmentLayoutSeed = 0x5345474d454e5453ull;  // "SEGMENTS"

/// Client ActiveRange segmentation: `count` segments, each the AR Amount / count rounded down
/// to the largest block any cell of the class uses, laid out over the ActiveRange.
void resolve_segments(const TestDefinition& d, const ClassSettings& cs, const RunOptions& o,
                      const model::DeviceIdentity& id, ResolvedPlan& r, std::vector<std::string>& errors) {
  model::TestPlan& p = r.plan;
  uint32_t max_bs = 0;
  for (const auto& sd : d.subtests)
    if (cs.subtests.empty() || std::find(cs.subtests.begin(), cs.subtests.end(), sd.id) != cs.subtests.end())
      for (uint32_t bs : sd.block_sizes) max_bs = std::max(max_bs, bs);
  if (max_bs == 0) return;
  const uint64_t amount = o.ar_amount_bytes.value_or(cs.active_range_amount_bytes);
  const std::string key = d.file + ":" + std::to_string(cs.segments_line) + ": active_range_segments " +
                          std::to_string(cs.active_range_segments);
  const std::string amount_text = core::format_bytes(amount) + (o.ar_amount_bytes ? " (--ar-amount)" : " (active_range_amount)");
  model::ArSegmentation seg;
  seg.count = cs.active_range_segments;
  seg.align_bytes = max_bs;
  seg.segment_bytes = amount / seg.count / max_bs * max_bs;
  seg.seed = kSegmentLayoutSeed;
  if (o.seed) {
    uint64_t z = *o.seed ^ kSegmentLayoutSeed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    seg.seed = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  }
  if (seg.segment_bytes == 0) {
    errors.push_back(key + " do not fit an AR Amount of " + amount_text + " at the largest block size: each segment " +
                     "must hold one " + core::format_block_size(max_bs) + " block, so the AR Amount must be at least " +
                     core::format_bytes(uint64_t{seg.count} * max_bs));
    return;
  }
  if (id.capacity_bytes == 0) return;
  const uint32_t lbs = id.lba_size ? id.lba_size : 512;
  const auto ar = static_cast<uint64_t>(static_cast<long double>(id.capacity_bytes) * p.active_range_pct / 100.0L) /
                  lbs * lbs;
  auto layout = model::segment_layout(seg, ar);
  if (!layout.ok()) {
    errors.push_back(key + " of " + core::format_bytes(seg.segment_bytes) + " (AR Amount " + amount_text +
                     ") do not fit the ActiveRange of " + (id.path.empty() ? "this target" : id.path) +
                     " at the largest block size " + core::format_block_size(max_bs) + ": " + layout.error().message());
    return;
  }
  p.ar_segments = seg;
  p.ar_amount_bytes = uint64_t{seg.count} * seg.segment_bytes;
  p.ar_segment_starts_bytes = std::move(layout.value());
  r.notes.push_back("ActiveRange segmentation: " + std::to_string(seg.count) + " segments of " +
                    core::format_bytes(seg.segment_bytes) + " at random, non-touching start LBAs over the " +
                    num(p.active_range_pct) + " % ActiveRange (layout seed " + std::to_string(seg.seed) +
                    ", recorded in the plan); AR Amount " + core::format_bytes(p.ar_amount_bytes) + " from " +
                    amount_text + " — the spec digest marks the AR Amount UNCONFIRMED (8 or 16 GiB): a definition key; "
                    "WIPC writes the whole ActiveRange");
  if (o.ar_amount_bytes && *o.ar_amount_bytes != cs.active_range_amount_bytes)
    deviate(r, "active-range-amount", "AR Amount " + core::format_bytes(*o.ar_amount_bytes) + " instead of the " +
                                          core::format_bytes(cs.active_range_amount_bytes) + " the definition sets");
}

/// Run-wide settings: edition/class, durations, rounds, TC/QD, ActiveRange, purge.
void resolve_settings(const TestDefinition& d, const ClassSettings& cs, const RunOptions& o,
                      const model::DeviceIdentity& id, ResolvedPlan& r, std::vector<std::string>& errors) {
  model::TestPlan& p = r.plan;
  const std::string who = edition_title(o.pts_edition) + " " + o.device_class;
  p.test_id = d.id;
  p.title = d.title;
  p.pts_edition = o.pts_edition;
  p.device_class = o.device_class;
  p.template_name = d.template_name;
  p.definition_file = d.file;
  p.write_cache_enabled = cs.write_cache_enabled;
  p.data_pattern = d.data_pattern;
  p.spec_cell_seconds = d.cell_seconds;
  p.cell_seconds = o.cell_seconds.value_or(d.cell_seconds);
  if (p.cell_seconds != p.spec_cell_seconds)
    deviate(r, "cell-seconds", "cells last " + num(p.cell_seconds) + " s instead of the " + num(p.spec_cell_seconds) +
                                   " s the spec requires");
  p.window_rounds = d.window_rounds;
  p.max_rounds = o.max_rounds.value_or(d.max_rounds);
  if (p.max_rounds < p.window_rounds)
    errors.push_back("--max-rounds " + std::to_string(p.max_rounds) + " is shorter than the Measurement Window of " +
                     std::to_string(p.window_rounds) + " Rounds: steady state could never be assessed");
  else if (p.max_rounds != d.max_rounds)
    deviate(r, "max-rounds", "at most " + std::to_string(p.max_rounds) + " Rounds instead of the spec's " +
                                 std::to_string(d.max_rounds));
  p.continue_past_max = o.continue_past_max;
  if (o.continue_past_max)
    r.notes.push_back("Rounds continue past the maximum until steady state (the spec leaves this to the operator); "
                      "the report names the Rounds run");
  p.data_excursion_limit = d.data_excursion_pct / 100.0;
  p.slope_excursion_limit = d.slope_excursion_pct / 100.0;
  if (d.data_excursion_pct != 20.0 || d.slope_excursion_pct != 10.0)
    deviate(r, "steady-state-limits", "steady-state limits are " + num(d.data_excursion_pct) + " % (data) and " +
                                          num(d.slope_excursion_pct) + " % (slope) instead of 20 % and 10 %");
  p.wipc_capacity_multiple = d.wipc_capacity_multiple;
  if (d.wipc && d.wipc_capacity_multiple != 2.0)
    deviate(r, "wipc-amount", "WIPC writes " + num(d.wipc_capacity_multiple) + "× the user capacity instead of 2×");
  p.wipc_threads = o.wipc_threads.value_or(d.wipc_threads);
  p.wipc_queue_depth = o.wipc_queue_depth.value_or(d.wipc_queue_depth);
  p.poll_budget_ns = !o.poll_budget_us                      ? d.poll_budget_ns
                     : *o.poll_budget_us == model::kPollBudgetAuto ? model::kPollBudgetAuto
                                                                   : *o.poll_budget_us * 1000;

  p.active_range_pct = o.active_range_pct.value_or(cs.active_range_pct);
  if (p.active_range_pct != cs.active_range_pct)
    deviate(r, "active-range", "ActiveRange " + num(p.active_range_pct) + " % instead of the " +
                                   num(cs.active_range_pct) + " % " + who + " requires");
  if (cs.active_range_segments > 1) resolve_segments(d, cs, o, id, r, errors);

  p.threads = o.threads.value_or(cs.threads);
  p.queue_depth = o.queue_depth.value_or(cs.queue_depth);
  const std::string tcqd = "TC " + std::to_string(p.threads) + " / QD " + std::to_string(p.queue_depth);
  const std::string def_tcqd = "TC " + std::to_string(cs.threads) + " / QD " + std::to_string(cs.queue_depth);
  const bool tcqd_changed = p.threads != cs.threads || p.queue_depth != cs.queue_depth;
  switch (cs.tc_qd_rule) {
    case TcQdRule::Required:
      if (tcqd_changed) deviate(r, "tc-qd", tcqd + " instead of the " + def_tcqd + " " + who + " requires");
      break;
    case TcQdRule::Recommended:
      if (tcqd_changed) deviate(r, "tc-qd", tcqd + " instead of the " + def_tcqd + " " + who + " recommends");
      break;
    case TcQdRule::OperatorChoice:
      r.notes.push_back(who + " leaves TC/QD to the operator: " + tcqd +
                        (tcqd_changed ? " (operator's choice)" : " (ptsuite default)"));
      break;
  }

  if (d.wipc) {
    const bool chosen = o.wipc_threads || o.wipc_queue_depth;
    r.notes.push_back("WIPC runs at its own TC " + std::to_string(p.wipc_threads) + " / QD " +
                      std::to_string(p.wipc_queue_depth) + (chosen ? " (operator's choice" : " (definition default") +
                      "; the spec leaves WIPC TC/QD to the operator)");
  }

  p.purge_auto = !o.purge.has_value();
  p.purge_method = o.purge.value_or(model::PurgeMethod::None);
  if (!d.purge || (o.purge && *o.purge == model::PurgeMethod::None))
    deviate(r, "purge-none", "no purge before the test: the drive does not start from a purged state");
  else if (o.purge && *o.purge == model::PurgeMethod::Discard)
    deviate(r, "purge-discard", "purge by discard (TRIM), which is not a SNIA purge");
  if (id.kind == model::TargetKind::File)
    deviate(r, "file-target", "target is a regular file: no drive purge (the file is re-created), and file-system "
                              "caching and allocation stand between ptsuite and the drive; not a drive certification");
  if (id.capacity_bytes == 0) errors.push_back("target " + id.path + " reports a capacity of 0 bytes");
}

/// The options only some procedures take, and the phase scale.
void resolve_procedure_options(const TestDefinition& d, const ProcedureRow& row, const RunOptions& o, ResolvedPlan& r,
                               std::vector<std::string>& errors) {
  if (row.scaled) r.plan.time_scale = o.time_scale.value_or(1.0);
  else if (o.time_scale)
    r.notes.push_back("--time-scale has no effect: " + d.title + " has no phases beyond its cells (--cell-seconds "
                      "sets those)");
  if (o.art_ceiling_ms && !row.takes_art_ceiling) errors.push_back("--art-ceiling: " + d.title + " has no ART ceiling");
  if (o.workload && !row.takes_workload)
    errors.push_back("--workload: " + d.title + " takes no --workload (its definition fixes what it runs)");
}

/// A scaled run says so, with each scaled sub-test's worst case.
void time_scale_deviation(const ProcedureRow& row, ResolvedPlan& r) {
  const model::TestPlan& p = r.plan;
  if (!row.scaled || p.time_scale == 1.0 || !row.worst_case) return;
  std::string what;
  for (const auto& s : p.subtests) {
    if (s.role == model::SubTestRole::SteadyRounds) continue;  // Rounds of cells: --cell-seconds, not the scale
    what += (what.empty() ? "" : "; ") + s.id + " worst case " + duration_words(row.worst_case(p, s).seconds);
  }
  deviate(r, "time-scale", "every phase length of the test is multiplied by " + num(p.time_scale) +
                               " (--time-scale): " + what + ". A scaled run is a trial, not a compliant PTS run");
}

}  // namespace

core::Result<ResolvedPlan> resolve_plan(const TestDefinition& d, const RunOptions& o,
                                        const model::DeviceIdentity& id, const model::EngineLimits& limits) {
  std::vector<std::string> errors;
  const auto ed = d.editions.find(o.pts_edition);
  const ClassSettings* cs = nullptr;
  if (ed != d.editions.end()) {
    auto c = ed->second.find(o.device_class);
    if (c != ed->second.end()) cs = &c->second;
  }
  if (!cs) {
    std::string have;
    for (const auto& [e, classes] : d.editions)
      for (const auto& [c, _] : classes) have += (have.empty() ? "" : ", ") + ("--pts " + e + " --class " + c);
    std::string why = o.pts_edition == "pts-e-1.1" && o.device_class == "client"
                          ? " (PTS-E 1.1 is the enterprise edition; use --pts pts-2.0.2 for client settings)"
                          : "";
    return core::bad_input("--pts " + o.pts_edition + " --class " + o.device_class + ": " + d.file +
                           " defines no [editions.\"" + o.pts_edition + "\"." + o.device_class + "] settings" + why +
                           "; available: " + have);
  }
  const ProcedureRow* row = find_procedure(d.procedure);
  if (!row) return core::bad_input(d.file + ": no procedure '" + d.procedure + "' (known: " + procedure_names() + ")");
  ResolvedPlan r;
  resolve_settings(d, *cs, o, id, r, errors);
  r.plan.procedure = row->name;
  resolve_procedure_options(d, *row, o, r, errors);
  ResolveCtx ctx{d, *cs, o, id, r, errors};
  if (row->resolve) row->resolve(ctx);
  time_scale_deviation(*row, r);
  auto add_once = [&](const std::vector<std::string>& found) {
    for (const auto& m : found)
      if (std::find(errors.begin(), errors.end(), m) == errors.end()) errors.push_back(m);
  };
  for (const auto& sub : r.plan.subtests) {
    if (sub.wipc_enabled) add_once(check_engine_limits(sub.wipc, limits));
    for (const auto& cell : sub.cells) {
      if (!cell.applicable) continue;
      auto found = check_engine_limits(cell.spec, limits);
      if (row->explain_limit)
        for (auto& m : found) m = row->explain_limit(d, sub, cell, m);
      add_once(found);
    }
  }
  if (!errors.empty()) return core::Error(core::ErrorKind::BadInput, errors);
  r.plan.accept_purge_failure = o.accept_purge_failure;
  if (o.seed) {  // the runner derives a distinct seed per cell and Round from this one
    for (auto& sub : r.plan.subtests) {
      sub.wipc.seed = *o.seed;
      for (auto& cell : sub.cells) cell.spec.seed = *o.seed;
    }
    r.notes.push_back("operator seed " + std::to_string(*o.seed) + ": offsets and data are reproducible run to run");
  }
  return r;
}

PlanDuration estimate_duration(const model::TestPlan& plan, double assumed_write_mbps) {
  PlanDuration out;
  out.unbounded = plan.continue_past_max;
  const ProcedureRow* row = find_procedure(plan.procedure);
  out.assumed_write_mbps = assumed_write_mbps;
  for (const auto& s : plan.subtests) {
    PlanDuration::SubTest st;
    st.id = s.id;
    for (const auto& c : s.cells) {
      if (!c.applicable) continue;
      ++st.applicable_cells;
      st.round_seconds += c.spec.seconds;
    }
    st.max_rounds_seconds = plan.max_rounds * st.round_seconds;
    st.seconds = st.max_rounds_seconds;
    st.how = std::to_string(plan.max_rounds) + " Rounds";
    if (row && row->worst_case) {
      const auto wc = row->worst_case(plan, s);
      st.seconds = wc.seconds;
      st.how = wc.how;
    }
    st.wipc_bytes = s.wipc_enabled ? s.wipc.bytes_limit : 0;
    st.wipc_seconds = assumed_write_mbps > 0 ? static_cast<double>(st.wipc_bytes) / (assumed_write_mbps * 1e6) : 0;
    out.rounds_seconds += st.seconds;
    out.wipc_seconds += st.wipc_seconds;
    out.subtests.push_back(st);
  }
  return out;
}

model::DeviceIdentity nominal_identity(uint64_t capacity_bytes, uint32_t lba_size) {
  model::DeviceIdentity id;
  id.kind = model::TargetKind::NvmeNamespace;
  id.path = "(nominal target)";
  id.model = "nominal NVMe namespace";
  id.interface = "PCIe NVMe";
  id.namespace_id = 1;
  id.capacity_bytes = capacity_bytes;
  id.lba_size = lba_size;
  return id;
}

}  // namespace pts::config
