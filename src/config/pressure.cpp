// config/pressure.cpp — the write-pressure row of the procedure table (not a SNIA PTS test; what
// review labs run): the [pressure] table — write steps in MB/s, the write job (workload, TC × QD,
// LBA range) paced at each step, the read job (paced, so its latency runs from each read's
// schedule) beside it, the cap rule and the named preconditioning — resolved into one sub-test
// of steps and the model::QosPlan that pts/qos.cpp runs.
#include <cmath>

#include "config/procedure_rows.h"
#include "config/qos_jobs.h"
#include "config/resolver_text.h"
#include "config/workloads.h"

namespace pts::config {

namespace {

using namespace detail;

struct PressureDef {
  std::vector<double> steps_mbps;
  QosRole write, read;
  double cap_fraction = 0.95;
  double floor_us = 20;
  std::string precondition = "pts-wipc";
  bool allow_overlap = false;
  std::string source;
  int line = 0, steps_line = 0;
};

void read(TableReader& r, TestDefinition& d) {
  PressureDef p;
  p.line = r.line();
  std::vector<std::string> keys = {"steps_mbps", "cap_fraction", "write_latency_floor_us", "precondition",
                                   "allow_overlap", "source"};
  for (const auto& k : qos_role_keys("write")) keys.push_back(k);
  for (const auto& k : qos_role_keys("read")) keys.push_back(k);
  r.only_keys(std::vector<std::string_view>(keys.begin(), keys.end()));
  if (const toml::array* a = r.array("steps_mbps", true)) {
    p.steps_line = line_of(*a);
    for (const auto& n : *a) {
      const auto v = n.value<double>();
      if (!v || *v <= 0 || (!p.steps_mbps.empty() && *v <= p.steps_mbps.back()))
        r.problems().add(line_of(n), "[pressure] steps_mbps must rise: positive MB/s values, each above the last");
      else
        p.steps_mbps.push_back(*v);
    }
    if (a->empty()) r.problems().add(p.steps_line, "[pressure] steps_mbps: at least one step");
  }
  p.write = read_qos_role(r, "write");
  p.read = read_qos_role(r, "read");
  if (auto v = r.number("cap_fraction", 0, true, 1)) p.cap_fraction = *v;
  if (auto v = r.number("write_latency_floor_us", 0, true, 1e6)) p.floor_us = *v;
  if (auto v = read_precondition(r)) p.precondition = *v;
  if (auto v = r.boolean("allow_overlap")) p.allow_overlap = *v;
  if (auto v = r.string("source", true)) p.source = *v;
  d.own_table = p;
}

void check(const TestDefinition& d, Problems& p, bool /*shared_ok*/) {
  const auto& x = d.own<PressureDef>();
  check_workload(d, x.write.workload, "[pressure] write_workload", x.write.line, p);
  check_workload(d, x.read.workload, "[pressure] read_workload", x.read.line, p);
  if (!x.write.workload.empty() && d.workloads.count(x.write.workload) && d.workloads.at(x.write.workload).read_pct != 0)
    p.add(x.write.line, "[pressure] write_workload must only write (read_pct = 0): the steps pace its writes");
  if (!x.read.workload.empty() && d.workloads.count(x.read.workload) && d.workloads.at(x.read.workload).read_pct != 100)
    p.add(x.read.line, "[pressure] read_workload must only read (read_pct = 100)");
}

void resolve(ResolveCtx& c) {
  const PressureDef& x = c.d.own<PressureDef>();
  auto& p = c.plan();
  model::QosPlan q;
  q.kind = "pressure";
  q.cap_fraction = x.cap_fraction;
  q.write_latency_floor_us = x.floor_us;
  q.preconditioning = x.precondition;
  q.allow_overlap = x.allow_overlap;
  q.profile.source = x.source;
  q.read_jobs = {"read"};
  q.write_jobs = {"write"};
  const uint32_t wbs = model::max_block_bytes(workload_spec(c, c.d.workloads.at(x.write.workload), 1, 1, 1));
  for (double mbps : x.steps_mbps) {
    model::QosStep step;
    step.id = "w" + num(mbps);
    step.label = "writes paced at " + num(mbps) + " MB/s";
    step.write_mbps_target = mbps;
    const double rate = wbs ? mbps * 1e6 / wbs : 0;
    if (auto m = rate_problem(c, x.write, rate, x.floor_us, "[pressure] step " + num(mbps) + " MB/s"); !m.empty())
      c.errors.push_back(m);
    model::JobSpec w = qos_job(c, x.write, "write", 0, c.id.capacity_bytes, p.cell_seconds);
    w.spec.rate_iops = static_cast<uint64_t>(std::llround(rate));
    step.jobs.push_back(w);
    step.jobs.push_back(qos_job(c, x.read, "read", 0, c.id.capacity_bytes, p.cell_seconds));
    q.steps.push_back(std::move(step));
  }
  if (!q.steps.empty() && c.id.capacity_bytes) {
    const auto problems = model::job_problems(q.steps.front().jobs, {{c.id.capacity_bytes, c.id.lba_size}}, q.allow_overlap);
    for (const auto& m : problems) c.errors.push_back(c.at(x.line) + "[pressure]: " + m);
  }
  c.deviate("not-pts", "not a SNIA PTS test: write pressure (reads beside writes paced at rising rates), as review "
                       "labs run it; nothing here is a PTS result");
  c.interpret("write pressure: each step is one cell of " + duration_words(p.cell_seconds) + " in which the write job is "
              "paced at the step's MB/s and the read job runs beside it; the reads' latency runs from each read's "
              "scheduled release (paced at " + std::to_string(x.read.rate_iops) + " IOPS)");
  c.interpret("write pressure cap: the first step whose achieved write MB/s is below " + num(x.cap_fraction * 100) +
              " % of its target; the steps after it do not run (the line stops there)");
  p.subtests.push_back(qos_subtest(c, q, "Write pressure – " + workload_label(c.d.workloads.at(x.write.workload)) +
                                             " with " + workload_label(c.d.workloads.at(x.read.workload))));
  p.procedure_plan = q;
}

}  // namespace

const ProcedureRow& pressure_procedure() {
  static const ProcedureRow row = [] {
    ProcedureRow r;
    r.name = "pressure";
    r.not_snia_group = "Quality of service under contention (not SNIA PTS tests: write pressure, noisy neighbour)";
    r.table = "pressure";
    r.reads = {"workload"};
    r.read = read;
    r.check = check;
    r.resolve = resolve;
    r.worst_case = qos_worst_case;
    r.describe = qos_describe;
    return r;
  }();
  return row;
}

}  // namespace pts::config
