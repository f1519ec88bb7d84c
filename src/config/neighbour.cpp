// config/neighbour.cpp — the noisy-neighbour row of the procedure table (not a SNIA PTS test;
// what review labs run on multi-namespace drives): the [neighbour] table — how many namespaces
// of the run target's controller, which of them write (the writer job) and which read (the read
// job, paced: latency from each read's schedule), the named preconditioning — resolved into one
// sub-test of two steps, the writers off and then on, and the model::QosPlan pts/qos.cpp runs.
#include <algorithm>
#include <set>

#include "config/procedure_rows.h"
#include "config/qos_jobs.h"
#include "config/resolver_text.h"
#include "config/workloads.h"

namespace pts::config {

namespace {

using namespace detail;

struct NeighbourDef {
  uint32_t namespaces = 6;
  std::vector<uint32_t> writers, readers;
  QosRole write, read;
  std::string precondition = "pts-wipc";
  std::string source;
  int line = 0;
};

void read(TableReader& r, TestDefinition& d) {
  NeighbourDef n;
  n.line = r.line();
  std::vector<std::string> keys = {"namespaces", "writers", "readers", "precondition", "source"};
  for (const auto& k : qos_role_keys("write")) keys.push_back(k);
  for (const auto& k : qos_role_keys("read")) keys.push_back(k);
  r.only_keys(std::vector<std::string_view>(keys.begin(), keys.end()));
  if (auto v = r.integer("namespaces", 2, 32, true)) n.namespaces = static_cast<uint32_t>(*v);
  if (auto v = r.counts("writers", 1, 32, true)) n.writers = *v;
  if (auto v = r.counts("readers", 1, 32, true)) n.readers = *v;
  n.write = read_qos_role(r, "write");
  n.read = read_qos_role(r, "read");
  if (auto v = read_precondition(r)) n.precondition = *v;
  if (auto v = r.string("source", true)) n.source = *v;
  std::set<uint32_t> seen;
  for (auto v : n.writers) seen.insert(v);
  for (auto v : n.readers)
    if (!seen.insert(v).second) r.problems().add(r.line("readers"), "[neighbour] namespace " + std::to_string(v) +
                                                                        " is both a writer and a reader");
  for (auto v : seen)
    if (v > n.namespaces)
      r.problems().add(r.line("namespaces"), "[neighbour] namespace " + std::to_string(v) + " is beyond namespaces = " +
                                                 std::to_string(n.namespaces));
  d.own_table = n;
}

void check(const TestDefinition& d, Problems& p, bool /*shared_ok*/) {
  const auto& x = d.own<NeighbourDef>();
  check_workload(d, x.write.workload, "[neighbour] write_workload", x.write.line, p);
  check_workload(d, x.read.workload, "[neighbour] read_workload", x.read.line, p);
  if (!x.read.workload.empty() && d.workloads.count(x.read.workload) && d.workloads.at(x.read.workload).read_pct != 100)
    p.add(x.read.line, "[neighbour] read_workload must only read (read_pct = 100)");
}

void resolve(ResolveCtx& c) {
  const NeighbourDef& x = c.d.own<NeighbourDef>();
  auto& p = c.plan();
  model::QosPlan q;
  q.kind = "neighbour";
  q.preconditioning = x.precondition;
  q.profile.source = x.source;
  for (uint32_t n = 1; n <= x.namespaces; ++n) q.namespaces.push_back(n);
  auto job = [&](const QosRole& role, const std::string& prefix, uint32_t nsid) {
    return qos_job(c, role, prefix + std::to_string(nsid), nsid - 1, 0, p.cell_seconds);
  };
  model::QosStep off, on;
  off.id = "writers-off";
  off.label = "readers alone";
  on.id = "writers-on";
  on.label = "readers with the writers";
  for (uint32_t n : x.writers) {
    on.jobs.push_back(job(x.write, "write-ns", n));
    q.write_jobs.push_back("write-ns" + std::to_string(n));
  }
  for (uint32_t n : x.readers) {
    off.jobs.push_back(job(x.read, "read-ns", n));
    on.jobs.push_back(job(x.read, "read-ns", n));
    q.read_jobs.push_back("read-ns" + std::to_string(n));
  }
  q.steps = {off, on};
  c.deviate("not-pts", "not a SNIA PTS test: noisy neighbour (reads on quiet namespaces while others write), as review "
                       "labs run it; nothing here is a PTS result");
  c.interpret("noisy neighbour: namespaces 1 to " + std::to_string(x.namespaces) + " of the target's controller; step "
              "writers-off runs the readers alone, step writers-on the readers with the writers, each one cell of " +
              duration_words(p.cell_seconds) + "; the reads' latency runs from each read's scheduled release (paced at " +
              std::to_string(x.read.rate_iops) + " IOPS per namespace)");
  p.subtests.push_back(qos_subtest(c, q, "Noisy neighbour – " + std::to_string(x.namespaces) + " namespaces"));
  p.procedure_plan = q;
}

}  // namespace

const ProcedureRow& neighbour_procedure() {
  static const ProcedureRow row = [] {
    ProcedureRow r;
    r.name = "neighbour";
    r.not_snia_group = "Quality of service under contention (not SNIA PTS tests: write pressure, noisy neighbour)";
    r.table = "neighbour";
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
