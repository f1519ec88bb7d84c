// unit-tests/engine/streams_test.cpp — sequential stream positions: a plan starts each stream
// at its given position (wrapping at its slice end, refusing one outside its slice), the
// generator reports where it stands, and on a real io_uring engine consecutive sequential
// cells continue each other (the end position of one is the start of the next, and the bytes
// land there).
#include <gtest/gtest.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "engine/io_engine.h"
#include "engine/io_target.h"
#include "engine/workload.h"

using namespace pts;
using engine::IoTarget;

namespace {

model::AccessSpec seq_spec(uint32_t bs, uint32_t threads) {
  model::AccessSpec s;
  s.pattern = model::AccessPattern::Sequential;
  s.block_bytes = bs;
  s.threads = threads;
  s.seed = 9;
  return s;
}

}  // namespace

TEST(StreamStart, PlanStartsEachStreamWhereToldAndWrapsAtTheSliceEnd) {
  const IoTarget target{"t", 64ull << 20, 512};
  auto spec = seq_spec(131072, 2);
  auto plans = engine::plan_workers(spec, target);
  ASSERT_TRUE(plans.ok());
  const uint64_t slice = plans.value()[0].region_bytes;
  spec.stream_start_bytes = {5 * 131072, slice + slice};  // stream 1 at its slice end: wraps
  plans = engine::plan_workers(spec, target);
  ASSERT_TRUE(plans.ok()) << plans.error().message();
  EXPECT_EQ(plans.value()[0].stream_start, 5u * 131072);
  EXPECT_EQ(plans.value()[1].stream_start, slice);
  engine::Rng rng(1, 1);
  engine::SequentialOffsets gen(plans.value()[0]);
  EXPECT_EQ(gen.position(), 5u * 131072);
  EXPECT_EQ(gen.next(rng, plans.value()[0].block_table[0]), 5u * 131072);
  EXPECT_EQ(gen.position(), 6u * 131072);

  spec.stream_start_bytes = {0, 4096};  // stream 1 before its slice
  auto bad = engine::plan_workers(spec, target);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message().find("stream 1 start 4096 B"), std::string::npos) << bad.error().message();
  spec.stream_start_bytes = {100};  // one position for two streams, unaligned
  EXPECT_FALSE(engine::plan_workers(spec, target).ok());
  auto rnd = seq_spec(4096, 1);
  rnd.pattern = model::AccessPattern::Random;
  rnd.stream_start_bytes = {0};
  EXPECT_FALSE(engine::plan_workers(rnd, target).ok());
}

TEST(StreamStart, RealSequentialCellsContinueEachOther) {
  const std::string path = "/dev/shm/ptsuite-streams-test-" + std::to_string(getpid());
  unlink(path.c_str());
  // A sparse file (never written: reads as zeroes), so the blocks the run writes show.
  const int made = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (made < 0 || ftruncate(made, static_cast<off_t>(16ull << 20)) != 0) GTEST_SKIP() << "cannot create " << path;
  close(made);
  struct Cleanup {
    std::string p;
    ~Cleanup() { unlink(p.c_str()); }
  } cleanup{path};
  auto info = engine::inspect_target(path, true);
  if (!info) GTEST_SKIP() << info.error().message();
  auto eng = engine::open_uring_engine(info->target, true);
  if (!eng) GTEST_SKIP() << eng.error().message();
  auto spec = seq_spec(131072, 1);
  spec.read_pct = 0;
  spec.queue_depth = 4;
  spec.bytes_limit = 40 * 131072;  // 5 MiB per cell: the fourth cell wraps past 16 MiB
  std::vector<uint64_t> ends;
  for (int cell = 0; cell < 4; ++cell) {
    if (!ends.empty()) spec.stream_start_bytes = {ends.back()};
    auto r = eng.value()->run(spec);
    ASSERT_TRUE(r.ok()) << r.error().message();
    ASSERT_EQ(r->io_errors, 0u) << r->error;
    ASSERT_EQ(r->stream_end_bytes.size(), 1u);
    EXPECT_EQ(r->spec.stream_start_bytes, spec.stream_start_bytes);
    ends.push_back(r->stream_end_bytes[0]);
  }
  const uint64_t slice = 128 * 131072;  // the whole 16 MiB file
  EXPECT_EQ(ends[0], 40u * 131072);
  EXPECT_EQ(ends[1], 80u * 131072);
  EXPECT_EQ(ends[2], 120u * 131072);
  EXPECT_EQ(ends[3], (160u * 131072) % slice);  // wrapped to the start
  // Three cells of 5 MiB wrote the first 15 MiB once, not the first 5 MiB three times: every
  // block holds data.
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  std::vector<char> block(131072), zero(131072, 0);
  for (uint64_t off = 0; off < slice; off += 131072) {
    ASSERT_EQ(pread(fd, block.data(), block.size(), static_cast<off_t>(off)), 131072);
    EXPECT_NE(std::memcmp(block.data(), zero.data(), block.size()), 0) << "block at " << off << " never written";
  }
  close(fd);
}
