// config/steady_rounds.cpp — the steady-Rounds row of the procedure table, definition side: the
// definition's [matrix] (R/W mix outer, block size inner) in each [[subtest]] with its WIPC and
// the edition/class's Tracking Variables, run in Rounds until steady state (IOPS, Throughput,
// Latency). The first row of the table: a definition without [test] procedure runs it.
#include <algorithm>
#include <cmath>

#include "config/procedure_rows.h"
#include "config/resolver_text.h"
#include "config/toml_reader.h"
#include "core/units.h"

namespace pts::config {

namespace {

using namespace detail;

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

const char* metric_label(model::Metric m) {
  switch (m) {
    case model::Metric::Iops: return "IOPS";
    case model::Metric::Mbps: return "MB/s";
    case model::Metric::MeanLatencyNs: return "ART";
    case model::Metric::MaxLatencyNs: return "MRT";
  }
  return "?";
}

/// Once everything is read: tracking cells exist, each sub-test run in a class has a Tracking
/// Variable, class sub-test lists name real sub-tests. `matrix_ok` is false when the matrix
/// itself had problems (then cell checks would only repeat them).
void check(const TestDefinition& d, Problems& p, bool matrix_ok) {
  for (const auto& [edition, classes] : d.editions) {
    for (const auto& [cls, cs] : classes) {
      const std::string where = "[editions.\"" + edition + "\"." + cls + "]";
      for (const auto& id : cs.subtests) {
        bool found = std::any_of(d.subtests.begin(), d.subtests.end(), [&](const SubTestDef& s) { return s.id == id; });
        if (!found) p.add(cs.line, where + " subtests names '" + id + "', which no [[subtest]] defines");
      }
      for (const auto& t : cs.tracking) {
        const bool rw_ok = std::find(d.rw_mix.begin(), d.rw_mix.end(), t.read_pct) != d.rw_mix.end();
        bool bs_ok = false;
        for (const auto& s : d.subtests)
          if ((cs.subtests.empty() || contains(cs.subtests, s.id)) &&
              std::find(s.block_sizes.begin(), s.block_sizes.end(), t.block_bytes) != s.block_sizes.end())
            bs_ok = true;
        if (matrix_ok && (!rw_ok || !bs_ok))
          p.add(t.line, where + " tracking cell " + cell_id(t.read_pct, t.block_bytes) + " (" +
                            core::format_block_size(t.block_bytes) + " " + std::to_string(t.read_pct) + "/" +
                            std::to_string(100 - t.read_pct) + ") is not in the matrix");
      }
      for (const auto& s : d.subtests) {
        if (!cs.subtests.empty() && !contains(cs.subtests, s.id)) continue;
        bool tracked = std::any_of(cs.tracking.begin(), cs.tracking.end(), [&](const TrackingDef& t) {
          return std::find(s.block_sizes.begin(), s.block_sizes.end(), t.block_bytes) != s.block_sizes.end();
        });
        if (matrix_ok && !tracked && !cs.tracking.empty()) p.add(cs.line, where + " has no Tracking Variable for sub-test '" + s.id + "'");
      }
    }
  }
}

/// Every zone of a zoned definition must hold a block of the sub-test's largest size on
/// this target's ActiveRange (the engine checks the same before the first I/O).
void check_zones(ResolveCtx& c, const SubTestDef& sd) {
  const TestDefinition& d = c.d;
  if (d.zones.empty() || sd.block_sizes.empty()) return;
  const uint32_t max_bs = *std::max_element(sd.block_sizes.begin(), sd.block_sizes.end());
  check_zones_fit(d.zones, max_bs, c.id, c.plan().active_range_pct, c.at(d.zones_line) + "[matrix]",
                  " of sub-test " + sd.id, c.errors);
}

/// One sub-test: cells in spec order, Tracking Variables, WIPC.
void resolve_subtest(ResolveCtx& c, const SubTestDef& sd) {
  const TestDefinition& d = c.d;
  const auto& id = c.id;
  model::TestPlan& p = c.plan();
  model::SubTestPlan s;
  s.id = sd.id;
  s.title = sd.title;
  s.purge = d.purge && !(p.purge_method == model::PurgeMethod::None && !p.purge_auto);
  s.wipc_enabled = d.wipc;
  std::vector<std::string> skipped;
  for (uint32_t rw : d.rw_mix) {
    for (uint32_t bs : sd.block_sizes) {
      model::CellPlan cell;
      cell.id = cell_id(rw, bs);
      cell.label = std::string(pattern_tag(d.pattern)) + " " + core::format_block_size(bs) + " " + mix(rw);
      cell.spec.pattern = d.pattern;
      cell.spec.read_pct = rw;
      cell.spec.block_bytes = bs;
      cell.spec.threads = p.threads;
      cell.spec.queue_depth = p.queue_depth;
      cell.spec.seconds = p.cell_seconds;
      cell.spec.active_range_pct = p.active_range_pct;
      cell.spec.zones = d.zones;
      cell.spec.ar_segments = p.ar_segments;
      cell.spec.poll_budget_ns = p.poll_budget_ns;
      cell.not_applicable_reason = not_applicable(bs, id.lba_size);
      cell.applicable = cell.not_applicable_reason.empty();
      if (!cell.applicable) skipped.push_back(cell.id);
      s.cells.push_back(std::move(cell));
    }
  }
  check_zones(c, sd);
  if (!skipped.empty()) {
    std::string list;
    for (const auto& cell : skipped) list += (list.empty() ? "" : ", ") + cell;
    c.deviate("cells-not-applicable", sd.id + ": " + std::to_string(skipped.size()) + " cell(s) not run on this " +
                                          std::to_string(id.lba_size) + "-byte LBA format (" + list + ")");
  }
  for (const auto& t : c.cs.tracking) {
    if (std::find(sd.block_sizes.begin(), sd.block_sizes.end(), t.block_bytes) == sd.block_sizes.end()) continue;
    model::TrackingVariable v;
    v.cell_id = cell_id(t.read_pct, t.block_bytes);
    v.metric = t.metric;
    v.label = std::string(pattern_tag(d.pattern)) + " " + core::format_block_size(t.block_bytes) + " " +
              mix(t.read_pct) + " " + metric_label(t.metric);
    if (std::string why = not_applicable(t.block_bytes, id.lba_size); !why.empty())
      c.errors.push_back(c.at(t.line) + "Tracking Variable " + v.label + " cannot be measured on " +
                         (id.path.empty() ? "this target" : id.path) + ": " + why);
    s.tracking.push_back(std::move(v));
  }
  // WIPC: SEQ writes over the ActiveRange (wrapping), multiple × the user capacity — not × the
  // ActiveRange — in whole blocks, at WIPC's own TC/QD.
  const uint32_t wbs = d.wipc_block_bytes ? d.wipc_block_bytes : sd.block_sizes.front();
  s.wipc.pattern = model::AccessPattern::Sequential;
  s.wipc.read_pct = 0;
  s.wipc.block_bytes = wbs;
  s.wipc.threads = p.wipc_threads;
  s.wipc.queue_depth = p.wipc_queue_depth;
  s.wipc.poll_budget_ns = p.poll_budget_ns;
  s.wipc.active_range_pct = p.active_range_pct;
  s.wipc.seconds = 0;
  const long double want = static_cast<long double>(d.wipc_capacity_multiple) * id.capacity_bytes;
  s.wipc.bytes_limit = static_cast<uint64_t>(std::floor(want / wbs)) * wbs;
  if (d.wipc && id.capacity_bytes > 0) {
    if (std::string why = not_applicable(wbs, id.lba_size); !why.empty())
      c.errors.push_back(d.file + ": WIPC " + why);
    else if (s.wipc.bytes_limit == 0)
      c.errors.push_back(d.file + ": WIPC would write less than one " + core::format_block_size(wbs) + " block");
  }
  p.subtests.push_back(std::move(s));
}

void resolve(ResolveCtx& c) {
  for (const auto& sd : c.d.subtests)
    if (c.cs.subtests.empty() || contains(c.cs.subtests, sd.id)) resolve_subtest(c, sd);
}

SubtestWorstCase worst_case(const model::TestPlan& p, const model::SubTestPlan& s) {
  double round = 0;
  for (const auto& cell : s.cells)
    if (cell.applicable) round += cell.spec.seconds;
  return {p.max_rounds * round, std::to_string(p.max_rounds) + " Rounds"};
}

}  // namespace

const ProcedureRow& steady_rounds_procedure() {
  static const ProcedureRow row = [] {
    ProcedureRow r;
    r.name = "steady-rounds";
    for (const auto& k : shared_keys())
      if (k != "workload" && k != "editions.workloads") r.reads.push_back(k);
    r.matrix_rounds = true;
    r.check = check;
    r.resolve = resolve;
    r.worst_case = worst_case;
    return r;
  }();
  return row;
}

}  // namespace pts::config
