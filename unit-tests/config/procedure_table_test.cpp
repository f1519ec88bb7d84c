// unit-tests/config/procedure_table_test.cpp — the procedure table, definition side: every
// shipped definition names a row; a definition carries only the keys its procedure reads (any
// other is refused with file:line); another procedure's table does not apply; an unknown
// procedure lists the table's names; --time-scale is checked and only scales procedures with
// phases.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "config/catalog.h"
#include "config/definition.h"
#include "config/procedure_table.h"
#include "config/plan_resolver.h"
#include "config/run_options.h"
#include "definition_fixtures.h"

namespace {

using namespace pts;
using test::def;
using test::has;
using test::has_deviation;
using test::kDir;
using test::line_of;
using test::problems;
using test::replace;
using test::resolve;
using test::resolve_errors;
using test::text_of;

TEST(ProcedureTable, EveryShippedDefinitionNamesARow) {
  for (const auto& file : config::definition_files(kDir.substr(0, kDir.size() - 1))) {
    auto d = config::load_definition(file);
    ASSERT_TRUE(d.ok()) << file << ": " << d.error().message();
    EXPECT_NE(config::find_procedure(d->procedure), nullptr) << file;
  }
  EXPECT_EQ(config::procedure_names(), "steady-rounds, wsat, hir, xsr, dirth, curve, sweep, pressure, neighbour");
}

TEST(ProcedureTable, AKeyTheProcedureDoesNotReadIsRefusedWithItsLine) {
  const auto t = replace(text_of("wsat.toml"), "window_rounds = 5", "window_rounds = 5\nmax_rounds = 25");
  auto p = problems(t);
  ASSERT_EQ(p.size(), 1u) << testing::PrintToString(p);
  EXPECT_EQ(p[0], "x.toml:" + std::to_string(line_of(t, "max_rounds = 25")) +
                      ": [steady_state] max_rounds: the wsat procedure does not read this key; remove it");
  // The same key in a steady-Rounds test is read.
  EXPECT_TRUE(problems(text_of("iops.toml")).empty());
  // A [matrix] in a test whose procedure runs named workloads.
  EXPECT_FALSE(problems(text_of("xsr.toml") + "\n[matrix]\nrw_mix = [0]\nblock_sizes = [\"4k\"]\n").empty());
}

TEST(ProcedureTable, AnotherProceduresTableDoesNotApply) {
  EXPECT_TRUE(has(problems(text_of("wsat.toml") + "\n[hir]\nworkload = \"x\"\n"),
                  "[hir] does not apply: [test] procedure is \"wsat\""));
  EXPECT_TRUE(has(problems(text_of("iops.toml") + "\n[wsat]\nmax_hours = 1\n"), "[wsat] does not apply"));
  EXPECT_TRUE(has(problems(replace(text_of("xsr.toml"), "procedure = \"xsr\"", "procedure = \"cbw\"")),
                  "[test] procedure 'cbw' is not one of steady-rounds, wsat, hir, xsr, dirth"));
}

TEST(ProcedureTable, TimeScaleOutOfRange) {
  config::RunOptions o;
  for (const char* v : {"0", "-0.5", "1.5", "fast"})
    EXPECT_EQ(config::set_run_option(o, "--time-scale", v),
              std::string("--time-scale: '") + v + "' is not a scale factor above 0 and at most 1");
  EXPECT_EQ(config::set_run_option(o, "--time-scale", "0.01"), "");
  EXPECT_EQ(*o.time_scale, 0.01);
}

TEST(ProcedureTable, TimeScaleOnASteadyRoundsTestIsANoteNotADeviation) {
  config::RunOptions o;
  o.time_scale = 0.001;
  auto iops = resolve("iops.toml", o);
  EXPECT_FALSE(has_deviation(iops, "time-scale"));
  EXPECT_TRUE(std::any_of(iops.notes.begin(), iops.notes.end(),
                          [](const std::string& n) { return n.find("--time-scale has no effect") != std::string::npos; }));
}

}  // namespace
