// unit-tests/report/qos_fixtures.cpp — fixed RunRecords of the quality-of-service tests (not
// SNIA PTS tests) for the report's golden and PDF tests: write pressure (a read job beside a
// write job paced at rising MB/s, one multi-job cell per step, the last step capped) and the
// noisy neighbour (quiet namespaces 4-6 read, 1-3 write; writers off, then on). The
// figures are closed forms of the step, and the findings are written here, not by pts/.
// Declared in fixture_record.h.
#include <cmath>

#include "report/fixture_parts.h"
#include "report/fixture_record.h"

namespace pts::report::fixture {

namespace {

using namespace parts;

model::Finding fnd(std::string key, std::string label, std::optional<double> v, std::string unit, std::string detail = "") {
  return {std::move(key), std::move(label), v, std::move(unit), std::move(detail)};
}

/// One job's result over `seconds`: reads (read_pct 100) or writes at `iops`, latency mean
/// `mean_ns` (99 % = 3 ×, 99.9 % = 5 ×, 99.99 % = 8 ×, max = 10 × the mean).
model::CellResult job_result(const std::string& id, uint32_t target, uint32_t read_pct, uint32_t bytes, double iops,
                             double mean_ns, double seconds, uint64_t started) {
  model::CellPlan c = make_cell(model::AccessPattern::Random, read_pct, bytes, 1, 4);
  c.id = id;
  model::CellResult r = make_result(c, started, iops, mean_ns, mean_ns * 10, mean_ns * 2);
  r.seconds = seconds;
  r.read_ios = read_pct ? static_cast<uint64_t>(std::llround(iops * seconds)) : 0;
  r.write_ios = read_pct ? 0 : static_cast<uint64_t>(std::llround(iops * seconds));
  r.read_iops = read_pct ? iops : 0;
  r.write_iops = read_pct ? 0 : iops;
  r.read_bytes = r.read_ios * bytes;
  r.write_bytes = r.write_ios * bytes;
  r.read_mbps = static_cast<double>(r.read_bytes) / seconds / 1e6;
  r.write_mbps = static_cast<double>(r.write_bytes) / seconds / 1e6;
  r.mbps = r.read_mbps + r.write_mbps;
  model::LatencySummary l = r.latency;
  l.samples = r.read_ios + r.write_ios;
  l.mean_ns = mean_ns;
  l.p99_ns = static_cast<uint64_t>(mean_ns * 3);
  l.p99_9_ns = static_cast<uint64_t>(mean_ns * 5);
  l.p99_99_ns = static_cast<uint64_t>(mean_ns * 8);
  l.p99_999_ns = l.max_ns = static_cast<uint64_t>(mean_ns * 10);
  r.latency = l;
  (read_pct ? r.read_latency : r.write_latency) = l;
  r.latency_from = read_pct ? "schedule" : "submission";
  r.job = model::JobPlacement{id, "sim:tiny#" + std::to_string(target + 1), target, 0, 160ull << 20};
  return r;
}

/// The combined result of a multi-job cell: its jobs' I/Os and bytes summed, the reads' latency
/// from the read jobs (their mean weighted by count, the percentiles the largest).
model::CellResult combined(const std::string& id, std::vector<model::CellResult> jobs, double seconds, uint64_t started) {
  model::CellResult c = jobs.front();
  c.cell_id = id;
  c.job.reset();
  c.read_ios = c.write_ios = c.read_bytes = c.write_bytes = 0;
  double read_sum_ns = 0;
  model::LatencySummary reads{};
  for (const auto& j : jobs) {
    c.read_ios += j.read_ios, c.write_ios += j.write_ios, c.read_bytes += j.read_bytes, c.write_bytes += j.write_bytes;
    if (!j.read_ios) continue;
    read_sum_ns += j.read_latency.mean_ns * static_cast<double>(j.read_ios);
    reads.p99_ns = std::max(reads.p99_ns, j.read_latency.p99_ns);
    reads.p99_9_ns = std::max(reads.p99_9_ns, j.read_latency.p99_9_ns);
    reads.p99_99_ns = std::max(reads.p99_99_ns, j.read_latency.p99_99_ns);
    reads.p99_999_ns = std::max(reads.p99_999_ns, j.read_latency.p99_999_ns);
    reads.max_ns = std::max(reads.max_ns, j.read_latency.max_ns);
  }
  reads.samples = c.read_ios;
  reads.mean_ns = c.read_ios ? read_sum_ns / static_cast<double>(c.read_ios) : 0;
  c.read_latency = reads;
  c.latency = reads;
  c.read_iops = static_cast<double>(c.read_ios) / seconds;
  c.write_iops = static_cast<double>(c.write_ios) / seconds;
  c.iops = c.read_iops + c.write_iops;
  c.read_mbps = static_cast<double>(c.read_bytes) / seconds / 1e6;
  c.write_mbps = static_cast<double>(c.write_bytes) / seconds / 1e6;
  c.mbps = c.read_mbps + c.write_mbps;
  c.started_wall_ns = started;
  c.jobs = std::move(jobs);
  return c;
}

model::RunRecord qos_base(const std::string& id, const std::string& title, const std::string& template_name) {
  model::RunRecord rec = base_record(id, title, "pts-2.0.2");
  rec.plan.template_name = template_name;
  rec.plan.procedure = template_name;
  rec.deviations = {{"not-pts", title + ": not a SNIA PTS test; nothing here is a PTS result"},
                    {"cell-seconds", "cells last 2 s instead of the 60 s the definition asks for"}};
  rec.plan.interpretations = {title + " is not a SNIA PTS test: a workload review labs run beside the PTS"};
  return rec;
}

/// The sub-test of the steps, one Round per step (its one multi-job cell).
model::SubTestPlan steps_subtest(const std::string& title) {
  model::SubTestPlan sp;
  sp.id = "qos";
  sp.title = title;
  sp.role = model::SubTestRole::QosSteps;
  sp.wipc_enabled = false;
  return sp;
}

}  // namespace

model::RunRecord pressure_fixture() {
  model::RunRecord rec = qos_base("pressure-8k", "Write pressure 8 KiB", "pressure");
  model::QosPlan q;
  q.kind = "pressure";
  q.read_jobs = {"read"};
  q.write_jobs = {"write"};
  q.preconditioning = "pts-wipc";
  q.profile.source = "review lab, fio write pressure";
  model::SubTestPlan sp = steps_subtest("PRESSURE-8K – Read latency under paced 8 KiB writes");
  model::SubTestRecord st;
  st.id = sp.id;
  uint64_t clock = kStart + kNsPerS;
  constexpr double kSeconds = 2, kCapMbps = 550;  // the drive writes at most 550 MB/s
  const double steps[] = {100, 200, 300, 400, 500, 600};
  for (size_t s = 0; s < 6; ++s) {
    const std::string id = "w" + std::to_string(static_cast<int>(steps[s]));
    model::QosStep step{id, "writes paced at " + std::to_string(static_cast<int>(steps[s])) + " MB/s", steps[s], {}};
    q.steps.push_back(step);
    model::CellPlan cell = make_cell(model::AccessPattern::Random, 0, 8192, 1, 4);
    cell.id = id;
    sp.cells.push_back(cell);
    const double mbps = std::min(steps[s], kCapMbps), read_mean_ns = 90e3 + 400 * mbps;
    model::RoundRecord round;
    round.round = static_cast<uint32_t>(s + 1);
    round.started_wall_ns = clock;
    round.cells = {combined(id,
                            {job_result("read", 0, 100, 4096, 2000, read_mean_ns, kSeconds, clock),
                             job_result("write", 0, 0, 8192, mbps * 1e6 / 8192, 30e3, kSeconds, clock)},
                            kSeconds, clock)};
    clock += static_cast<uint64_t>(kSeconds * 1e9);
    round.ended_wall_ns = clock;
    st.rounds.push_back(round);
    const auto& c = round.cells.front();
    st.findings.push_back(fnd(id + "_write_target_mbps", "Step " + id + " write rate asked", steps[s], "MB/s"));
    st.findings.push_back(fnd(id + "_write_mbps", "Step " + id + " write rate achieved", c.write_mbps, "MB/s"));
    st.findings.push_back(fnd(id + "_read_p99_99_us", "Step " + id + " read latency, 99.99 %",
                              static_cast<double>(c.read_latency.p99_99_ns) / 1e3, "µs"));
  }
  st.complete = true;
  const double cap_mbps = st.rounds.back().cells.front().write_mbps;
  st.findings.insert(st.findings.begin(), fnd("not_pts", "Not a SNIA PTS test", std::nullopt, "",
                                              "write pressure, as review labs run it"));
  st.findings.push_back(fnd("cap_step", "Cap: the step where the drive capped out", 6.0, "step",
                            "step w600 asked for 600 MB/s and got 550 MB/s (below 95 %)"));
  st.findings.push_back(fnd("cap_write_mbps", "Cap: write rate achieved there", cap_mbps, "MB/s"));
  rec.plan.procedure_plan = q;
  rec.plan.subtests.push_back(sp);
  rec.subtests.push_back(st);
  rec.ended_wall_ns = clock;
  return rec;
}

model::RunRecord neighbour_fixture() {
  model::RunRecord rec = qos_base("neighbour-6ns", "Noisy neighbour, 6 namespaces", "neighbour");
  model::QosPlan q;
  q.kind = "neighbour";
  q.namespaces = {1, 2, 3, 4, 5, 6};
  q.read_jobs = {"read4", "read5", "read6"};
  q.write_jobs = {"write1", "write2", "write3"};
  q.preconditioning = "pts-wipc";
  q.profile.source = "review lab, fio noisy neighbour";
  model::SubTestPlan sp = steps_subtest("NEIGHBOUR-6NS – Reads on quiet namespaces beside writers");
  model::SubTestRecord st;
  st.id = sp.id;
  st.findings.push_back(fnd("not_pts", "Not a SNIA PTS test", std::nullopt, "", "noisy neighbour, as review labs run it"));
  uint64_t clock = kStart + kNsPerS;
  constexpr double kSeconds = 2;
  for (const bool writers : {false, true}) {
    const std::string id = writers ? "writers-on" : "writers-off";
    q.steps.push_back({id, writers ? "three namespaces write" : "reads alone", 0, {}});
    model::CellPlan cell = make_cell(model::AccessPattern::Random, 100, 4096, 1, 4);
    cell.id = id;
    sp.cells.push_back(cell);
    std::vector<model::CellResult> jobs;
    for (uint32_t ns = 3; ns < 6; ++ns)  // the quiet namespaces 4-6, each read slower with the writers on
      jobs.push_back(job_result("read" + std::to_string(ns + 1), ns, 100, 4096, 1000,
                                (70e3 + 10e3 * ns) * (writers ? 4.5 - 0.5 * ns : 1.0), kSeconds, clock));
    if (writers)
      for (uint32_t ns = 0; ns < 3; ++ns)
        jobs.push_back(job_result("write" + std::to_string(ns + 1), ns, 0, 4096, 5000, 60e3, kSeconds, clock));
    model::RoundRecord round;
    round.round = writers ? 2 : 1;
    round.started_wall_ns = clock;
    round.cells = {combined(id, jobs, kSeconds, clock)};
    clock += static_cast<uint64_t>(kSeconds * 1e9);
    round.ended_wall_ns = clock;
    st.rounds.push_back(round);
    const auto& c = round.cells.front();
    st.findings.push_back(fnd(id + "_quiet_read_mean_us", id + ": quiet namespaces' read latency, mean",
                              c.read_latency.mean_ns / 1e3, "µs"));
    st.findings.push_back(fnd(id + "_quiet_read_p99_99_us", id + ": quiet namespaces' read latency, 99.99 %",
                              static_cast<double>(c.read_latency.p99_99_ns) / 1e3, "µs"));
  }
  st.complete = true;
  rec.plan.procedure_plan = q;
  rec.plan.subtests.push_back(sp);
  rec.subtests.push_back(st);
  rec.ended_wall_ns = clock;
  return rec;
}

}  // namespace pts::report::fixture
