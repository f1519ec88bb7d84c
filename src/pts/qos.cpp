// pts/qos.cpp — see qos.h.
#include "pts/qos.h"

#include <algorithm>
#include <cstdio>

#include "engine/latency_histogram.h"
#include "pts/phase_steps.h"
#include "pts/phases.h"
#include "pts/steady_rounds.h"

namespace pts::runner {

namespace {

using core::ErrorKind;

std::string g(double v) { return short_number(v); }

const model::CellResult* job_of(const model::CellResult& cell, const std::string& id) {
  for (const auto& j : cell.jobs)
    if (j.job && j.job->id == id) return &j;
  return nullptr;
}

/// MB/s the write jobs of a step achieved (10^6 B/s).
double write_mbps(const model::QosPlan& plan, const model::CellResult& cell) {
  double mbps = 0;
  for (const auto& id : plan.write_jobs)
    if (const auto* j = job_of(cell, id)) mbps += j->write_mbps;
  return mbps;
}

/// The reads of `ids` in `cell`, their histograms merged (percentiles of every read).
engine::LatencyHistogram reads_of(const model::CellResult& cell, const std::vector<std::string>& ids) {
  engine::LatencyHistogram h;
  for (const auto& id : ids)
    if (const auto* j = job_of(cell, id)) h.merge_record(j->read_histogram);
  return h;
}

void latency_findings(std::vector<model::Finding>& out, const std::string& key, const std::string& label,
                      const engine::LatencyHistogram& h) {
  const bool any = h.samples() > 0;
  auto us = [&](double pct) -> std::optional<double> {
    if (!any) return std::nullopt;
    return static_cast<double>(h.percentile_ns(pct)) / 1000.0;
  };
  out.push_back(finding(key + "_read_mean_us", label + " read latency, mean",
                        any ? std::optional<double>(h.mean_ns() / 1000.0) : std::nullopt, "µs"));
  out.push_back(finding(key + "_read_p99_us", label + " read latency, 99 %", us(99), "µs"));
  out.push_back(finding(key + "_read_p99_9_us", label + " read latency, 99.9 %", us(99.9), "µs"));
  out.push_back(finding(key + "_read_p99_99_us", label + " read latency, 99.99 %", us(99.99), "µs"));
  out.push_back(finding(key + "_read_p99_9999_us", label + " read latency, 99.9999 %", us(99.9999), "µs",
                        any ? std::to_string(h.samples()) + " reads" : "no reads"));
}

const model::CellResult* step_cell(const model::SubTestRecord& rec, size_t step) {
  for (const auto& r : rec.rounds)
    if (r.round == step + 1 && !r.cells.empty()) return &r.cells.front();
  return nullptr;
}

/// The fill: one SEQ 128 KiB write job per target over its whole range, 2 × its size.
std::vector<model::JobSpec> fill_jobs(const RunContext& ctx, const model::QosPlan& plan,
                                      const std::vector<model::JobTargetSize>& sizes) {
  std::vector<model::JobSpec> jobs;
  const size_t targets = plan.namespaces.empty() ? 1 : plan.namespaces.size();
  for (size_t t = 0; t < targets && t < sizes.size(); ++t) {
    model::JobSpec j;
    j.id = plan.namespaces.empty() ? "fill" : "fill-ns" + std::to_string(plan.namespaces[t]);
    j.target = static_cast<uint32_t>(t);
    j.spec.pattern = model::AccessPattern::Sequential;
    j.spec.read_pct = 0;
    j.spec.block_bytes = 128 * 1024;
    j.spec.threads = 1;
    j.spec.queue_depth = 32;
    j.spec.bytes_limit = sizes[t].size_bytes / j.spec.block_bytes * j.spec.block_bytes * 2;
    j.spec.seconds = 0;
    j.spec.poll_budget_ns = ctx.record().plan.poll_budget_ns;
    if (!plan.steps.empty() && !plan.steps.front().jobs.empty())
      j.spec.seed = plan.steps.front().jobs.front().spec.seed;
    jobs.push_back(j);
  }
  return jobs;
}

core::Status precondition(RunContext& ctx, size_t i, const model::QosPlan& plan, bool& stopped) {
  stopped = false;
  const auto jobs = fill_jobs(ctx, plan, ctx.env().engine.job_targets());
  if (jobs.empty()) return core::Error(ErrorKind::Internal, "the engine names no targets to precondition");
  uint64_t want = 0;
  for (const auto& j : jobs) want += j.spec.bytes_limit;
  if (auto st = ctx.transition("WIPC", i, 0, "preconditioning (" + plan.preconditioning + "): SEQ 128 KiB writes of " +
                                                   std::to_string(want) + " bytes, " + std::to_string(jobs.size()) +
                                                   " target(s) at once");
      !st.ok())
    return st;
  CellPosition pos;
  pos.subtest = i;
  pos.cell_id = "WIPC";
  pos.label = "preconditioning";
  pos.bytes_limit = want;
  if (auto* obs = ctx.env().observer) obs->cell_started(pos);
  auto run = ctx.run_engine_jobs(jobs, /*allow_overlap=*/false, /*abort_on_stop=*/true, pos);
  if (!run.ok()) return run.take_error();
  if (run->stopped_early) {
    stopped = true;
    return core::ok_status();
  }
  model::PreconditionRecord rec;
  rec.kind = plan.preconditioning;
  rec.target_bytes = want;
  rec.bytes_written = run->result.write_bytes;
  rec.completed = run->result.write_bytes >= want;
  rec.result = std::move(run->result);
  rec.result.cell_id = "WIPC";
  if (rec.result.io_errors)
    return core::Error(ErrorKind::Io, "preconditioning: " + std::to_string(rec.result.io_errors) + " I/O errors (first: " +
                                          rec.result.error + ")");
  return ctx.precondition(i, rec);
}

}  // namespace

std::optional<size_t> qos_cap_step(const model::QosPlan& plan, const model::SubTestRecord& rec) {
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const model::CellResult* cell = step_cell(rec, s);
    if (!cell || plan.steps[s].write_mbps_target <= 0) continue;
    if (write_mbps(plan, *cell) < plan.cap_fraction * plan.steps[s].write_mbps_target) return s;
  }
  return std::nullopt;
}

std::vector<model::Finding> qos_findings(const model::QosPlan& plan, const model::SubTestRecord& rec) {
  std::vector<model::Finding> out;
  out.push_back(finding("not_pts", "Not a SNIA PTS test", std::nullopt, "",
                        plan.kind == "pressure" ? "write pressure, as review labs run it"
                                                : "noisy neighbour, as review labs run it"));
  if (plan.kind == "pressure") {
    const auto cap = qos_cap_step(plan, rec);
    for (size_t s = 0; s < plan.steps.size(); ++s) {
      const model::CellResult* cell = step_cell(rec, s);
      if (!cell) continue;
      const auto& step = plan.steps[s];
      out.push_back(finding(step.id + "_write_target_mbps", "Step " + step.id + " write rate asked", step.write_mbps_target,
                            "MB/s"));
      out.push_back(finding(step.id + "_write_mbps", "Step " + step.id + " write rate achieved", write_mbps(plan, *cell),
                            "MB/s"));
      latency_findings(out, step.id, "Step " + step.id, reads_of(*cell, plan.read_jobs));
    }
    if (cap) {
      const auto& step = plan.steps[*cap];
      const double got = write_mbps(plan, *step_cell(rec, *cap));
      out.push_back(finding("cap_step", "Cap: the step where the drive capped out", static_cast<double>(*cap + 1), "step",
                            "step " + step.id + " asked for " + g(step.write_mbps_target) + " MB/s and got " + g(got) +
                                " MB/s (below " + g(100 * plan.cap_fraction) + " %); the steps after it were not run"));
      out.push_back(finding("cap_write_mbps", "Cap: write rate achieved there", got, "MB/s"));
    } else {
      out.push_back(finding("cap_step", "Cap: the step where the drive capped out", std::nullopt, "step",
                            "no cap: every step up to the last reached " + g(100 * plan.cap_fraction) +
                                " % of its write rate"));
    }
    return out;
  }
  // neighbour: per namespace and step, and the quiet namespaces together.
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const model::CellResult* cell = step_cell(rec, s);
    if (!cell) continue;
    const auto& step = plan.steps[s];
    for (const auto& id : plan.read_jobs)
      latency_findings(out, step.id + "_" + id, step.id + " " + id, reads_of(*cell, {id}));
    latency_findings(out, step.id + "_quiet", step.id + " quiet namespaces together", reads_of(*cell, plan.read_jobs));
    uint64_t ios = 0, bytes = 0;
    for (const auto& j : cell->jobs) ios += j.read_ios + j.write_ios, bytes += j.read_bytes + j.write_bytes;
    out.push_back(finding(step.id + "_jobs_ios", step.id + " I/Os of every namespace, summed", static_cast<double>(ios),
                          "I/Os", "the cell's own count: " + std::to_string(cell->read_ios + cell->write_ios)));
    out.push_back(finding(step.id + "_jobs_bytes", step.id + " bytes of every namespace, summed",
                          static_cast<double>(bytes), "B",
                          "the cell's own count: " + std::to_string(cell->read_bytes + cell->write_bytes)));
  }
  return out;
}

core::Result<StepOutcome> QosProcedure::run_subtest(RunContext& ctx, size_t i) const {
  const auto& tplan = ctx.record().plan;
  if (ctx.record().subtests[i].complete) return StepOutcome::Done;
  const auto* qp = tplan.params<model::QosPlan>();
  if (!qp || tplan.subtests[i].role != model::SubTestRole::QosSteps)
    return core::Error(ErrorKind::Internal, "sub-test " + tplan.subtests[i].id + " is not a quality-of-service sub-test");
  const model::QosPlan& q = *qp;
  if (purge_pending(ctx.record(), i)) {
    if (ctx.stop_requested()) return StepOutcome::Interrupted;
    if (auto st = purge_step(ctx, i); !st.ok()) return st.take_error();
  }
  if (q.preconditioning != "none" && !ctx.record().subtests[i].wipc && ctx.record().subtests[i].rounds.empty()) {
    if (ctx.stop_requested()) return StepOutcome::Interrupted;
    bool stopped = false;
    if (auto st = precondition(ctx, i, q, stopped); !st.ok()) return st.take_error();
    if (stopped) return StepOutcome::Interrupted;
  }
  for (;;) {
    const RoundCursor cur = round_cursor(ctx, i);
    if (cur.in_flight) {
      if (auto st = close_round_plain(ctx, i, cur.round, std::nullopt); !st.ok()) return st.take_error();
      continue;
    }
    const auto& rec = ctx.record().subtests[i];
    const size_t s = cur.next_round - 1;
    const auto cap = qos_cap_step(q, rec);
    if (s >= q.steps.size() || (cap && *cap < s)) {
      model::SubTestRecord summary;
      summary.findings = qos_findings(q, rec);
      std::string detail = std::to_string(rec.rounds.size()) + " step(s) run";
      if (cap) detail += "; capped at step " + q.steps[*cap].id;
      if (auto st = finish_subtest_summary(ctx, i, summary, detail); !st.ok()) return st.take_error();
      return StepOutcome::Done;
    }
    if (ctx.stop_requested()) return StepOutcome::Interrupted;
    const model::QosStep& step = q.steps[s];
    const uint32_t r = cur.next_round;
    if (auto st = ctx.transition("Step", i, r, step.label); !st.ok()) return st.take_error();
    ctx.start_round();
    std::vector<model::JobSpec> jobs = step.jobs;
    for (size_t k = 0; k < jobs.size(); ++k)
      if (jobs[k].spec.seed != 0) jobs[k].spec.seed = cell_seed(jobs[k].spec.seed, i, r, k);
    CellPosition pos;
    pos.subtest = i;
    pos.subtest_count = tplan.subtests.size();
    pos.subtest_id = tplan.subtests[i].id;
    pos.round = r;
    pos.max_rounds = static_cast<uint32_t>(q.steps.size());
    pos.cells_in_round = 1;
    pos.cell_id = step.id;
    pos.label = step.label;
    pos.cell_seconds = jobs.empty() ? 0 : jobs.front().spec.seconds;
    if (auto* obs = ctx.env().observer) obs->cell_started(pos);
    auto run = ctx.run_engine_jobs(jobs, q.allow_overlap, /*abort_on_stop=*/false, pos);
    if (!run.ok()) return run.take_error();
    if (run->stopped_early) return StepOutcome::Interrupted;
    run->result.cell_id = step.id;
    if (auto st = ctx.cell(i, r, run->result); !st.ok()) return st.take_error();
    if (auto* obs = ctx.env().observer) obs->cell_finished(pos, run->result);
    if (run->result.io_errors)
      return core::Error(ErrorKind::Io, "step " + step.id + ": " + std::to_string(run->result.io_errors) +
                                            " I/O errors (first: " + run->result.error + ")");
    if (auto st = close_round_plain(ctx, i, r, std::nullopt); !st.ok()) return st.take_error();
  }
}

}  // namespace pts::runner
