// unit-tests/report/phase_fixtures.cpp — fixed RunRecords of the tests with phases of their own (WSAT, HIR,
// XSR, DIRTH, ECW) for the report's golden and PDF tests: closed-form samples, the findings a
// procedure would store (computed here by the fixture's own loops, not by pts/), and one
// response-time histogram per DIRTH point. Declared in fixture_record.h.
#include <algorithm>
#include <cmath>

#include "report/fixture_parts.h"
#include "report/fixture_record.h"

namespace pts::report::fixture {

namespace {

using namespace parts;
using model::AccessPattern;
using model::Finding;

Finding fnd(std::string key, std::string label, std::optional<double> v, std::string unit, std::string detail = "") {
  return {std::move(key), std::move(label), v, std::move(unit), std::move(detail)};
}

/// A `seconds`-long result (make_result's are 5 s): counts and bytes follow the rates.
model::CellResult result_for(const model::CellPlan& c, uint64_t started, double seconds, double iops, double mean_ns) {
  model::CellResult r = make_result(c, started, iops, mean_ns, mean_ns * 30, mean_ns * 12);
  r.seconds = seconds;
  r.read_ios = static_cast<uint64_t>(std::llround(r.read_iops * seconds));
  r.write_ios = static_cast<uint64_t>(std::llround(r.write_iops * seconds));
  r.read_bytes = r.read_ios * c.spec.block_bytes;
  r.write_bytes = r.write_ios * c.spec.block_bytes;
  r.latency.samples = r.read_ios + r.write_ios;
  return r;
}

/// A sub-test whose Rounds hold one cell each (WSAT and XSR samples, HIR Access A/C).
model::SubTestRecord one_cell_rounds(const model::SubTestPlan& sp, const std::vector<model::CellResult>& cells) {
  model::SubTestRecord st;
  st.id = sp.id;
  uint32_t r = 0;
  for (const auto& c : cells) {
    model::RoundRecord round;
    round.round = ++r;
    round.started_wall_ns = c.started_wall_ns;
    round.ended_wall_ns = c.started_wall_ns + static_cast<uint64_t>(c.seconds * 1e9);
    round.cells.push_back(c);
    st.rounds.push_back(std::move(round));
  }
  st.complete = true;
  return st;
}

void scaled(model::RunRecord& rec, double scale) {
  rec.plan.time_scale = scale;
  rec.deviations.push_back({"time-scale", "Every phase length x " + std::to_string(scale).substr(0, 6) +
                                              " of the specification's (--time-scale): a scaled trial run."});
}

}  // namespace

model::RunRecord wsat_fixture() {
  model::RunRecord rec = base_record("wsat", "Write Saturation", "pts-e-1.1");
  auto& p = rec.plan;
  p.procedure = "wsat";
  p.cell_seconds = 60;
  p.threads = 4;
  p.queue_depth = 32;
  rec.deviations.erase(rec.deviations.begin());  // samples ran their spec length
  scaled(rec, 2400.0 / 86400.0);
  p.interpretations = {"WSAT cliff: the first sample below 50 % of the FOB plateau (the mean of the first 5 "
                       "samples) ([wsat] cliff_fraction, fob_samples)",
                       "WSAT steady plateau: the mean of the last 10 samples ([wsat] plateau_samples)"};
  model::WsatPlan w;
  w.workload = "write-intensive";
  w.workload_title = "RND 4 KiB W";
  w.max_seconds = 2400;
  w.stop_bytes = 4 * rec.device.capacity_bytes;
  w.plateau_samples = 10;
  p.procedure_plan = w;
  model::SubTestPlan sp;
  sp.id = "write-intensive";
  sp.title = "RND 4 KiB W";
  sp.role = model::SubTestRole::WsatSamples;
  sp.purge = true;
  sp.cells.push_back(make_cell(AccessPattern::Random, 0, 4096, 4, 32));
  sp.cells.back().id = "wsat";
  p.subtests.push_back(sp);
  std::vector<model::CellResult> cells;
  uint64_t clock = kStart;
  for (int k = 0; k < 40; ++k) {  // FOB 400k IOPS, cliff from sample 9, steady near 90k
    const double fob = 400000, steady = 90000;
    double iops = k < 8 ? fob * (1 - 0.002 * k) : steady + (fob - steady) * std::exp(-(k - 7) * 0.9);
    iops *= 1 + 0.01 * ((k * 7) % 5 - 2);
    cells.push_back(result_for(sp.cells[0], clock, 60, iops, 128.0 / iops * 1e9));
    cells.back().cell_id = "wsat";
    clock += 60 * kNsPerS;
  }
  model::SubTestRecord st = one_cell_rounds(sp, cells);
  double fob = 0, plateau = 0, bytes = 0;
  for (int k = 0; k < 5; ++k) fob += cells[k].iops / 5;
  for (int k = 30; k < 40; ++k) plateau += cells[k].iops / 10;
  int cliff = 0;
  while (cells[cliff].iops >= 0.5 * fob) ++cliff;
  for (const auto& c : cells) bytes += static_cast<double>(c.write_bytes);
  st.findings = {fnd("samples", "Samples run", 40, "samples"),
                 fnd("stop", "Stopped because", bytes / rec.device.capacity_bytes, "drive fills",
                     "the time limit (40 min, scaled) came first"),
                 fnd("tgbw_gib", "Total GiB written (TGBW)", bytes / 1073741824.0, "GiB"),
                 fnd("fob_plateau_iops", "FOB plateau", fob, "IOPS", "mean IOPS of samples 1-5"),
                 fnd("cliff_sample", "Write cliff", cliff + 1, "sample", "first sample below 50 % of the FOB plateau"),
                 fnd("steady_plateau_iops", "Steady plateau", plateau, "IOPS", "mean IOPS of samples 31-40"),
                 fnd("fob_to_steady_ratio", "FOB plateau ÷ steady plateau", fob / plateau, "ratio")};
  rec.subtests.push_back(std::move(st));
  rec.ended_wall_ns = clock;
  return rec;
}

model::RunRecord hir_fixture() {
  model::RunRecord rec = base_record("hir", "Host Idle Recovery", "pts-e-1.1");
  auto& p = rec.plan;
  p.procedure = "hir";
  p.threads = 4;
  p.queue_depth = 32;
  p.window_rounds = 5;
  p.data_excursion_limit = 0.2;
  p.slope_excursion_limit = 0.1;
  scaled(rec, 30.0 / 1800.0);
  p.interpretations = {"HIR baseline: the preconditioning's steady-state window average ([hir] baseline)"};
  model::HirPlan h;
  h.repetitions = 6;
  h.access_c_sample_seconds = 30;  // one Access C sample of 30 s (the shipped plan: 360 × 5 s)
  h.access_c_samples = 1;
  h.wait_seconds = {5, 10};
  h.spec_wait_seconds = {5, 10};
  p.procedure_plan = h;
  model::SubTestPlan pre;
  pre.id = "precondition";
  pre.title = "Preconditioning (RND 4 KiB W to steady state)";
  pre.cells.push_back(make_cell(AccessPattern::Random, 0, 4096, 4, 32));
  pre.cells.back().id = "precondition";
  pre.tracking.push_back({"precondition", model::Metric::Iops, "RND 4 KiB W IOPS"});
  p.subtests.push_back(pre);
  uint64_t clock = kStart;
  fill_subtest(rec, 0, 6, [](const model::CellPlan&, size_t, uint32_t r, double& iops, double& mean) {
    iops = 90000 + 300.0 * ((r * 3) % 4);
    mean = 128.0 / iops * 1e9;
  }, true, clock);
  const double base = rec.subtests[0].final_verdict->variables[0].window.average;
  for (uint32_t w = 0; w < 2; ++w) {
    model::SubTestPlan sp;
    sp.id = "wait" + std::to_string(static_cast<int>(h.wait_seconds[w])) + "s";
    sp.title = "Wait state " + std::to_string(w + 1) + ": " + std::to_string(static_cast<int>(h.wait_seconds[w])) +
               " s idle";
    sp.role = model::SubTestRole::HirWaitState;
    sp.role_index = w;
    sp.cells.push_back(make_cell(AccessPattern::Random, 0, 4096, 4, 32));
    sp.cells.back().id = "access-a";
    sp.cells.push_back(make_cell(AccessPattern::Random, 0, 4096, 4, 32));
    sp.cells.back().id = "access-c";
    p.subtests.push_back(sp);
    std::vector<model::CellResult> cells;
    double a_mean = 0;
    for (uint32_t k = 0; k < h.repetitions; ++k) {  // idle buys more the longer it is
      const double iops = base * (1.4 + 0.3 * w - 0.02 * k);
      a_mean += iops / h.repetitions;
      cells.push_back(result_for(sp.cells[0], clock, 5, iops, 128.0 / iops * 1e9));
      cells.back().cell_id = "access-a";
      clock += static_cast<uint64_t>((5 + h.wait_seconds[w]) * 1e9);
    }
    cells.push_back(result_for(sp.cells[1], clock, 30, base * 1.01, 128.0 / base * 1e9));
    cells.back().cell_id = "access-c";
    clock += 30 * kNsPerS;
    model::SubTestRecord st = one_cell_rounds(sp, cells);
    for (uint32_t k = 0; k < h.repetitions; ++k) {
      model::IdleRecord idle;
      idle.requested_ns = static_cast<uint64_t>(h.wait_seconds[w] * 1e9);
      idle.measured_ns = idle.requested_ns + 120000;
      idle.started_wall_ns = st.rounds[k].ended_wall_ns;
      idle.ended_wall_ns = idle.started_wall_ns + idle.measured_ns;
      idle.completed = true;
      idle.engine_ios_before = idle.engine_ios_after = 1000000 + k;
      st.rounds[k].idle_after = idle;
    }
    st.findings = {fnd("wait_seconds", "Host idle per repetition (Access B)", h.wait_seconds[w], "s"),
                   fnd("baseline_iops", "Baseline", base, "IOPS", "the preconditioning's window average"),
                   fnd("access_a_iops", "Mean IOPS of the writes after idle (Access A)", a_mean, "IOPS"),
                   fnd("recovery_ratio", "Recovery (Access A ÷ baseline)", a_mean / base, "ratio"),
                   fnd("access_c_iops", "Access C (back to baseline), mean", cells.back().iops, "IOPS"),
                   fnd("access_c_last_iops", "Access C, last sample", cells.back().iops, "IOPS"),
                   fnd("access_c_ratio", "Access C ÷ baseline", cells.back().iops / base, "ratio"),
                   fnd("idle_periods_idle", "Idle periods with no I/O", h.repetitions, "periods")};
    rec.subtests.push_back(std::move(st));
  }
  rec.ended_wall_ns = clock;
  return rec;
}

model::RunRecord xsr_fixture() {
  model::RunRecord rec = base_record("xsr", "Cross Stimulus Recovery", "pts-e-1.1");
  auto& p = rec.plan;
  p.procedure = "xsr";
  p.cell_seconds = 60;
  p.threads = 1;
  p.queue_depth = 32;
  rec.deviations.erase(rec.deviations.begin());
  scaled(rec, 10.0 / 480.0);
  p.interpretations = {"XSR recovery: group 3's first sample reaching group 1's mean throughput ([xsr] "
                       "recovery_reference)"};
  model::SubTestPlan sp;
  sp.id = "main";
  sp.title = "SEQ 1024 KiB W → RND 8 KiB W → SEQ 1024 KiB W";
  sp.role = model::SubTestRole::XsrGroups;
  const char* ids[3] = {"ag1", "ag2", "ag3"};
  for (int g = 0; g < 3; ++g) {
    sp.cells.push_back(g == 1 ? make_cell(AccessPattern::Random, 0, 8192, 1, 32)
                              : make_cell(AccessPattern::Sequential, 0, 1048576, 1, 32));
    sp.cells.back().id = ids[g];
  }
  p.procedure_plan = model::XsrPlan{{{"ag1", 600, 28800}, {"ag2", 600, 21600}, {"ag3", 600, 28800}}, "group1-mean"};
  p.subtests.push_back(sp);
  std::vector<model::CellResult> cells;
  uint64_t clock = kStart;
  double mbps[3] = {0, 0, 0}, art[3] = {0, 0, 0};
  for (int g = 0; g < 3; ++g)
    for (int k = 0; k < 10; ++k) {
      const double m = g == 0 ? 2000 + 10 * (k % 3) : g == 1 ? 350 - 5 * k : 2050 - 900 * std::exp(-0.6 * k);
      const double iops = m * 1e6 / sp.cells[g].spec.block_bytes;
      cells.push_back(result_for(sp.cells[g], clock, 60, iops, 32.0 / iops * 1e9));
      cells.back().cell_id = ids[g];
      mbps[g] += cells.back().mbps / 10;
      art[g] += cells.back().latency.mean_ns / 10;
      clock += 60 * kNsPerS;
    }
  model::SubTestRecord st = one_cell_rounds(sp, cells);
  int rec_k = 0;
  while (rec_k < 9 && cells[20 + rec_k].mbps < mbps[0]) ++rec_k;
  for (int g = 0; g < 3; ++g) {
    const std::string k = "ag" + std::to_string(g + 1), n = "Access Group " + std::to_string(g + 1);
    st.findings.push_back(fnd(k + "_last_mbps", n + ": throughput at its end", cells[10 * g + 9].mbps, "MB/s"));
    st.findings.push_back(fnd(k + "_peak_art_ms", n + ": ART, peak", art[g] / 1e6, "ms"));
    st.findings.push_back(fnd(k + "_samples", n + ": samples", 10, "samples"));
  }
  st.findings.push_back(fnd("recovery_reference_mbps", "Recovery reference: Access Group 1 mean throughput", mbps[0],
                            "MB/s"));
  st.findings.push_back(fnd("recovery_minutes", "Recovery time of Access Group 3", rec_k + 1, "min",
                            "recovered: the first group 3 sample to reach group 1's mean; rule: ..."));
  st.findings.push_back(fnd("recovery_sample", "First recovered sample of Access Group 3", rec_k + 1, "sample"));
  rec.subtests.push_back(std::move(st));
  rec.ended_wall_ns = clock;
  return rec;
}

model::RunRecord dirth_fixture(bool ecw) {
  const std::string id = ecw ? "ecw" : "dirth";
  model::RunRecord rec =
      base_record(id, ecw ? "Enterprise Composite Workload" : "Demand Intensity / Response Time Histogram", "pts-e-1.1");
  auto& p = rec.plan;
  p.procedure = "dirth";
  p.threads = 4;
  p.queue_depth = 8;
  p.window_rounds = 5;
  p.data_excursion_limit = 0.2;
  p.slope_excursion_limit = 0.1;
  p.interpretations = {"DIRTH MaxIOPS: the highest window-mean IOPS whose window-mean ART is at most 1 ms "
                       "([dirth] art_ceiling_ms); MinIOPS: TC 1 / QD 1; MidIOPS: closest to the midpoint"};
  model::DirthPlan d;
  d.thread_counts = {4, 2, 1};
  d.queue_depths = {8, 4, 1};
  d.art_ceiling_ns = 1e6;
  p.procedure_plan = d;
  const uint32_t rd = ecw ? 40 : 65;
  auto stim = [&](uint32_t tc, uint32_t qd) {
    model::CellPlan c = make_cell(AccessPattern::Random, rd, ecw ? 4096 : 8192, tc, qd);
    if (ecw) {
      c.spec.bs_split = {{512, 4}, {4096, 67}, {8192, 10}, {16384, 7}, {32768, 3}, {65536, 3}, {1024, 6}};
      c.spec.zones = {{50, 5}, {30, 15}, {20, 80}};
    }
    c.id = "tc" + std::to_string(tc) + "-qd" + std::to_string(qd);
    c.label = "TC " + std::to_string(tc) + " / QD " + std::to_string(qd);
    return c;
  };
  model::SubTestPlan pre;
  pre.id = "precondition";
  pre.title = "Preconditioning at TC 4 / QD 8";
  pre.cells.push_back(make_cell(AccessPattern::Random, 0, 8192, 4, 8));
  pre.cells.back().id = "precondition";
  pre.tracking.push_back({"precondition", model::Metric::Iops, "RND 8 KiB W IOPS"});
  p.subtests.push_back(pre);
  model::SubTestPlan sweep;
  sweep.id = "sweep";
  sweep.title = "TC × QD sweep";
  sweep.role = model::SubTestRole::DirthSweep;
  sweep.cells.push_back(make_cell(AccessPattern::Random, 0, 8192, 4, 8));
  sweep.cells.back().id = "prewrite";
  for (uint32_t tc : d.thread_counts)
    for (uint32_t qd : d.queue_depths) sweep.cells.push_back(stim(tc, qd));
  sweep.tracking.push_back({"tc4-qd8", model::Metric::Iops, "TC 4 / QD 8 IOPS"});
  p.subtests.push_back(sweep);
  const char* names[3] = {"MaxIOPS", "MidIOPS", "MinIOPS"};
  const char* hid[3] = {"max", "mid", "min"};
  for (uint32_t k = 0; k < 3; ++k) {
    model::SubTestPlan hs;
    hs.id = hid[k];
    hs.title = std::string(names[k]) + " histogram";
    hs.role = model::SubTestRole::DirthHistogram;
    hs.role_index = k;
    hs.cells.push_back(make_cell(AccessPattern::Random, 0, 8192, 4, 8));
    hs.cells.back().id = "prewrite";
    hs.cells.push_back(stim(4, 8));
    hs.cells.back().id = "capture";
    p.subtests.push_back(hs);
  }
  uint64_t clock = kStart;
  // IOPS saturates with total OIO; ART = OIO / IOPS (Little's law), so high demand crosses 1 ms.
  auto surface = [](const model::CellPlan& c, size_t, uint32_t r, double& iops, double& mean) {
    const double oio = static_cast<double>(c.spec.threads) * c.spec.queue_depth;
    iops = 40000 * oio / (oio + 3) * (1 + 0.004 * ((r * 5 + c.spec.threads) % 3)) - (oio > 30 ? 6000 : 0);
    mean = oio / iops * 1e9;
  };
  fill_subtest(rec, 0, 5, surface, true, clock);
  fill_subtest(rec, 1, 5, surface, true, clock);
  // The selection as pts would store it, by the fixture's own loop over the window results.
  const auto& sw = rec.subtests[1];
  struct Pt { uint32_t tc, qd; double iops, art; };
  std::vector<Pt> pts;
  for (const auto& w : sw.window_results)
    if (w.cell_id.rfind("tc", 0) == 0)
      for (const auto& c : sweep.cells)
        if (c.id == w.cell_id) pts.push_back({c.spec.threads, c.spec.queue_depth, w.iops, w.mean_latency_ns});
  const Pt* mx = nullptr;
  const Pt* mn = nullptr;
  for (const auto& q : pts) {
    if (q.art <= d.art_ceiling_ns && (!mx || q.iops > mx->iops)) mx = &q;
    if (q.tc == 1 && q.qd == 1) mn = &q;
  }
  const Pt* mid = nullptr;
  for (const auto& q : pts)
    if (q.art <= d.art_ceiling_ns &&
        (!mid || std::fabs(q.iops - (mx->iops + mn->iops) / 2) < std::fabs(mid->iops - (mx->iops + mn->iops) / 2)))
      mid = &q;
  const Pt* chosen[3] = {mx, mid, mn};
  rec.subtests[1].findings.push_back(fnd("art_ceiling_ms", "ART ceiling", d.art_ceiling_ns / 1e6, "ms"));
  for (int k = 0; k < 3; ++k) {
    const std::string key = hid[k];
    rec.subtests[1].findings.push_back(fnd(key + "_iops", names[k], chosen[k]->iops, "IOPS"));
    rec.subtests[1].findings.push_back(fnd(key + "_tc", std::string(names[k]) + " TC", chosen[k]->tc, "threads"));
    rec.subtests[1].findings.push_back(fnd(key + "_qd", std::string(names[k]) + " QD", chosen[k]->qd, "per thread"));
    rec.subtests[1].findings.push_back(fnd(key + "_art_ms", std::string(names[k]) + " ART", chosen[k]->art / 1e6, "ms"));
  }
  for (int k = 0; k < 3; ++k) {  // one Round: pre-write and the capture with its histogram
    const auto& hs = p.subtests[2 + k];
    model::CellPlan cap = stim(chosen[k]->tc, chosen[k]->qd);
    cap.id = "capture";
    const double mean = chosen[k]->art;
    std::vector<model::CellResult> cells{result_for(hs.cells[0], clock, 60, 30000, 200000),
                                         result_for(cap, clock + 60 * kNsPerS, 60, chosen[k]->iops, mean)};
    cells[0].cell_id = "prewrite";
    cells[1].cell_id = "capture";
    auto& h = cells[1].write_histogram;  // log-linear buckets (model/cell.h), S = 2^7
    h.sub_bucket_bits = 7;
    h.max_bit = 40;
    for (uint32_t i = 2 * 128; i < 24 * 128; i += 16) {
      const uint32_t shift = i / 128 - 1;
      const double low = std::ldexp(128.0 + i % 128, static_cast<int>(shift));
      const double z = std::log(low / mean);
      const double n = 2e6 * std::exp(-z * z * 1.2) + (low > mean * 4 && low < mean * 40 ? 40 : 0);
      if (n >= 1) h.buckets.push_back({i, static_cast<uint64_t>(n)});
    }
    for (const auto& b : h.buckets) h.samples += b.count;
    clock += 120 * kNsPerS;
    model::SubTestRecord st = one_cell_rounds(hs, {});
    model::RoundRecord round;
    round.round = 1;
    round.started_wall_ns = cells[0].started_wall_ns;
    round.ended_wall_ns = clock;
    round.cells = cells;
    st.rounds.push_back(round);
    const auto& l = cells[1].latency;
    st.findings = {fnd("tc", "TC (threads)", chosen[k]->tc, ""), fnd("qd", "QD (per thread)", chosen[k]->qd, ""),
                   fnd("iops", "IOPS during the capture", cells[1].iops, "IOPS"),
                   fnd("art_ms", "ART", l.mean_ns / 1e6, "ms"),
                   fnd("p99_9_ms", "3 nines (99.9 %)", l.p99_9_ns / 1e6, "ms"),
                   fnd("p99_99_ms", "4 nines (99.99 %)", l.p99_99_ns / 1e6, "ms"),
                   fnd("p99_999_ms", "5 nines (99.999 %)", l.p99_999_ns / 1e6, "ms")};
    rec.subtests.push_back(std::move(st));
  }
  rec.ended_wall_ns = clock;
  return rec;
}

}  // namespace pts::report::fixture
