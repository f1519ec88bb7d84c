// config/qos_jobs.cpp — see qos_jobs.h.
#include "config/qos_jobs.h"

#include <cmath>

#include "config/resolver_text.h"
#include "config/workloads.h"

namespace pts::config::detail {

std::vector<std::string> qos_role_keys(const std::string& prefix) {
  return {prefix + "_workload", prefix + "_threads", prefix + "_queue_depth", prefix + "_rate_iops",
          prefix + "_range_pct"};
}

QosRole read_qos_role(TableReader& r, const std::string& prefix) {
  QosRole role;
  role.line = r.line(prefix + "_workload");
  if (auto v = r.string(prefix + "_workload", true)) role.workload = *v;
  if (auto v = r.integer(prefix + "_threads", 1, 1024)) role.threads = static_cast<uint32_t>(*v);
  if (auto v = r.integer(prefix + "_queue_depth", 1, 65535)) role.queue_depth = static_cast<uint32_t>(*v);
  if (auto v = r.integer(prefix + "_rate_iops", 0, 100'000'000)) role.rate_iops = static_cast<uint64_t>(*v);
  if (const toml::array* a = r.array(prefix + "_range_pct")) {
    const auto lo = a->size() == 2 ? (*a)[0].value<double>() : std::nullopt;
    const auto hi = a->size() == 2 ? (*a)[1].value<double>() : std::nullopt;
    if (!lo || !hi || *lo < 0 || *hi > 100 || *lo >= *hi)
      r.problems().add(line_of(*a), r.where() + " " + prefix + "_range_pct must be [start, end] with 0 <= start < end "
                                                "<= 100 (% of the target's LBAs)");
    else
      role.range_start_pct = *lo, role.range_end_pct = *hi;
  }
  return role;
}

std::optional<std::string> read_precondition(TableReader& r) { return r.choice("precondition", {"pts-wipc", "none"}); }

std::string precondition_words(const std::string& name) {
  if (name == "none") return "none (the drive as it is)";
  return "PTS WIPC: SEQ 128 KiB writes of 2 × each target's capacity, every target at once, after the purge";
}

model::JobSpec qos_job(ResolveCtx& c, const QosRole& role, const std::string& id, uint32_t target, uint64_t capacity,
                       double seconds) {
  model::JobSpec j;
  j.id = id;
  j.target = target;
  const WorkloadDef& w = c.d.workloads.at(role.workload);
  j.spec = workload_spec(c, w, role.threads, role.queue_depth, seconds);
  j.spec.rate_iops = role.rate_iops;
  constexpr uint64_t kMiB = 1ull << 20;
  if (capacity) {  // whole MiB from the start; 0 % to 100 % is the whole target (size 0)
    const auto at = [&](double pct) { return static_cast<uint64_t>(capacity * pct / 100.0) / kMiB * kMiB; };
    j.offset_bytes = at(role.range_start_pct);
    j.size_bytes = role.range_end_pct >= 100 ? 0 : at(role.range_end_pct) - j.offset_bytes;
  }
  return j;
}

std::string rate_problem(const ResolveCtx& c, const QosRole& role, double rate_iops, double floor_us,
                         const std::string& what) {
  model::AccessSpec s;
  s.threads = role.threads;
  s.queue_depth = role.queue_depth;
  const double most = model::max_issue_rate_iops(s, floor_us * 1000.0);
  if (most <= 0 || rate_iops <= most) return "";
  return c.at(role.line) + what + " asks for " + num(std::round(rate_iops)) + " writes/s, more than TC " +
         std::to_string(role.threads) + " × QD " + std::to_string(role.queue_depth) + " can issue when each write " +
         "takes at least write_latency_floor_us = " + num(floor_us) + " µs (" + num(std::floor(most)) +
         "/s): raise the queue depth or lower the rate";
}

model::SubTestPlan qos_subtest(ResolveCtx& c, const model::QosPlan& plan, const std::string& title) {
  model::SubTestPlan s;
  s.id = "main";
  s.title = title;
  s.role = model::SubTestRole::QosSteps;
  s.purge = purge_wanted(c);
  s.wipc_enabled = false;  // the named preconditioning is the procedure's own (pts/qos.cpp), not the PTS WIPC phase
  for (const auto& step : plan.steps) {
    model::CellPlan cell;
    cell.id = step.id;
    cell.label = step.label;
    cell.spec = step.jobs.empty() ? model::AccessSpec{} : step.jobs.front().spec;
    s.cells.push_back(cell);
  }
  return s;
}

SubtestWorstCase qos_worst_case(const model::TestPlan& p, const model::SubTestPlan& s) {
  const auto* q = p.params<model::QosPlan>();
  if (!q || s.role != model::SubTestRole::QosSteps) return rounds_worst_case(p, s);
  SubtestWorstCase out;
  out.seconds = static_cast<double>(q->steps.size()) * p.cell_seconds;
  out.how = std::to_string(q->steps.size()) + " steps of " + duration_words(p.cell_seconds) +
            (q->preconditioning == "none" ? "" : ", after the preconditioning (2 × capacity written at the drive's speed)");
  return out;
}

SubtestText qos_describe(const model::TestPlan& p, const model::SubTestPlan& s) {
  const auto* q = p.params<model::QosPlan>();
  if (!q || s.role != model::SubTestRole::QosSteps) return describe_rounds(p, s);
  SubtestText out;
  out.phases.push_back("not a SNIA PTS test: " + q->kind + " (quality of service under contention)");
  out.phases.push_back("preconditioning: " + precondition_words(q->preconditioning));
  for (const auto& step : q->steps) {
    std::string jobs;
    for (const auto& j : step.jobs)
      jobs += (jobs.empty() ? "" : "; ") + j.id + " " + model::rw_name(j.spec) + " " +
              std::to_string(model::max_block_bytes(j.spec) / 1024) + " KiB TC " + std::to_string(j.spec.threads) +
              " × QD " + std::to_string(j.spec.queue_depth) +
              (j.spec.rate_iops ? " at " + std::to_string(j.spec.rate_iops) + " IOPS" : "");
    out.phases.push_back("step " + step.id + " (" + duration_words(p.cell_seconds) + "): " + jobs);
  }
  return out;
}

}  // namespace pts::config::detail
