// unit-tests/report/review_fixtures.cpp — fixed RunRecords of the review-lab workloads (not SNIA
// PTS tests) for the report's golden and PDF tests: a latency-vs-load curve (review
// preconditioning; QD 1 reference, the maximum and 12 points paced at 10 … 120 % of it, each
// after a warm-up, response and service time in closed form, an approximation's banner) and a
// depth sweep (reads and writes over 1 … 256, each step after a ramp). The findings are computed
// here by the fixture's own loops, not by pts/. Declared in fixture_record.h.
#include <algorithm>
#include <cmath>

#include "report/fixture_parts.h"
#include "report/fixture_record.h"

namespace pts::report::fixture {

namespace {

using namespace parts;

model::Finding fnd(std::string key, std::string label, std::optional<double> v, std::string unit, std::string detail = "") {
  return {std::move(key), std::move(label), v, std::move(unit), std::move(detail)};
}

model::CellPlan plan_cell(std::string id, std::string label, model::AccessPattern pattern, uint32_t read_pct,
                          uint32_t bytes, uint32_t tc, uint32_t qd, double seconds) {
  model::CellPlan c = make_cell(pattern, read_pct, bytes, tc, qd);
  c.id = std::move(id);
  c.label = std::move(label);
  c.spec.seconds = seconds;
  c.spec.active_range_pct = 25;
  return c;
}

/// A `seconds` long result at `iops` with mean latency `mean_ns` (p99 = 3 × the mean).
model::CellResult result(const model::CellPlan& c, uint64_t& clock, double iops, double mean_ns) {
  model::CellResult r = make_result(c, clock, iops, mean_ns, mean_ns * 30, mean_ns * 12);
  r.seconds = c.spec.seconds;
  r.read_ios = static_cast<uint64_t>(std::llround(r.read_iops * r.seconds));
  r.write_ios = static_cast<uint64_t>(std::llround(r.write_iops * r.seconds));
  r.read_bytes = r.read_ios * c.spec.block_bytes;
  r.write_bytes = r.write_ios * c.spec.block_bytes;
  r.latency.samples = r.read_ios + r.write_ios;
  r.latency.p99_ns = static_cast<uint64_t>(mean_ns * 3);
  r.cpu_usr_pct = 10;
  r.cpu_sys_pct = 5;
  clock += static_cast<uint64_t>(r.seconds * 1e9) + kNsPerS / 10;
  return r;
}

model::RunRecord review_base(const std::string& id, const std::string& title, const std::string& template_name) {
  model::RunRecord rec = base_record(id, title, "pts-2.0.2");
  rec.plan.template_name = template_name;
  rec.plan.active_range_pct = 25;
  rec.plan.time_scale = 0.01;
  rec.deviations = {{"time-scale", "every phase length of the test is multiplied by 0.01 (--time-scale). A scaled "
                                   "run is a trial, not a compliant PTS run"},
                    {"purge-recreate", "File target: purged by re-creating the file, which is not a SNIA purge."}};
  rec.plan.interpretations = {title + " is not a SNIA PTS test: a workload review labs run beside the PTS"};
  return rec;
}

/// The review preconditioning sub-test and its record: fill, an hour SEQ 64 KiB, an hour RND 4 KiB (scaled).
void add_review(model::RunRecord& rec, uint64_t& clock) {
  model::SubTestPlan sp;
  sp.id = "review-precondition";
  sp.title = rec.plan.title + " – Review preconditioning (not the PTS's)";
  sp.role = model::SubTestRole::ReviewPrecondition;
  sp.wipc_enabled = false;
  auto fill = plan_cell("fill-64k", "Whole surface: SEQ 64 KiB writes", model::AccessPattern::Sequential, 0, 65536, 1,
                        32, 20);
  fill.spec.active_range_pct = 100;
  auto seq = plan_cell("seq-64k", "SEQ 64 KiB writes for 36 s", model::AccessPattern::Sequential, 0, 65536, 1, 32, 36);
  seq.spec.active_range_pct = 100;
  auto rnd = plan_cell("rnd-4k", "RND 4 KiB writes for 36 s", model::AccessPattern::Random, 0, 4096, 4, 32, 36);
  sp.cells = {fill, seq, rnd};
  model::SubTestRecord st;
  st.id = sp.id;
  model::RoundRecord round;
  round.round = 1;
  round.started_wall_ns = clock;
  round.cells = {result(fill, clock, 30000, 1.0e6), result(seq, clock, 30000, 1.0e6), result(rnd, clock, 90000, 1.4e6)};
  round.ended_wall_ns = clock;
  st.rounds.push_back(round);
  st.complete = true;
  for (const auto& c : round.cells) {
    st.findings.push_back(fnd(c.cell_id + "_bytes", c.cell_id + " bytes written", static_cast<double>(c.write_bytes), "B"));
    st.findings.push_back(fnd(c.cell_id + "_mbps", c.cell_id + " write rate", c.write_mbps, "MB/s"));
  }
  rec.plan.subtests.push_back(sp);
  rec.subtests.push_back(st);
}

}  // namespace

model::RunRecord curve_fixture() {
  model::RunRecord rec = review_base("curve-sql", "Curve – SQL (approximation)", "curve");
  auto& p = rec.plan;
  p.procedure = "curve";
  p.threads = 4;
  p.queue_depth = 32;
  model::CurvePlan cp;
  cp.workload = "sql";
  cp.workload_title = "SQL approximation: RND 8 KiB 70/30";
  for (int f = 10; f <= 120; f += 10) cp.fractions_pct.push_back(f);
  cp.warmup_seconds = 0.3;
  cp.interval_seconds = 0.6;
  cp.profile.source = "review lab, VDbench curve: synthetic database SQL (not public; approximated)";
  cp.profile.approximation = true;
  cp.profile.threads_meaning = "128 outstanding I/Os, TC 4 x QD 32";
  cp.review.enabled = true;
  p.procedure_plan = cp;
  uint64_t clock = kStart + kNsPerS;
  add_review(rec, clock);
  model::SubTestPlan sp;
  sp.id = "curve";
  sp.title = "CURVE-SQL – Latency vs load, RND 8 KiB 70/30";
  sp.role = model::SubTestRole::CurvePoints;
  sp.purge = false;
  sp.wipc_enabled = false;
  auto cell = [&](const std::string& id, uint32_t tc, uint32_t qd, double s) {
    return plan_cell(id, id, model::AccessPattern::Random, 70, 8192, tc, qd, s);
  };
  // A drive of 100,000 IOPS at QD 128 (1.28 ms), 10,000 IOPS at QD 1 (100 µs); under the peak
  // a point's service time is 100 µs / (1 − load); past it the backlog grows.
  constexpr double kPeak = 100000, kQd1 = 100e3;
  model::SubTestRecord st;
  st.id = sp.id;
  model::RoundRecord round;
  round.round = 1;
  round.started_wall_ns = clock;
  for (const auto& [id, tc, qd] : {std::tuple<std::string, uint32_t, uint32_t>{"qd1", 1, 1}, {"max", 4, 32}}) {
    const auto w = cell(id + "-warmup", tc, qd, 0.3), m = cell(id, tc, qd, 0.6);
    sp.cells.push_back(w);
    sp.cells.push_back(m);
    const double iops = id == "qd1" ? 10000 : kPeak, lat = id == "qd1" ? kQd1 : 128 / kPeak * 1e9;
    round.cells.push_back(result(w, clock, iops, lat));
    round.cells.push_back(result(m, clock, iops, lat));
  }
  for (double f : cp.fractions_pct) {
    const std::string id = model::curve_point_id(f);
    for (const std::string& cid : {id + "-warmup", id}) {
      auto c = cell(cid, 4, 32, cid == id ? 0.6 : 0.3);
      c.spec.arrival = model::Arrival::Exponential;
      sp.cells.push_back(c);
      const double offered = kPeak * f / 100, load = std::min(f / 100, 0.99);
      const double achieved = std::min(offered, kPeak);
      const double service = f <= 100 ? kQd1 / (1 - load * 0.9) : 128 / kPeak * 1e9;
      const double response = f <= 100 ? service : service + (f - 100) * 2e6;
      model::CellResult r = result(c, clock, achieved, response);
      r.spec.rate_iops = static_cast<uint64_t>(offered);
      r.latency_from = "schedule";
      r.submission_latency = r.latency;
      r.submission_latency.mean_ns = service;
      r.submission_latency.p99_ns = static_cast<uint64_t>(service * 3);
      round.cells.push_back(r);
    }
  }
  round.ended_wall_ns = clock;
  st.rounds.push_back(round);
  st.complete = true;
  st.findings.push_back(fnd("peak_iops", "Peak (the maximum run)", kPeak, "IOPS", "peak 100 k IOPS at 1280 µs"));
  st.findings.push_back(fnd("peak_response_us", "Mean response time at the peak", 1280, "µs"));
  for (const auto& c : round.cells)
    if (c.spec.rate_iops > 0 && c.cell_id.find("-warmup") == std::string::npos)
      st.findings.push_back(fnd(c.cell_id + "_response_us", c.cell_id + " mean response time", c.latency.mean_ns / 1e3, "µs"));
  p.subtests.push_back(sp);
  rec.subtests.push_back(st);
  rec.ended_wall_ns = clock;
  return rec;
}

model::RunRecord sweep_fixture() {
  model::RunRecord rec = review_base("sweep-qd", "Sweep – queue depth, RND 4 KiB", "sweep");
  auto& p = rec.plan;
  p.procedure = "sweep";
  p.threads = 16;
  p.queue_depth = 2;
  model::SweepPlan sw;
  sw.workload = "rnd4k";
  sw.workload_title = "RND 4 KiB";
  sw.ramp_seconds = 0.3;
  sw.interval_seconds = 3;
  sw.profile.source = "Iometer methodology series: QD sweep";
  sw.profile.threads_meaning = "an Iometer worker is a thread (TC), its outstanding I/Os the QD";
  sw.review.enabled = true;
  p.procedure_plan = sw;
  uint64_t clock = kStart + kNsPerS;
  add_review(rec, clock);
  model::SubTestPlan sp;
  sp.id = "sweep";
  sp.title = "SWEEP-QD – Sweep, RND 4 KiB";
  sp.role = model::SubTestRole::SweepSteps;
  sp.purge = false;
  sp.wipc_enabled = false;
  model::SubTestRecord st;
  st.id = sp.id;
  model::RoundRecord round;
  round.round = 1;
  round.started_wall_ns = clock;
  const uint32_t workers[] = {1, 2, 4, 8, 16, 16, 16, 16, 16}, outstanding[] = {1, 1, 1, 1, 1, 2, 4, 8, 16};
  for (uint32_t read : {100u, 0u}) {
    for (size_t k = 0; k < 9; ++k) {
      const uint32_t tc = workers[k], qd = outstanding[k], depth = tc * qd;
      const std::string id = "rw" + std::to_string(read) + "-w" + std::to_string(tc) + "x" + std::to_string(qd);
      // Reads saturate at 400,000 IOPS, writes at 90,000; QD 1 takes 80 µs (reads), 20 µs (writes).
      const double limit = read ? 400000 : 90000, qd1 = read ? 80e3 : 20e3;
      const double iops = std::min(limit, depth / qd1 * 1e9);
      for (const std::string& cid : {id + "-ramp", id}) {
        auto c = plan_cell(cid, cid, model::AccessPattern::Random, read, 4096, tc, qd, cid == id ? 3 : 0.3);
        sp.cells.push_back(c);
        round.cells.push_back(result(c, clock, iops, depth / iops * 1e9));
      }
    }
  }
  round.ended_wall_ns = clock;
  st.rounds.push_back(round);
  st.complete = true;
  st.findings.push_back(fnd("littles_law", "Little's law within 5 % at every step", 1.0, "",
                            "Little's law holds within 5 % at every step"));
  st.findings.push_back(fnd("climb_stops_rw0", "Writes stop climbing (0 % read)", 4.0, "total QD",
                            "writes stop climbing at 4 × 1 (total QD 4): 0 % from half that depth (less than 4 %)"));
  p.subtests.push_back(sp);
  rec.subtests.push_back(st);
  rec.ended_wall_ns = clock;
  return rec;
}

}  // namespace pts::report::fixture
