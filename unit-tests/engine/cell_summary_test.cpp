// unit-tests/engine/cell_summary_test.cpp — merging worker stats into a CellResult: sums,
// rates over the measured duration, latency merged across workers, whole seconds only, CPU %
// over wall time and the Little's-law figure; the cell's I/O phase from the workers'.
#include <gtest/gtest.h>

#include "engine/cell_summary.h"

using namespace pts;

TEST(CellSummary, MergesWorkersIntoOneResult) {
  engine::WorkerStats a, b;
  for (int i = 0; i < 1000; ++i) a.read_latency.record(100000);  // 100 µs
  for (int i = 0; i < 1000; ++i) b.write_latency.record(300000);  // 300 µs
  a.read_ios = 1000;
  a.read_bytes = 1000 * 4096;
  b.write_ios = 1000;
  b.write_bytes = 1000 * 4096;
  a.completions_per_second = {400, 400, 200};
  b.completions_per_second = {500, 500};
  const uint64_t t0 = 5'000'000'000;
  a.end_ns = t0 + 2'500'000'000;
  b.end_ns = t0 + 2'000'000'000;
  b.io_errors = 1;
  b.first_error = "write of 4096 B at offset 0: Input/output error";
  model::AccessSpec spec;
  spec.threads = 2;
  spec.queue_depth = 4;
  const auto r = engine::summarize_cell(spec, {&a, &b}, t0, engine::CpuTimes{0.5, 1.0, 2.5});
  EXPECT_DOUBLE_EQ(r.seconds, 2.5);  // to the last completion of any worker
  EXPECT_DOUBLE_EQ(r.read_iops, 400);
  EXPECT_DOUBLE_EQ(r.write_iops, 400);
  EXPECT_DOUBLE_EQ(r.iops, 800);
  EXPECT_DOUBLE_EQ(r.mbps, 2000 * 4096 / 1e6 / 2.5);
  EXPECT_EQ(r.latency.samples, 2000u);
  EXPECT_DOUBLE_EQ(r.latency.mean_ns, 200000);
  EXPECT_EQ(r.latency.min_ns, 100000u);
  EXPECT_EQ(r.latency.max_ns, 300000u);
  EXPECT_EQ(r.read_latency.max_ns, 100000u);
  EXPECT_EQ(r.write_latency.min_ns, 300000u);
  EXPECT_EQ(r.ios_per_second, (std::vector<uint64_t>{900, 900}));  // the half second is dropped
  EXPECT_DOUBLE_EQ(r.cpu_usr_pct, 20);
  EXPECT_DOUBLE_EQ(r.cpu_sys_pct, 40);
  EXPECT_DOUBLE_EQ(r.littles_law_oio, 800 * 200000 / 1e9);
  EXPECT_EQ(r.io_errors, 1u);
  EXPECT_EQ(r.error, b.first_error);
}

TEST(CellSummary, IoPhaseSpansTheWorkersThatSubmitted) {
  engine::WorkerStats a, b, idle;
  a.first_submit_ns = 1'000'300;
  a.last_completion_ns = 9'000'000;
  b.first_submit_ns = 1'000'100;  // the earliest submission
  b.last_completion_ns = 9'400'000;  // the latest completion
  // `idle` submitted nothing (a byte budget used up by the others): it widens nothing.
  const auto phase = engine::merge_io_phases({&a, &idle, &b});
  ASSERT_TRUE(phase);
  EXPECT_EQ(phase->first_submit_ns, 1'000'100u);
  EXPECT_EQ(phase->last_completion_ns, 9'400'000u);
  EXPECT_FALSE(engine::merge_io_phases({&idle}));
  EXPECT_FALSE(engine::merge_io_phases({}));
}
