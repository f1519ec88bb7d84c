// report/record_view.cpp — see record_view.h.
#include "report/record_view.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

namespace pts::report {

namespace {

constexpr std::array<MetricInfo, 25> kMetrics{{
    {"iops", "IOPS", "#,##0.0", true},
    {"read_iops", "IOPS", "#,##0.0", true},
    {"write_iops", "IOPS", "#,##0.0", true},
    {"mbps", "MB/s", "#,##0.00", true},
    {"read_mbps", "MB/s", "#,##0.00", true},
    {"write_mbps", "MB/s", "#,##0.00", true},
    {"art_ms", "ms", "0.0000", true},
    {"mrt_ms", "ms", "0.0000", true},
    {"p99_ms", "ms", "0.0000", true},
    {"p99_9_ms", "ms", "0.0000", true},
    {"p99_99_ms", "ms", "0.0000", true},
    {"p99_999_ms", "ms", "0.0000", true},
    // Reads and writes apart (QoS figures: a read percentile under a mixed load).
    {"read_p99_ms", "ms", "0.0000", true},
    {"read_p99_9_ms", "ms", "0.0000", true},
    {"read_p99_99_ms", "ms", "0.0000", true},
    {"read_p99_999_ms", "ms", "0.0000", true},
    {"read_mrt_ms", "ms", "0.0000", true},
    {"write_p99_ms", "ms", "0.0000", true},
    {"write_p99_9_ms", "ms", "0.0000", true},
    {"write_p99_99_ms", "ms", "0.0000", true},
    {"write_p99_999_ms", "ms", "0.0000", true},
    {"write_mrt_ms", "ms", "0.0000", true},
    {"cpu_pct", "% of one core", "0.0", true},  // process user + system CPU
    {"system_cpu_pct", "% of all CPUs", "0.0", true},  // the host's, from /proc/stat
    // The reads' mean apart (the quality-of-service tests' read latency beside writes):
    {"read_art_ms", "ms", "0.0000", false},
}};

constexpr double kNsPerMs = 1e6;

/// A percentile or the maximum of `l` by its metric suffix ("p99_9_ms", "mrt_ms"); nullopt for
/// another suffix.
std::optional<double> summary_value(const model::LatencySummary& l, std::string_view suffix) {
  if (suffix == "p99_ms") return static_cast<double>(l.p99_ns) / kNsPerMs;
  if (suffix == "p99_9_ms") return static_cast<double>(l.p99_9_ns) / kNsPerMs;
  if (suffix == "p99_99_ms") return static_cast<double>(l.p99_99_ns) / kNsPerMs;
  if (suffix == "p99_999_ms") return static_cast<double>(l.p99_999_ns) / kNsPerMs;
  if (suffix == "mrt_ms") return static_cast<double>(l.max_ns) / kNsPerMs;
  return std::nullopt;
}

/// read_* / write_* latency figures of a summary pair; nullopt for any other metric, or when the
/// cell had no I/O of that direction.
std::optional<double> direction_value(const model::LatencySummary& reads, const model::LatencySummary& writes,
                                      std::string_view metric) {
  for (const auto& [prefix, l] : {std::pair<std::string_view, const model::LatencySummary*>{"read_", &reads},
                                  std::pair<std::string_view, const model::LatencySummary*>{"write_", &writes}})
    if (metric.substr(0, prefix.size()) == prefix && metric.size() > prefix.size() + 3 &&
        metric.substr(metric.size() - 3) == "_ms")
      return l->samples == 0 ? std::nullopt : summary_value(*l, metric.substr(prefix.size()));
  return std::nullopt;
}

}  // namespace

const MetricInfo* find_metric(std::string_view name) {
  for (const auto& m : kMetrics)
    if (m.name == name) return &m;
  return nullptr;
}

std::string metric_names(bool window_only) {
  std::string out;
  for (const auto& m : kMetrics) {
    if (window_only && !m.in_window_results) continue;
    if (!out.empty()) out += ", ";
    out += m.name;
  }
  return out;
}

double metric_value(const model::CellResult& c, std::string_view metric) {
  if (metric == "iops") return c.iops;
  if (metric == "read_iops") return c.read_iops;
  if (metric == "write_iops") return c.write_iops;
  if (metric == "mbps") return c.mbps;
  if (metric == "read_mbps") return c.read_mbps;
  if (metric == "write_mbps") return c.write_mbps;
  if (metric == "art_ms") return c.latency.mean_ns / kNsPerMs;
  if (metric == "mrt_ms") return static_cast<double>(c.latency.max_ns) / kNsPerMs;
  if (metric == "p99_ms") return static_cast<double>(c.latency.p99_ns) / kNsPerMs;
  if (metric == "p99_9_ms") return static_cast<double>(c.latency.p99_9_ns) / kNsPerMs;
  if (auto v = direction_value(c.read_latency, c.write_latency, metric)) return *v;
  if (metric == "p99_99_ms") return static_cast<double>(c.latency.p99_99_ns) / kNsPerMs;
  if (metric == "p99_999_ms") return static_cast<double>(c.latency.p99_999_ns) / kNsPerMs;
  if (metric == "cpu_pct") return c.cpu_usr_pct + c.cpu_sys_pct;
  if (metric == "system_cpu_pct") return c.system_cpu_pct.value_or(0);
  if (metric == "read_art_ms") return c.read_latency.mean_ns / kNsPerMs;
  return 0;
}

TrackingUnit tracking_unit(model::Metric metric) {
  switch (metric) {
    case model::Metric::Iops: return {"IOPS", 1.0, "#,##0.0", "#,##0.0##", 3};
    case model::Metric::Mbps: return {"MB/s", 1.0, "#,##0.00", "#,##0.00##", 4};
    case model::Metric::MeanLatencyNs: return {"ART (ms)", 1.0 / kNsPerMs, "0.0000", "0.0000##", 6};
    case model::Metric::MaxLatencyNs: return {"MRT (ms)", 1.0 / kNsPerMs, "0.0000", "0.0000##", 6};
  }
  return {"value", 1.0, "General", "General", 6};
}

ReportedRounds reported_rounds(const model::TestPlan& plan, const model::SubTestRecord& st) {
  if (st.window_first_round > 0 && st.window_last_round >= st.window_first_round)
    return {st.window_first_round, st.window_last_round, true};
  if (st.rounds.empty()) return {};
  const uint32_t last = st.rounds.back().round;
  const uint32_t n = std::max<uint32_t>(1, plan.window_rounds);
  return {last >= n ? last - n + 1 : 1, last, false};
}

const model::SteadyStateVerdict* shown_verdict(const model::SubTestRecord& st) {
  if (st.final_verdict) return &*st.final_verdict;
  for (auto it = st.rounds.rbegin(); it != st.rounds.rend(); ++it)
    if (it->verdict) return &*it->verdict;
  return nullptr;
}

const model::CellResult* find_cell(const model::RoundRecord& round, std::string_view cell_id) {
  for (const auto& c : round.cells)
    if (c.cell_id == cell_id) return &c;
  return nullptr;
}

const model::RoundRecord* find_round(const model::SubTestRecord& st, uint32_t round) {
  for (const auto& r : st.rounds)
    if (r.round == round) return &r;
  return nullptr;
}

const model::CellWindowResult* find_window_result(const model::SubTestRecord& st, std::string_view cell_id) {
  for (const auto& w : st.window_results)
    if (w.cell_id == cell_id) return &w;
  return nullptr;
}

std::optional<double> window_metric_value(const model::CellWindowResult& w, std::string_view metric) {
  if (w.rounds == 0) return std::nullopt;
  if (metric == "iops") return w.iops;
  if (metric == "read_iops") return w.read_iops;
  if (metric == "write_iops") return w.write_iops;
  if (metric == "mbps") return w.mbps;
  if (metric == "read_mbps") return w.read_mbps;
  if (metric == "write_mbps") return w.write_mbps;
  if (metric == "art_ms") return w.mean_latency_ns / kNsPerMs;
  if (metric == "mrt_ms") return static_cast<double>(w.max_latency_ns) / kNsPerMs;
  // Percentiles: those pts took from the window's merged histograms (never an average of the
  // Rounds' percentiles); a record from before schema 3 has only the 5 nines (as stored).
  if (metric == "p99_ms" && w.percentiles_pooled) return static_cast<double>(w.latency.p99_ns) / kNsPerMs;
  if (metric == "p99_9_ms" && w.percentiles_pooled) return static_cast<double>(w.latency.p99_9_ns) / kNsPerMs;
  if (w.percentiles_pooled)
    if (auto v = direction_value(w.read_latency, w.write_latency, metric)) return *v;
  if (metric == "p99_99_ms" && w.percentiles_pooled) return static_cast<double>(w.latency.p99_99_ns) / kNsPerMs;
  if (metric == "p99_999_ms")
    return (w.percentiles_pooled ? static_cast<double>(w.latency.p99_999_ns) : w.p99_999_latency_ns) / kNsPerMs;
  if (metric == "cpu_pct") return w.cpu_pct;
  if (metric == "system_cpu_pct") return w.system_cpu_pct;
  return std::nullopt;
}

std::string rw_mix_label(uint32_t read_pct) {
  return std::to_string(read_pct) + "/" + std::to_string(100 - std::min<uint32_t>(read_pct, 100));
}

double block_size_kib(uint32_t bytes) { return static_cast<double>(bytes) / 1024.0; }

std::string edition_label(const std::string& edition) {
  if (edition == "pts-e-1.1") return "PTS-E 1.1";
  if (edition == "pts-2.0.2") return "PTS 2.0.2";
  return edition.empty() ? "(edition not recorded)" : edition;
}

std::string purge_method_label(model::PurgeMethod method) {
  switch (method) {
    case model::PurgeMethod::SanitizeCrypto: return "NVMe Sanitize, crypto erase";
    case model::PurgeMethod::SanitizeBlock: return "NVMe Sanitize, block erase";
    case model::PurgeMethod::FormatCrypto: return "NVMe Format NVM, cryptographic erase";
    case model::PurgeMethod::FormatUser: return "NVMe Format NVM, user data erase";
    case model::PurgeMethod::Discard: return "discard (BLKDISCARD) — not a SNIA purge";
    case model::PurgeMethod::Recreate: return "file re-created — not a SNIA purge";
    case model::PurgeMethod::None: return "none — not a SNIA purge";
  }
  return "unknown";
}

std::string write_cache_label(model::WriteCacheState state) {
  switch (state) {
    case model::WriteCacheState::NotPresent: return "no volatile write cache";
    case model::WriteCacheState::Enabled: return "enabled (WCE)";
    case model::WriteCacheState::Disabled: return "disabled (WCD)";
    case model::WriteCacheState::Unknown: return "unknown";
  }
  return "unknown";
}

std::string run_state_label(model::RunState state) {
  switch (state) {
    case model::RunState::Running: return "not finished (record written mid-run)";
    case model::RunState::Complete: return "complete";
    case model::RunState::Interrupted: return "interrupted";
    case model::RunState::Failed: return "failed";
  }
  return "unknown";
}

std::string exact_number(double v) {
  if (!std::isfinite(v)) return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

std::string trimmed_number(double v, int decimals) {
  char buf[400];
  auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);
  std::string s(buf, res.ptr);
  if (s.find('.') != std::string::npos) {
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

std::string rounds_label(uint32_t first, uint32_t last) {
  if (first == last) return "Round " + std::to_string(first);
  return "Rounds " + std::to_string(first) + "\u2013" + std::to_string(last);
}

}  // namespace pts::report

namespace pts::report {

const model::SubTestRecord* record_for(const model::RunRecord& record, const model::SubTestPlan& plan_subtest) {
  for (const auto& st : record.subtests)
    if (st.id == plan_subtest.id) return &st;
  return nullptr;
}

}  // namespace pts::report
