// report/demand_tables.cpp — see demand_tables.h.
#include "report/demand_tables.h"

#include <algorithm>
#include <cstdio>

#include "core/units.h"
#include "report/record_view.h"

namespace pts::report {

namespace {

std::string pct(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

/// Rows: every TC × QD point the filter keeps (DIRTH's sweep: id_prefix "tc"), ordered by
/// total OIO, more threads first on a tie; the window IOPS and ART beside TC and QD.
Table toio_table(const TableSpec& spec, const Scope& scope) {
  const model::RunRecord& rec = *scope.record;
  Table t;
  t.columns = {{"toio", "Total OIO (TC × QD)", "0"}, {"iops", "IOPS", "#,##0.0"}, {"art_ms", "ART (ms)", "0.0000"},
               {"tc", "TC", "0"}, {"qd", "QD", "0"}};
  struct Row {
    uint64_t toio;
    uint32_t tc, qd;
    double iops, art_ms;
  };
  std::vector<Row> rows;
  for (size_t si : scope.subtests) {
    const auto& sp = rec.plan.subtests[si];
    const auto* st = record_for(rec, sp);
    if (!st) continue;
    for (const auto& c : sp.cells) {
      if (!c.applicable || !cell_matches(c, spec.filter)) continue;
      const auto* w = find_window_result(*st, c.id);
      const auto iops = w ? window_metric_value(*w, "iops") : std::nullopt;
      const auto art = w ? window_metric_value(*w, "art_ms") : std::nullopt;
      if (!iops || !art) continue;
      rows.push_back({uint64_t{c.spec.threads} * c.spec.queue_depth, c.spec.threads, c.spec.queue_depth, *iops, *art});
    }
  }
  std::sort(rows.begin(), rows.end(),
            [](const Row& a, const Row& b) { return a.toio != b.toio ? a.toio < b.toio : a.tc > b.tc; });
  for (const auto& r : rows)
    t.rows.push_back({TableCell::num(static_cast<double>(r.toio)), TableCell::num(r.iops), TableCell::num(r.art_ms),
                      TableCell::num(r.tc), TableCell::num(r.qd)});
  if (rows.empty()) t.notes.push_back("No TC × QD point has a stored window result yet.");
  return t;
}

/// "LBA group A: first 5 % of the ActiveRange, 50 % of the I/Os" for zone `z` of `zones`.
std::string zone_header(const std::vector<model::AccessZone>& zones, size_t z) {
  double from = 0;
  for (size_t i = 0; i < z; ++i) from += zones[i].range_pct;
  const double to = from + zones[z].range_pct;
  const std::string where = z == 0 ? "first " + pct(zones[z].range_pct) + " %"
                            : z + 1 == zones.size() ? "last " + pct(zones[z].range_pct) + " %"
                                                    : "next " + pct(zones[z].range_pct) + " % (" + pct(from) + "–" +
                                                          pct(to) + " %)";
  return "LBA group " + std::string(1, static_cast<char>('A' + std::min<size_t>(z, 25))) + ": " + where +
         " of the ActiveRange, " + std::to_string(zones[z].io_pct) + " % of the I/Os";
}

/// Rows: the block sizes of the first cell the filter keeps (DIRTH's sweep: the stimulus);
/// columns: its LBA zones (one "whole ActiveRange" column when uniform) and their sum. Each
/// value is the probability an I/O has that size and lands in that zone, in percent: the
/// engine draws the two independently, so it is the size's share × the zone's share.
Table access_mix_table(const TableSpec& spec, const Scope& scope) {
  const model::RunRecord& rec = *scope.record;
  Table t;
  const model::CellPlan* cell = nullptr;
  for (size_t si : scope.subtests)
    for (const auto& c : rec.plan.subtests[si].cells)
      if (!cell && c.applicable && cell_matches(c, spec.filter)) cell = &c;
  t.columns.push_back({"bs", "Block size", "", 2});
  if (!cell) {
    t.notes.push_back("No cell of this test matches the selection.");
    return t;
  }
  const model::AccessSpec& a = cell->spec;
  std::vector<model::BlockSizeShare> sizes = a.bs_split;
  if (sizes.empty()) sizes.push_back({a.block_bytes, 100});
  std::sort(sizes.begin(), sizes.end(), [](const auto& x, const auto& y) { return x.bytes < y.bytes; });
  std::vector<model::AccessZone> zones = a.zones;
  const bool uniform = zones.empty();
  if (uniform) zones.push_back({100, 100});
  for (size_t z = 0; z < zones.size(); ++z)
    t.columns.push_back({"z" + std::to_string(z + 1),
                         uniform ? "Whole ActiveRange (uniform), 100 % of the I/Os" : zone_header(zones, z), "0.00",
                         2});
  t.columns.push_back({"all", "Block size share (all LBA groups)", "0.00", 2});
  std::vector<double> zone_sum(zones.size(), 0.0);
  double all = 0;
  for (const auto& s : sizes) {
    std::vector<TableCell> row{TableCell::str(core::format_block_size(s.bytes))};
    for (size_t z = 0; z < zones.size(); ++z) {
      const double p = static_cast<double>(s.percent) * zones[z].io_pct / 100.0;
      zone_sum[z] += p;
      row.push_back(TableCell::num(p));
    }
    row.push_back(TableCell::num(s.percent));
    all += s.percent;
    t.rows.push_back(std::move(row));
  }
  std::vector<TableCell> total{TableCell::str("All block sizes")};
  for (double v : zone_sum) total.push_back(TableCell::num(v));
  total.push_back(TableCell::num(all));
  t.rows.push_back(std::move(total));
  t.notes.push_back("Probability (% of all I/Os) that an I/O has the row's block size and lands in the column's LBA "
                    "group, as run (R/W " + rw_mix_label(a.read_pct) + ", cell " + cell->id + ").");
  t.notes.push_back("The engine draws the size and the group independently: each value is the size's share × the "
                    "group's share.");
  t.notes.push_back("Within a group the offset is uniform at random, in whole blocks of the I/O's size from the group's "
                    "start.");
  return t;
}

}  // namespace

Table demand_table(const TableSpec& spec, const Scope& scope) {
  switch (spec.kind) {
    case TableKind::Toio: return toio_table(spec, scope);
    case TableKind::AccessMix: return access_mix_table(spec, scope);
    default: return {};
  }
}

}  // namespace pts::report
