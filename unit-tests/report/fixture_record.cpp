// unit-tests/report/fixture_record.cpp — see fixture_record.h. Every number is a closed-form
// function of (cell, round), so expectations can be recomputed independently.
#include "report/fixture_record.h"
#include "report/fixture_parts.h"

#include <cmath>
#include <algorithm>
#include <functional>

namespace pts::report::fixture {

namespace parts {  // shared with phase_fixtures.cpp through fixture_parts.h

using model::CellPlan;
using model::CellResult;
using model::Metric;

std::string cell_id(uint32_t read_pct, uint32_t bytes) {
  return "rw" + std::to_string(read_pct) + "-bs" + std::to_string(bytes);
}

std::string bs_label(uint32_t bytes) {
  return bytes == 512 ? "0.5 KiB" : std::to_string(bytes / 1024) + " KiB";
}

CellPlan make_cell(model::AccessPattern pattern, uint32_t read_pct, uint32_t bytes, uint32_t tc, uint32_t qd) {
  CellPlan c;
  c.id = cell_id(read_pct, bytes);
  c.label = bs_label(bytes) + " " + std::to_string(read_pct) + "/" + std::to_string(100 - read_pct);
  c.spec.pattern = pattern;
  c.spec.read_pct = read_pct;
  c.spec.block_bytes = bytes;
  c.spec.threads = tc;
  c.spec.queue_depth = qd;
  c.spec.seconds = 5;
  return c;
}

/// Fills a CellResult from IOPS and mean latency (the rest follows deterministically).
CellResult make_result(const CellPlan& plan, uint64_t started, double iops, double mean_ns, double max_ns,
                       double p5_ns) {
  CellResult r;
  r.cell_id = plan.id;
  r.spec = plan.spec;
  r.spec.seed = 42;
  r.started_wall_ns = started;
  r.seconds = 5.0;
  const double rf = plan.spec.read_pct / 100.0;
  r.iops = iops;
  r.read_iops = iops * rf;
  r.write_iops = iops - r.read_iops;
  r.read_ios = static_cast<uint64_t>(std::llround(r.read_iops * r.seconds));
  r.write_ios = static_cast<uint64_t>(std::llround(r.write_iops * r.seconds));
  r.read_bytes = r.read_ios * plan.spec.block_bytes;
  r.write_bytes = r.write_ios * plan.spec.block_bytes;
  r.mbps = iops * plan.spec.block_bytes / 1e6;
  r.read_mbps = r.read_iops * plan.spec.block_bytes / 1e6;
  r.write_mbps = r.mbps - r.read_mbps;
  r.latency.samples = r.read_ios + r.write_ios;
  r.latency.mean_ns = mean_ns;
  r.latency.min_ns = static_cast<uint64_t>(mean_ns / 4);
  r.latency.max_ns = static_cast<uint64_t>(std::llround(max_ns));
  r.latency.p50_ns = static_cast<uint64_t>(mean_ns * 0.9);
  r.latency.p99_ns = static_cast<uint64_t>(mean_ns * 3);
  r.latency.p99_9_ns = static_cast<uint64_t>(mean_ns * 5);
  r.latency.p99_99_ns = static_cast<uint64_t>(mean_ns * 8);
  r.latency.p99_999_ns = static_cast<uint64_t>(std::llround(p5_ns));
  r.latency.percentile_rel_error = 0.0078125;
  r.read_latency = r.latency;
  r.write_latency = r.latency;
  r.cpu_usr_pct = 12.5;
  r.cpu_sys_pct = 30.25;
  r.littles_law_oio = iops * mean_ns / 1e9;
  return r;
}

/// Closed-form least-squares window assessment (the fixture's own, not steady/'s).
model::WindowAssessment assess(const std::vector<double>& y, uint32_t first_round, double data_limit,
                               double slope_limit) {
  model::WindowAssessment w;
  w.first_round = first_round;
  w.last_round = first_round + static_cast<uint32_t>(y.size()) - 1;
  w.values = y;
  double sx = 0, sy = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    sx += first_round + i;
    sy += y[i];
  }
  const double n = static_cast<double>(y.size()), mx = sx / n, my = sy / n;
  double sxy = 0, sxx = 0, lo = y[0], hi = y[0];
  for (size_t i = 0; i < y.size(); ++i) {
    const double dx = first_round + i - mx;
    sxy += dx * (y[i] - my);
    sxx += dx * dx;
    lo = std::min(lo, y[i]);
    hi = std::max(hi, y[i]);
  }
  w.average = my;
  w.slope = sxy / sxx;
  w.intercept = my - w.slope * mx;
  w.data_excursion = hi - lo;
  w.slope_excursion = std::fabs(w.slope) * (w.last_round - w.first_round);
  w.allowed_data_excursion = data_limit * my;
  w.allowed_slope_excursion = slope_limit * my;
  w.data_ok = w.data_excursion <= w.allowed_data_excursion * (1 + 1e-9);
  w.slope_ok = w.slope_excursion <= w.allowed_slope_excursion * (1 + 1e-9);
  w.steady = w.data_ok && w.slope_ok;
  return w;
}

double tracked(const CellResult& c, Metric m) {
  switch (m) {
    case Metric::Iops: return c.iops;
    case Metric::Mbps: return c.mbps;
    case Metric::MeanLatencyNs: return c.latency.mean_ns;
    case Metric::MaxLatencyNs: return static_cast<double>(c.latency.max_ns);
  }
  return 0;
}

/// What pts stores at the end of a sub-test: each applicable cell's means over the window
/// Rounds (MRT: the maximum). The fixture's own loop, not pts/'s.
std::vector<model::CellWindowResult> stored_window_results(const model::SubTestPlan& sp, const model::SubTestRecord& st) {
  std::vector<model::CellWindowResult> out;
  for (const auto& c : sp.cells) {
    if (!c.applicable) continue;
    model::CellWindowResult w;
    w.cell_id = c.id;
    for (const auto& r : st.rounds) {
      if (r.round < st.window_first_round || r.round > st.window_last_round) continue;
      for (const auto& x : r.cells) {
        if (x.cell_id != c.id) continue;
        ++w.rounds;
        w.iops += x.iops;
        w.read_iops += x.read_iops;
        w.write_iops += x.write_iops;
        w.mbps += x.mbps;
        w.read_mbps += x.read_mbps;
        w.write_mbps += x.write_mbps;
        w.mean_latency_ns += x.latency.mean_ns;
        w.p99_999_latency_ns += static_cast<double>(x.latency.p99_999_ns);
        w.max_latency_ns = std::max(w.max_latency_ns, x.latency.max_ns);
      }
    }
    if (w.rounds) {
      const double n = w.rounds;
      for (double* v : {&w.iops, &w.read_iops, &w.write_iops, &w.mbps, &w.read_mbps, &w.write_mbps,
                        &w.mean_latency_ns, &w.p99_999_latency_ns})
        *v /= n;
    }
    out.push_back(w);
  }
  return out;
}

/// Value source: (cell, cell index, round) → IOPS and mean latency.
using Shape = std::function<void(const CellPlan&, size_t idx, uint32_t round, double& iops, double& mean_ns)>;

/// Runs `rounds` rounds of every applicable cell of sub-test `si`, with verdicts from Round
/// window_rounds on; stops early at the first steady Round when `stop_at_steady`.
void fill_subtest(model::RunRecord& rec, size_t si, uint32_t rounds, const Shape& shape, bool stop_at_steady,
                  uint64_t& clock) {
  const auto& plan = rec.plan;
  const auto& sp = plan.subtests[si];
  model::SubTestRecord st;
  st.id = sp.id;
  model::PurgeRecord purge;
  purge.method = plan.purge_method;
  purge.reason = "file target: no device purge available";
  purge.success = true;
  purge.status_text = "file truncated and re-created";
  purge.started_wall_ns = clock;
  purge.duration_ns = 250000000;
  purge.verification = {true, true, 64, 0, "zeroes", "64 of 64 sampled blocks read back as zeroes"};
  st.purge = purge;
  clock += kNsPerS;
  model::PreconditionRecord wipc;
  wipc.target_bytes = 2 * rec.device.capacity_bytes;
  wipc.bytes_written = wipc.target_bytes;
  wipc.completed = true;
  wipc.result.spec = sp.wipc;
  st.wipc = wipc;
  clock += 30 * kNsPerS;
  for (uint32_t r = 1; r <= rounds; ++r) {
    model::RoundRecord round;
    round.round = r;
    round.started_wall_ns = clock;
    size_t idx = 0;
    for (const auto& c : sp.cells) {
      if (!c.applicable) {
        ++idx;
        continue;
      }
      double iops = 0, mean_ns = 0;
      shape(c, idx, r, iops, mean_ns);
      const double max_ns = mean_ns * (40 + (idx * 7 + r * 3) % 11);
      const double p5_ns = mean_ns * (12 + (idx + r) % 5);
      round.cells.push_back(make_result(c, clock, iops, mean_ns, max_ns, p5_ns));
      clock += 5 * kNsPerS + 2000000;
      round.cell_gaps_ns.push_back(2000000);
      ++idx;
    }
    round.max_cell_gap_ns = 2000000;
    round.mean_cell_gap_ns = 2000000;
    round.ended_wall_ns = clock;
    st.rounds.push_back(std::move(round));
    if (r >= plan.window_rounds) {
      model::SteadyStateVerdict v;
      v.round = r;
      v.steady = true;
      for (const auto& tv : sp.tracking) {
        std::vector<double> y;
        for (uint32_t k = r - plan.window_rounds + 1; k <= r; ++k)
          for (const auto& c : st.rounds[k - 1].cells)
            if (c.cell_id == tv.cell_id) y.push_back(tracked(c, tv.metric));
        model::TrackingVerdict t{tv, assess(y, r - plan.window_rounds + 1, plan.data_excursion_limit,
                                            plan.slope_excursion_limit)};
        v.steady = v.steady && t.window.steady;
        v.variables.push_back(std::move(t));
      }
      st.rounds.back().verdict = v;
      st.final_verdict = v;
      st.window_first_round = r - plan.window_rounds + 1;
      st.window_last_round = r;
      if (v.steady) {
        st.steady_state_reached = true;
        if (stop_at_steady) break;
      }
    }
  }
  st.complete = true;
  st.window_results = stored_window_results(sp, st);
  rec.subtests.push_back(std::move(st));
}

model::RunRecord base_record(const std::string& test_id, const std::string& title, const std::string& edition) {
  model::RunRecord rec;
  rec.tool_version = "0.1.0";
  rec.git_revision = "0123456789ab";
  rec.run_id = test_id + "-20261118T000000Z-fixture";
  rec.command_line = "ptsuite run " + test_id + " /dev/shm/fixture.img --out reports/fixture --cell-seconds 5";
  rec.host = {"labhost", "AMD EPYC 7302P 16-Core Processor", 2, 24ull << 30, "Debian GNU/Linux 12 (bookworm)",
              "6.1.0-18-amd64"};
  rec.started_wall_ns = kStart;
  rec.state = model::RunState::Complete;
  auto& d = rec.device;
  d.kind = model::TargetKind::File;
  d.path = "/dev/shm/fixture.img";
  d.manufacturer = "Fixture Storage Inc.";
  d.model = "FX-9000 3.84TB";
  d.serial = "FX12345678";
  d.firmware = "1.2.3A";
  d.interface = "file";
  d.capacity_bytes = 3840755982336ull;
  d.lba_size = 512;
  rec.write_cache = model::WriteCacheState::Disabled;
  auto& p = rec.plan;
  p.test_id = test_id;
  p.title = title;
  p.template_name = test_id;
  p.pts_edition = edition;
  p.device_class = "enterprise";
  p.definition_file = "tests-pts/" + test_id + ".toml";
  p.cell_seconds = 5;
  p.spec_cell_seconds = 60;
  p.purge_method = model::PurgeMethod::Recreate;
  rec.deviations = {{"cell-seconds", "Cells ran 5 s instead of the 60 s the specification requires."},
                    {"purge-recreate", "File target: purged by re-creating the file, which is not a SNIA purge."}};
  return rec;
}

model::SubTestPlan iops_subtest(const model::TestPlan& p, bool three_tracking) {
  model::SubTestPlan sp;
  sp.id = "main";
  sp.title = "IOPS";
  sp.wipc.pattern = model::AccessPattern::Sequential;
  sp.wipc.read_pct = 0;
  sp.wipc.block_bytes = 131072;
  sp.wipc.threads = p.threads;
  sp.wipc.queue_depth = p.queue_depth;
  for (uint32_t rd : {100u, 95u, 65u, 50u, 35u, 5u, 0u})
    for (uint32_t bs : {1048576u, 131072u, 65536u, 32768u, 16384u, 8192u, 4096u, 512u})
      sp.cells.push_back(make_cell(model::AccessPattern::Random, rd, bs, p.threads, p.queue_depth));
  sp.tracking.push_back({cell_id(0, 4096), Metric::Iops, "RND 4 KiB 0/100 IOPS"});
  if (three_tracking) {
    sp.tracking.push_back({cell_id(65, 65536), Metric::Iops, "RND 64 KiB 65/35 IOPS"});
    sp.tracking.push_back({cell_id(100, 1048576), Metric::Iops, "RND 1024 KiB 100/0 IOPS"});
  }
  return sp;
}

/// A smooth IOPS surface: falls with block size, rises with the read share.
double iops_base(const CellPlan& c) {
  const double kib = c.spec.block_bytes / 1024.0;
  return 90000.0 / std::pow(kib + 1.0, 0.85) * (0.35 + 0.65 * c.spec.read_pct / 100.0) + 120.0;
}

double wobble(size_t idx, uint32_t round) {
  return 1.0 + 0.01 * static_cast<double>((idx * 7 + round * 13) % 9) - 0.04;
}

}  // namespace parts

using namespace parts;

std::vector<double> tv6_iops_window() { return {11751.4, 11823.2, 11523.2, 11810.4, 11725.8}; }

model::RunRecord iops_tv6() {
  model::RunRecord rec = base_record("iops", "IOPS", "pts-e-1.1");
  rec.device.pcie_link = {"sysfs /sys/devices/pci0000:00/0000:00:01.2/0000:01:00.0", 16, 4, 16, 4};
  rec.operator_fields = {{"tested_by", "Fixture Lab, A. Tester"}, {"test_sponsor", "Procurement Dept."},
                         {"nand_type", "TLC"},  {"form_factor", "U.2 2.5in"},
                         {"notes", "golden fixture"}, {"lab_ticket", "QA-1234"}};
  rec.plan.threads = 4;
  rec.plan.queue_depth = 32;
  rec.plan.subtests.push_back(iops_subtest(rec.plan, false));
  uint64_t clock = kStart + kNsPerS;
  const auto tv6 = tv6_iops_window();
  fill_subtest(rec, 0, rec.plan.max_rounds,
               [&](const CellPlan& c, size_t idx, uint32_t r, double& iops, double& mean_ns) {
                 iops = c.id == "rw0-bs4096" ? tv6[r - 1] : iops_base(c) * wobble(idx, r);
                 mean_ns = 128.0 / iops * 1e9;
               },
               true, clock);
  rec.ended_wall_ns = clock;
  return rec;
}

model::RunRecord iops_not_steady_25(bool four_kn) {
  model::RunRecord rec = base_record("iops", "IOPS", "pts-2.0.2");
  rec.plan.threads = 4;
  rec.plan.queue_depth = 32;
  rec.plan.subtests.push_back(iops_subtest(rec.plan, true));
  if (four_kn) rec.device.lba_size = 4096;  // 4Kn: the 0.5 KiB cells cannot run
  for (auto& c : rec.plan.subtests[0].cells)
    if (four_kn && c.spec.block_bytes == 512) {
      c.applicable = false;
      c.not_applicable_reason = "0.5 KiB is below the 4096 B logical block size";
    }
  uint64_t clock = kStart + kNsPerS;
  fill_subtest(rec, 0, 25,
               [&](const CellPlan& c, size_t idx, uint32_t r, double& iops, double& mean_ns) {
                 iops = iops_base(c) * wobble(idx, r);
                 if (c.id == "rw0-bs4096") iops = 60000.0 - 1500.0 * r + 150.0 * ((r * 5) % 3);
                 mean_ns = 128.0 / iops * 1e9;
               },
               true, clock);
  rec.ended_wall_ns = clock;
  if (four_kn)
    rec.deviations.push_back({"bs-512-omitted", "0.5 KiB cells omitted: the namespace uses 4096 B logical blocks."});
  rec.deviations.push_back({"max-rounds", "Steady state was not reached within 25 Rounds; the last five are reported."});
  return rec;
}

model::RunRecord throughput_two_subtests() {
  model::RunRecord rec = base_record("throughput", "Throughput", "pts-e-1.1");
  rec.plan.threads = 1;
  rec.plan.queue_depth = 32;
  for (uint32_t bs : {131072u, 1048576u}) {
    model::SubTestPlan sp;
    sp.id = bs == 131072 ? "bs128k" : "bs1024k";
    sp.title = bs == 131072 ? "TP – SEQ 128KiB" : "TP – SEQ 1024KiB";
    sp.wipc.pattern = model::AccessPattern::Sequential;
    sp.wipc.read_pct = 0;
    sp.wipc.block_bytes = bs;
    sp.wipc.threads = 1;
    sp.wipc.queue_depth = 32;
    for (uint32_t rd : {100u, 0u}) sp.cells.push_back(make_cell(model::AccessPattern::Sequential, rd, bs, 1, 32));
    sp.tracking.push_back({cell_id(0, bs), Metric::Mbps, "SEQ " + bs_label(bs) + " W MB/s"});
    rec.plan.subtests.push_back(sp);
  }
  // TV-6 published TP SEQ 1024 KiB W window (avg 1072.38, fit −3.366·R + 1082.478, range 39.48).
  const std::vector<double> tp1024 = {1079.112, 1087.784, 1048.304, 1081.052, 1065.648};
  uint64_t clock = kStart + kNsPerS;
  fill_subtest(rec, 0, 25,
               [&](const CellPlan& c, size_t, uint32_t r, double& iops, double& mean_ns) {
                 const double mbps = c.spec.read_pct == 100 ? 3150.0 + 4.0 * (r % 3)
                                                            : (r < 2 ? 2100.0 : 1100.0 + 6.0 * ((r * 7) % 5));
                 iops = mbps * 1e6 / c.spec.block_bytes;
                 mean_ns = 32.0 / iops * 1e9;
               },
               true, clock);
  fill_subtest(rec, 1, 25,
               [&](const CellPlan& c, size_t, uint32_t r, double& iops, double& mean_ns) {
                 const double mbps = c.spec.read_pct == 100 ? 3300.0 - 2.5 * (r % 4) : tp1024[r - 1];
                 iops = mbps * 1e6 / c.spec.block_bytes;
                 mean_ns = 32.0 / iops * 1e9;
               },
               true, clock);
  rec.ended_wall_ns = clock;
  return rec;
}

model::RunRecord latency_steady() {
  model::RunRecord rec = base_record("latency", "Latency", "pts-e-1.1");
  rec.plan.threads = 1;
  rec.plan.queue_depth = 1;
  model::SubTestPlan sp;
  sp.id = "main";
  sp.title = "Latency";
  sp.wipc.pattern = model::AccessPattern::Sequential;
  sp.wipc.read_pct = 0;
  sp.wipc.block_bytes = 131072;
  sp.wipc.threads = 1;
  sp.wipc.queue_depth = 1;
  for (uint32_t rd : {100u, 65u, 0u})
    for (uint32_t bs : {8192u, 4096u, 512u}) sp.cells.push_back(make_cell(model::AccessPattern::Random, rd, bs, 1, 1));
  sp.tracking.push_back({cell_id(0, 4096), Metric::MeanLatencyNs, "RND 4 KiB 0/100 ART"});
  rec.plan.subtests.push_back(sp);
  uint64_t clock = kStart + kNsPerS;
  fill_subtest(rec, 0, 25,
               [&](const CellPlan& c, size_t idx, uint32_t r, double& iops, double& mean_ns) {
                 const double base = 18000.0 + 40.0 * (c.spec.block_bytes / 512) + 160.0 * (100 - c.spec.read_pct);
                 // The tracked ART settles from Round 3 on, so Rounds 3–7 are the first steady window.
                 mean_ns = c.id == "rw0-bs4096" ? (r < 3 ? base * 1.6 - 3000.0 * r : base + 137.0 * ((r * 3) % 4))
                                                : base * (1.0 + 0.01 * static_cast<double>((idx + r) % 4));
                 iops = 1e9 / mean_ns;
               },
               true, clock);
  rec.ended_wall_ns = clock;
  return rec;
}

model::RunRecord iops_interrupted() {
  model::RunRecord rec = iops_tv6();
  auto& st = rec.subtests[0];
  st.rounds.resize(3);
  st.rounds[2].cells.resize(20);
  for (auto& r : st.rounds) r.verdict.reset();
  st.final_verdict.reset();
  st.window_first_round = st.window_last_round = 0;
  st.steady_state_reached = false;
  st.complete = false;
  st.window_results.clear();
  rec.state = model::RunState::Interrupted;
  rec.failure = "stopped by SIGINT after Round 3, cell 20";
  rec.ended_wall_ns = st.rounds[2].cells.back().started_wall_ns + 5 * kNsPerS;
  rec.deviations.push_back({"interrupted", "The run was interrupted during Round 3; results are partial."});
  return rec;
}

double cell_value(const model::RunRecord& r, size_t subtest, uint32_t round, const std::string& id,
                  const std::string& metric) {
  for (const auto& rr : r.subtests.at(subtest).rounds) {
    if (rr.round != round) continue;
    for (const auto& c : rr.cells) {
      if (c.cell_id != id) continue;
      if (metric == "iops") return c.iops;
      if (metric == "mbps") return c.mbps;
      if (metric == "mean_latency_ns") return c.latency.mean_ns;
      if (metric == "max_latency_ns") return static_cast<double>(c.latency.max_ns);
      if (metric == "p99_999_ns") return static_cast<double>(c.latency.p99_999_ns);
    }
  }
  return std::nan("");
}

}  // namespace pts::report::fixture
