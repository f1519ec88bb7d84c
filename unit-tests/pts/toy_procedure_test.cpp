// unit-tests/pts/toy_procedure_test.cpp — a procedure added from this test binary alone: one
// definition row (read nothing of its own, resolve, worst case, describe) and one run side,
// registered at run time with no edit of ptsuite's sources. A definition naming it loads, is
// refused a key the procedure does not read, resolves into its plan, states its worst case and
// describes itself for `plan`, and runs on the fake engine to a record: the table is the only
// place a procedure is known.
#include <gtest/gtest.h>

#include <string>

#include "config/definition.h"
#include "config/plan_resolver.h"
#include "config/procedure_table.h"
#include "pts/phase_steps.h"
#include "pts/procedure.h"
#include "support.h"

namespace pts::testing {
namespace {

// Definition side: every [workload.ID] of the definition once, in id order, as one Round.
void toy_resolve(config::ResolveCtx& c) {
  model::SubTestPlan sub;
  sub.id = "each-workload-once";
  sub.title = "Toy – each workload once";
  sub.purge = false;
  sub.wipc_enabled = false;
  for (const auto& [id, w] : c.d.workloads) {
    model::CellPlan cell;
    cell.id = id;
    cell.label = w.title;
    cell.spec.pattern = w.pattern;
    cell.spec.read_pct = w.read_pct;
    cell.spec.block_bytes = w.block_bytes;
    cell.spec.threads = c.plan().threads;
    cell.spec.queue_depth = c.plan().queue_depth;
    cell.spec.seconds = c.plan().cell_seconds;
    sub.cells.push_back(cell);
  }
  c.plan().subtests.push_back(sub);
  c.interpret("Toy: every workload runs once, no steady state is assessed");
}

config::SubtestWorstCase toy_worst_case(const model::TestPlan& plan, const model::SubTestPlan& sub) {
  return {static_cast<double>(sub.cells.size()) * plan.cell_seconds, "each cell once"};
}

config::SubtestText toy_describe(const model::TestPlan&, const model::SubTestPlan& sub) {
  return {{"Each of " + std::to_string(sub.cells.size()) + " workloads once, in id order"}, false};
}

const config::ProcedureRow& toy_row() {
  static const config::ProcedureRow row = [] {
    config::ProcedureRow r;
    r.name = "toy";
    r.reads = {"workload"};
    r.resolve = toy_resolve;
    r.worst_case = toy_worst_case;
    r.describe = toy_describe;
    return r;
  }();
  return row;
}

// Run side: one Round of every cell, then the sub-test's finding.
class ToyProcedure final : public runner::Procedure {
 public:
  core::Result<runner::StepOutcome> run_subtest(runner::RunContext& ctx, size_t i) const override {
    const auto& sub = ctx.record().plan.subtests[i];
    double iops = 0;
    ctx.start_round();
    for (size_t k = 0; k < sub.cells.size(); ++k) {
      runner::CellPosition pos;
      pos.subtest = i;
      pos.round = 1;
      pos.cell_index = k;
      pos.cells_in_round = sub.cells.size();
      auto run = runner::run_cell(ctx, i, 1, k, sub.cells[k], sub.cells[k].spec, pos);
      if (!run.ok()) return run.error();
      if (run->stopped) return runner::StepOutcome::Interrupted;
      iops += run->result.iops;
    }
    if (auto s = runner::close_round_plain(ctx, i, 1, std::nullopt); !s.ok()) return s.error();
    model::SubTestRecord summary;
    summary.findings.push_back(runner::finding("toy_iops_sum", "Sum of IOPS", iops, "IOPS"));
    if (auto s = runner::finish_subtest_summary(ctx, i, summary, "toy done"); !s.ok()) return s.error();
    return runner::StepOutcome::Done;
  }
};

const char* kToyDefinition = R"(
[test]
id = "toy"
title = "Toy"
procedure = "toy"
template = "toy"

[steady_state]
cell_seconds = 60

[preconditioning]
purge = true

[workload.a-rnd4k-w]
title = "RND 4 KiB W"
pattern = "random"
read_pct = 0
block_size = "4k"

[workload.b-seq128k-r]
title = "SEQ 128 KiB R"
pattern = "sequential"
read_pct = 100
block_size = "128k"

[editions."pts-2.0.2".enterprise]
write_cache = false
active_range_pct = 100
threads = 2
queue_depth = 8
tc_qd = "operator-choice"
)";

void register_toy() {
  static const ToyProcedure run;
  static const bool registered = runner::register_procedure(toy_row(), run);
  ASSERT_TRUE(registered);
  EXPECT_FALSE(runner::register_procedure(toy_row(), run));  // a name is in the table once
}

TEST(ToyProcedure, RegisteredAtRunTimeItIsPlannedAndRunLikeABuiltInOne) {
  register_toy();
  EXPECT_TRUE(runner::rows_without_run().empty());
  ASSERT_EQ(config::find_procedure("toy"), &toy_row());

  // Definition: loads; a key the toy does not read is refused with its line.
  auto d = config::parse_definition(kToyDefinition, "toy.toml");
  ASSERT_TRUE(d.ok()) << d.error().message();
  EXPECT_EQ(d->procedure, "toy");
  auto bad = config::parse_definition(std::string(kToyDefinition) + "\n[matrix]\nrw_mix = [0]\n", "toy.toml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message().find("toy.toml:"), std::string::npos) << bad.error().message();
  EXPECT_NE(bad.error().message().find("the toy procedure does not read"), std::string::npos)
      << bad.error().message();

  // Plan: resolve, worst case, describe.
  config::RunOptions o;
  o.cell_seconds = 2;
  auto r = config::resolve_plan(*d, o, config::nominal_identity(), model::EngineLimits{});
  ASSERT_TRUE(r.ok()) << r.error().message();
  const auto& plan = r->plan;
  EXPECT_EQ(plan.procedure, "toy");
  ASSERT_EQ(plan.subtests.size(), 1u);
  ASSERT_EQ(plan.subtests[0].cells.size(), 2u);
  EXPECT_EQ(plan.subtests[0].cells[1].spec.block_bytes, 131072u);
  EXPECT_EQ(plan.subtests[0].cells[0].spec.threads, 2u);
  const auto dur = config::estimate_duration(plan);
  ASSERT_EQ(dur.subtests.size(), 1u);
  EXPECT_DOUBLE_EQ(dur.subtests[0].seconds, 4.0);
  EXPECT_EQ(dur.subtests[0].how, "each cell once");
  const auto text = toy_row().describe(plan, plan.subtests[0]);
  EXPECT_EQ(text.phases.at(0), "Each of 2 workloads once, in id order");

  // Run: the runner finds the toy by the name the plan records and runs it on the fake engine.
  Rig rig([](const model::AccessSpec& s, uint32_t) { return s.read_pct == 100 ? 3000.0 : 1000.0; });
  auto res = rig.start(temp_run_dir("toy"), plan);
  ASSERT_FALSE(res.error) << res.error->message();
  const auto& rec = res.record;
  EXPECT_EQ(rec.state, model::RunState::Complete);
  ASSERT_EQ(rec.subtests.size(), 1u);
  ASSERT_EQ(rec.subtests[0].rounds.size(), 1u);
  ASSERT_EQ(rec.subtests[0].rounds[0].cells.size(), 2u);
  EXPECT_EQ(rec.subtests[0].rounds[0].cells[0].cell_id, "a-rnd4k-w");
  ASSERT_EQ(rig.engine->calls.size(), 2u);
  ASSERT_EQ(rec.subtests[0].findings.size(), 1u);
  EXPECT_EQ(rec.subtests[0].findings[0].key, "toy_iops_sum");
  EXPECT_DOUBLE_EQ(*rec.subtests[0].findings[0].value, 4000.0);
}

}  // namespace
}  // namespace pts::testing
