// report/raw_table.cpp — the Raw selection: every Round's every cell with every measured
// field, in stored units (ns, MB/s = 10^6 B/s). The xlsx Raw sheet and the CSV file share it.
#include <functional>

#include "core/units.h"
#include "report/record_view.h"
#include "report/tables.h"

namespace pts::report {

namespace {

struct RawRow {
  const model::SubTestPlan* subtest;
  const model::RoundRecord* round;
  const model::CellResult* cell;
  bool in_window;
};

struct RawColumn {
  const char* key;
  const char* header;
  const char* format;
  std::function<TableCell(const RawRow&)> get;
};

TableCell n(double v) { return TableCell::num(v); }
TableCell u(uint64_t v) { return TableCell::num(static_cast<double>(v)); }

const std::vector<RawColumn>& raw_columns() {
  static const std::vector<RawColumn> cols = {
      {"subtest", "Sub-test", "", [](const RawRow& r) { return TableCell::str(r.subtest->id); }},
      {"round", "Round", "0", [](const RawRow& r) { return u(r.round->round); }},
      {"cell_id", "Cell", "", [](const RawRow& r) { return TableCell::str(r.cell->cell_id); }},
      {"in_window", "In Measurement Window", "",
       [](const RawRow& r) { return TableCell::str(r.in_window ? "yes" : "no"); }},
      {"round_verdict", "Round verdict", "",
       [](const RawRow& r) {
         if (!r.round->verdict) return TableCell::str("");
         return TableCell::str(r.round->verdict->steady ? "steady" : "not steady");
       }},
      {"rw", "Access", "", [](const RawRow& r) { return TableCell::str(model::rw_name(r.cell->spec)); }},
      {"read_pct", "Read %", "0", [](const RawRow& r) { return u(r.cell->spec.read_pct); }},
      {"block_bytes", "Block size (B)", "0",
       [](const RawRow& r) { return u(model::max_block_bytes(r.cell->spec)); }},
      {"block_size", "Block size", "",
       [](const RawRow& r) { return TableCell::str(core::format_block_size(model::max_block_bytes(r.cell->spec))); }},
      {"threads", "TC", "0", [](const RawRow& r) { return u(r.cell->spec.threads); }},
      {"queue_depth", "QD", "0", [](const RawRow& r) { return u(r.cell->spec.queue_depth); }},
      {"seconds", "Seconds", "0.000", [](const RawRow& r) { return n(r.cell->seconds); }},
      {"read_ios", "Read I/Os", "0", [](const RawRow& r) { return u(r.cell->read_ios); }},
      {"write_ios", "Write I/Os", "0", [](const RawRow& r) { return u(r.cell->write_ios); }},
      {"read_bytes", "Read bytes", "0", [](const RawRow& r) { return u(r.cell->read_bytes); }},
      {"write_bytes", "Write bytes", "0", [](const RawRow& r) { return u(r.cell->write_bytes); }},
      {"iops", "IOPS", "#,##0.0", [](const RawRow& r) { return n(r.cell->iops); }},
      {"read_iops", "Read IOPS", "#,##0.0", [](const RawRow& r) { return n(r.cell->read_iops); }},
      {"write_iops", "Write IOPS", "#,##0.0", [](const RawRow& r) { return n(r.cell->write_iops); }},
      {"mbps", "MB/s", "#,##0.00", [](const RawRow& r) { return n(r.cell->mbps); }},
      {"read_mbps", "Read MB/s", "#,##0.00", [](const RawRow& r) { return n(r.cell->read_mbps); }},
      {"write_mbps", "Write MB/s", "#,##0.00", [](const RawRow& r) { return n(r.cell->write_mbps); }},
      {"mean_latency_ns", "ART (ns)", "#,##0", [](const RawRow& r) { return n(r.cell->latency.mean_ns); }},
      {"min_latency_ns", "Min RT (ns)", "#,##0", [](const RawRow& r) { return u(r.cell->latency.min_ns); }},
      {"max_latency_ns", "MRT (ns)", "#,##0", [](const RawRow& r) { return u(r.cell->latency.max_ns); }},
      {"p50_ns", "p50 (ns)", "#,##0", [](const RawRow& r) { return u(r.cell->latency.p50_ns); }},
      {"p99_ns", "p99 (ns)", "#,##0", [](const RawRow& r) { return u(r.cell->latency.p99_ns); }},
      {"p99_9_ns", "p99.9 (ns)", "#,##0", [](const RawRow& r) { return u(r.cell->latency.p99_9_ns); }},
      {"p99_99_ns", "p99.99 (ns)", "#,##0", [](const RawRow& r) { return u(r.cell->latency.p99_99_ns); }},
      {"p99_999_ns", "p99.999 (ns)", "#,##0", [](const RawRow& r) { return u(r.cell->latency.p99_999_ns); }},
      {"read_mean_latency_ns", "Read ART (ns)", "#,##0",
       [](const RawRow& r) { return n(r.cell->read_latency.mean_ns); }},
      {"write_mean_latency_ns", "Write ART (ns)", "#,##0",
       [](const RawRow& r) { return n(r.cell->write_latency.mean_ns); }},
      {"cpu_usr_pct", "CPU usr %", "0.0", [](const RawRow& r) { return n(r.cell->cpu_usr_pct); }},
      {"cpu_sys_pct", "CPU sys %", "0.0", [](const RawRow& r) { return n(r.cell->cpu_sys_pct); }},
      // The whole host's, from /proc/stat (n/a: a cell shorter than one kernel tick, an older record).
      {"system_cpu_pct", "System CPU % (all CPUs)", "0.0",
       [](const RawRow& r) { return r.cell->system_cpu_pct ? n(*r.cell->system_cpu_pct) : TableCell::str("n/a"); }},
      {"littles_law_oio", "IOPS × ART (OIO)", "0.00", [](const RawRow& r) { return n(r.cell->littles_law_oio); }},
      // The kernel's block counters beside the engine's (n/a: a file or simulated drive has none).
      {"kernel_ios", "Kernel I/Os", "0",
       [](const RawRow& r) { return r.cell->kernel ? u(r.cell->kernel->host_ios) : TableCell::str("n/a"); }},
      {"kernel_avg_in_flight", "Kernel avg in flight", "0.00",
       [](const RawRow& r) { return r.cell->kernel ? n(r.cell->kernel->avg_in_flight) : TableCell::str("n/a"); }},
      {"kernel_mean_device_time_ns", "Kernel mean device time (ns)", "#,##0",
       [](const RawRow& r) { return r.cell->kernel ? n(r.cell->kernel->mean_device_time_ns) : TableCell::str("n/a"); }},
      {"fidelity_flags", "Fidelity flags", "",
       [](const RawRow& r) {
         std::string flags;
         for (const auto& f : r.cell->fidelity_flags) flags += (flags.empty() ? "" : ",") + f;
         if (!r.cell->fidelity_not_judged.empty()) {  // a short cell: say which checks it skipped
           flags += flags.empty() ? "not judged (short cell):" : "; not judged (short cell):";
           for (size_t i = 0; i < r.cell->fidelity_not_judged.size(); ++i)
             flags += (i ? "," : "") + r.cell->fidelity_not_judged[i];
         }
         return TableCell::str(flags);
       }},
      {"io_errors", "I/O errors", "0", [](const RawRow& r) { return u(r.cell->io_errors); }},
      {"error", "First error", "", [](const RawRow& r) { return TableCell::str(r.cell->error); }},
  };
  return cols;
}

}  // namespace

Table raw_table(const model::RunRecord& record, const std::vector<size_t>& subtests) {
  Table t;
  for (const auto& c : raw_columns()) t.columns.push_back({c.key, c.header, c.format});
  for (size_t si : subtests) {
    const auto& pst = record.plan.subtests[si];
    const auto* st = record_for(record, pst);
    if (!st) continue;
    const ReportedRounds rr = reported_rounds(record.plan, *st);
    for (const auto& round : st->rounds) {
      const bool in_window = !rr.empty() && round.round >= rr.first && round.round <= rr.last;
      for (const auto& cell : round.cells) {
        RawRow row{&pst, &round, &cell, in_window};
        std::vector<TableCell> out;
        out.reserve(raw_columns().size());
        for (const auto& c : raw_columns()) out.push_back(c.get(row));
        t.rows.push_back(std::move(out));
      }
    }
  }
  return t;
}

}  // namespace pts::report
