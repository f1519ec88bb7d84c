// report/tables.cpp — see tables.h. Convergence, window, determination and matrix selections
// (the raw selection lives in raw_table.cpp).
#include "report/tables.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/units.h"
#include "report/demand_tables.h"
#include "report/phase_tables.h"
#include "report/run_tables.h"
#include "report/record_view.h"

namespace pts::report {

namespace {


std::string dimension_label(const model::CellPlan& cell, Dimension d) {
  switch (d) {
    case Dimension::BlockSize: return core::format_block_size(model::max_block_bytes(cell.spec));
    case Dimension::RwMix: return rw_mix_label(cell.spec.read_pct);
    case Dimension::Cell: return cell.label.empty() ? cell.id : cell.label;
    case Dimension::Threads: return "TC " + std::to_string(cell.spec.threads);
    case Dimension::QueueDepth: return "QD " + std::to_string(cell.spec.queue_depth);
  }
  return cell.id;
}

/// Sort key of a cell along a dimension: block size and R/W mix ascending (SNIA table order:
/// 0.5 KiB at the top, 0/100 on the left); cells keep plan order.
long dimension_key(const model::CellPlan& cell, Dimension d, long plan_order) {
  switch (d) {
    case Dimension::BlockSize: return static_cast<long>(model::max_block_bytes(cell.spec));
    case Dimension::RwMix: return static_cast<long>(cell.spec.read_pct);
    case Dimension::Cell: return plan_order;
    case Dimension::Threads: return static_cast<long>(cell.spec.threads);
    case Dimension::QueueDepth: return static_cast<long>(cell.spec.queue_depth);
  }
  return plan_order;
}

std::string dimension_header(Dimension d) {
  switch (d) {
    case Dimension::BlockSize: return "Block Size (KiB)";
    case Dimension::RwMix: return "R/W Mix";
    case Dimension::Cell: return "Cell";
    case Dimension::Threads: return "TC (threads)";
    case Dimension::QueueDepth: return "QD (per thread)";
  }
  return "";
}

/// Row key cell: block sizes as numbers in KiB (so a log x axis works), others as text.
TableCell dimension_cell(const model::CellPlan& cell, Dimension d) {
  if (d == Dimension::BlockSize) return TableCell::num(block_size_kib(model::max_block_bytes(cell.spec)));
  if (d == Dimension::Threads) return TableCell::num(cell.spec.threads);  // numbers: a log x axis works
  if (d == Dimension::QueueDepth) return TableCell::num(cell.spec.queue_depth);
  return TableCell::str(dimension_label(cell, d));
}

struct ScopedCell {
  size_t subtest;  // plan sub-test index
  const model::CellPlan* cell;
  long order;
};

std::vector<ScopedCell> cells_in_scope(const Scope& scope, const CellFilter& filter) {
  std::vector<ScopedCell> out;
  long order = 0;
  uint32_t most = 0;
  for (size_t si : scope.subtests) {
    for (const auto& c : scope.record->plan.subtests[si].cells) {
      if (cell_matches(c, filter)) {
        out.push_back({si, &c, order});
        most = std::max(most, c.spec.threads);
      }
      ++order;
    }
  }
  if (filter.max_threads)
    out.erase(std::remove_if(out.begin(), out.end(), [&](const ScopedCell& sc) { return sc.cell->spec.threads != most; }),
              out.end());
  return out;
}

Table convergence_table(const TableSpec& spec, const Scope& scope) {
  const model::RunRecord& rec = *scope.record;
  const MetricInfo* metric = find_metric(spec.metric);
  Table t;
  t.columns.push_back({"round", "Round", "0"});
  std::vector<ScopedCell> cells;
  for (const auto& sc : cells_in_scope(scope, spec.filter))
    if (sc.cell->applicable) cells.push_back(sc);
  const bool many = scope.subtests.size() > 1;
  uint32_t max_round = 0;
  for (const auto& sc : cells) {
    const auto& pst = rec.plan.subtests[sc.subtest];
    std::string header = dimension_label(*sc.cell, spec.series_label);
    if (many) header = (pst.title.empty() ? pst.id : pst.title) + ": " + header;
    t.columns.push_back({sc.cell->id, header, std::string(metric->number_format)});
    if (const auto* st = record_for(rec, pst); st && !st->rounds.empty())
      max_round = std::max(max_round, st->rounds.back().round);
  }
  for (uint32_t r = 1; r <= max_round; ++r) {
    std::vector<TableCell> row{TableCell::num(r)};
    for (const auto& sc : cells) {
      const auto* st = record_for(rec, rec.plan.subtests[sc.subtest]);
      const auto* round = st ? find_round(*st, r) : nullptr;
      const auto* cell = round ? find_cell(*round, sc.cell->id) : nullptr;
      row.push_back(cell ? TableCell::num(metric_value(*cell, spec.metric)) : TableCell{});
    }
    t.rows.push_back(std::move(row));
  }
  if (cells.empty()) t.notes.push_back("No cell of this test matches the selection.");
  if (max_round == 0) t.notes.push_back("No Round was recorded.");
  return t;
}

const model::SubTestRecord* tracking_record(const Scope& scope) {
  return record_for(*scope.record, scope.record->plan.subtests[scope.tracking_subtest]);
}

Table window_table(const Scope& scope) {
  Table t;
  const model::TrackingVariable& var = *scope.tracking;
  const TrackingUnit unit = tracking_unit(var.metric);
  const auto* tv = find_tracking_verdict(tracking_record(scope), var);
  const std::string f = unit.number_format;
  t.columns = {{"round", "Round", "0"},
               {"value", var.label.empty() ? unit.unit : var.label, f},
               {"average", "Average", f},
               {"band_hi10", "110 % of average", f},
               {"band_lo10", "90 % of average", f},
               {"fit", "Least-squares fit", f}};
  if (!tv) {
    t.notes.push_back("No steady-state determination was recorded for this Tracking Variable "
                      "(fewer Rounds than the Measurement Window).");
    return t;
  }
  const auto& w = tv->window;
  const double avg = w.average * unit.scale;
  for (size_t i = 0; i < w.values.size(); ++i) {
    const double round = static_cast<double>(w.first_round + i);
    t.rows.push_back({TableCell::num(round), TableCell::num(w.values[i] * unit.scale), TableCell::num(avg),
                      TableCell::num(1.1 * avg), TableCell::num(0.9 * avg),
                      TableCell::num((w.slope * round + w.intercept) * unit.scale)});
  }
  return t;
}

Table determination_table(const Scope& scope) {
  Table t;
  const model::TrackingVariable& var = *scope.tracking;
  const TrackingUnit unit = tracking_unit(var.metric);
  t.columns = {{"item", "Steady State Determination", "", 3}, {"value", unit.unit, unit.detail_format, 2}};
  auto text = [&](std::string item, std::string v) {
    t.rows.push_back({TableCell::str(std::move(item)), TableCell::str(std::move(v))});
  };
  auto num = [&](std::string item, double v) {
    t.rows.push_back({TableCell::str(std::move(item)), TableCell::num(v * unit.scale)});
  };
  text("Tracking Variable", var.label);
  const auto* tv = find_tracking_verdict(tracking_record(scope), var);
  if (!tv) {
    text("Measurement Window", "no steady-state determination recorded");
    return t;
  }
  const auto& w = tv->window;
  text("Measurement Window", rounds_label(w.first_round, w.last_round));
  num("Average value", w.average);
  num("Allowed maximum data excursion (20 % of average)", w.allowed_data_excursion);
  num("Measured data excursion (max − min)", w.data_excursion);
  num("Allowed maximum slope excursion (10 % of average)", w.allowed_slope_excursion);
  num("Measured slope excursion (|slope| × (last − first Round))", w.slope_excursion);
  num("Least-squares slope (per Round)", w.slope);
  num("Least-squares intercept", w.intercept);
  const double b = w.slope * unit.scale, a = w.intercept * unit.scale;
  std::string fit = trimmed_number(b, unit.fit_decimals) + "·R " + (a < 0 ? "− " : "+ ") +
                    trimmed_number(a < 0 ? -a : a, unit.fit_decimals);
  if (fit.rfind("-", 0) == 0) fit = "−" + fit.substr(1);
  text("Least-squares fit", fit);
  text("Data excursion criterion", w.data_ok ? "met" : "NOT met");
  text("Slope excursion criterion", w.slope_ok ? "met" : "NOT met");
  text("Steady state in this window", w.steady ? "yes" : "NO");
  return t;
}

Table matrix_table(const TableSpec& spec, const Scope& scope) {
  const model::RunRecord& rec = *scope.record;
  const MetricInfo* metric = find_metric(spec.metric);
  Table t;
  std::vector<ScopedCell> cells = cells_in_scope(scope, spec.filter);
  // Distinct row and column keys, in SNIA order.
  std::map<long, const model::CellPlan*> row_keys, col_keys;
  for (const auto& sc : cells) {
    row_keys.emplace(dimension_key(*sc.cell, spec.rows, sc.order), sc.cell);
    col_keys.emplace(dimension_key(*sc.cell, spec.columns, sc.order), sc.cell);
  }
  t.columns.push_back({"row", dimension_header(spec.rows), ""});
  for (const auto& [key, cell] : col_keys)
    t.columns.push_back({"col_" + std::to_string(key), dimension_label(*cell, spec.columns),
                         std::string(metric->number_format)});
  std::set<std::string> noted;
  for (const auto& [rkey, rcell] : row_keys) {
    std::vector<TableCell> row{dimension_cell(*rcell, spec.rows)};
    for (const auto& [ckey, ccell] : col_keys) {
      const ScopedCell* found = nullptr;
      for (const auto& sc : cells)
        if (dimension_key(*sc.cell, spec.rows, sc.order) == rkey &&
            dimension_key(*sc.cell, spec.columns, sc.order) == ckey) {
          found = &sc;
          break;
        }
      TableCell value;
      if (found && !found->cell->applicable) {
        std::string why = found->cell->not_applicable_reason.empty() ? "not applicable"
                                                                      : found->cell->not_applicable_reason;
        std::string note = (found->cell->label.empty() ? found->cell->id : found->cell->label) +
                           ": not run — " + why;
        if (noted.insert(note).second) t.notes.push_back(note);
      } else if (found) {
        // The number pts stored for the Measurement Window; the report never recomputes it.
        const auto* st = record_for(rec, rec.plan.subtests[found->subtest]);
        const auto* w = st ? find_window_result(*st, found->cell->id) : nullptr;
        std::optional<double> v;
        if (w) v = window_metric_value(*w, spec.metric);
        if (v) value = TableCell::num(*v);
        else if (noted.insert(found->cell->id).second)
          t.notes.push_back((found->cell->label.empty() ? found->cell->id : found->cell->label) +
                            (st && st->complete ? ": no window result stored"
                                                : ": no Measurement Window result yet (sub-test not finished)"));
      }
      row.push_back(std::move(value));
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace

bool cell_matches(const model::CellPlan& cell, const CellFilter& f) {
  if (f.read_pct && cell.spec.read_pct != *f.read_pct) return false;
  if (f.block_bytes && model::max_block_bytes(cell.spec) != *f.block_bytes) return false;
  if (!f.id_prefix.empty() && cell.id.rfind(f.id_prefix, 0) != 0) return false;
  return true;
}

const model::TrackingVerdict* find_tracking_verdict(const model::SubTestRecord* st,
                                                    const model::TrackingVariable& variable) {
  if (!st) return nullptr;
  const model::SteadyStateVerdict* v = shown_verdict(*st);
  if (!v) return nullptr;
  for (const auto& tv : v->variables)
    if (tv.variable.cell_id == variable.cell_id && tv.variable.metric == variable.metric) return &tv;
  return nullptr;
}

Table build_table(const TableSpec& spec, const Scope& scope) {
  Table t;
  switch (spec.kind) {
    case TableKind::Convergence: t = convergence_table(spec, scope); break;
    case TableKind::Window: t = window_table(scope); break;
    case TableKind::Determination: t = determination_table(scope); break;
    case TableKind::Matrix: t = matrix_table(spec, scope); break;
    case TableKind::Raw: t = raw_table(*scope.record, scope.subtests); break;
    case TableKind::Samples:
    case TableKind::Findings:
    case TableKind::Interpretations:
    case TableKind::Points:
    case TableKind::Histogram:
    case TableKind::Jobs: t = phase_table(spec, scope); break;
    case TableKind::Toio:
    case TableKind::AccessMix: t = demand_table(spec, scope); break;
    case TableKind::Runs: t = runs_table(spec, scope); break;
  }
  t.id = spec.id;
  t.printed = spec.printed;
  t.order = spec.source_line;
  t.caption = spec.caption;
  return t;
}

}  // namespace pts::report
