// model/job.h: the checks a job set keeps before any I/O.
#include <gtest/gtest.h>

#include "model/job.h"

namespace pts::model {
namespace {

JobSpec job(const std::string& id, uint32_t target, uint64_t offset, uint64_t size, uint32_t read_pct) {
  JobSpec j;
  j.id = id;
  j.target = target;
  j.offset_bytes = offset;
  j.size_bytes = size;
  j.spec.read_pct = read_pct;
  j.spec.seconds = 10;
  return j;
}

const std::vector<JobTargetSize> kTwo = {{1ull << 30, 512}, {1ull << 30, 4096}};

TEST(JobSet, SeparateRangesAndTargetsPass) {
  EXPECT_TRUE(job_problems({job("w", 0, 0, 512ull << 20, 0), job("r", 0, 512ull << 20, 0, 100), job("x", 1, 0, 0, 0)},
                           kTwo, false)
                  .empty());
}

TEST(JobSet, OverlapWhereOneWritesIsRefusedUnlessAllowed) {
  const std::vector<JobSpec> jobs = {job("w", 0, 0, 600ull << 20, 0), job("r", 0, 512ull << 20, 0, 100)};
  const auto e = job_problems(jobs, kTwo, false);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NE(e[0].find("overlap on target 1"), std::string::npos) << e[0];
  EXPECT_NE(e[0].find("--allow-overlap"), std::string::npos) << e[0];
  EXPECT_TRUE(job_problems(jobs, kTwo, true).empty());
  // Two readers disturb no data.
  EXPECT_TRUE(job_problems({job("a", 0, 0, 0, 100), job("b", 0, 0, 0, 100)}, kTwo, false).empty());
}

TEST(JobSet, EveryProblemAtOnce) {
  auto late = job("late", 1, 1000, 0, 100);  // not 4096-aligned on target 2
  late.spec.seconds = 5;                      // not the cell's interval
  const auto e = job_problems({job("a", 0, 0, 0, 0), job("a", 2, 0, 0, 0), late}, kTwo, false);
  EXPECT_EQ(e.size(), 4u);  // the id twice, target 3, the alignment, the duration
}

TEST(JobSet, AFillIsByteLimitedThroughout) {
  auto a = job("a", 0, 0, 0, 0), b = job("b", 1, 0, 0, 0);
  a.spec.bytes_limit = 1 << 20;
  EXPECT_EQ(job_problems({a, b}, kTwo, false).size(), 1u);
  b.spec.bytes_limit = 2 << 20;
  EXPECT_TRUE(job_problems({a, b}, kTwo, false).empty());
}

TEST(JobSet, IssueRateBound) {
  AccessSpec s;
  s.threads = 2;
  s.queue_depth = 16;
  EXPECT_DOUBLE_EQ(max_issue_rate_iops(s, 20'000), 1.6e6);
  EXPECT_EQ(max_issue_rate_iops(s, 0), 0);
}

}  // namespace
}  // namespace pts::model
