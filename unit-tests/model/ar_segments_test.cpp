// unit-tests/model/ar_segments_test.cpp — the client ActiveRange segment layout: 2048 segments
// of the asked size, ascending, never overlapping or touching, all inside the ActiveRange,
// spread over all of it, reproducible from the seed (and different for another seed); a
// count that does not fit is refused.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "model/ar_segments.h"

using pts::model::ArSegmentation;
using pts::model::segment_layout;

namespace {

ArSegmentation client(uint64_t seed) {
  ArSegmentation s;
  s.count = 2048;
  s.segment_bytes = 8ull << 20;  // 16 GiB AR Amount / 2048
  s.align_bytes = 1 << 20;       // the largest block of the IOPS test
  s.seed = seed;
  return s;
}

}  // namespace

TEST(ArSegments, TwoThousandFortyEightNonTouchingSegmentsInsideTheActiveRange) {
  const uint64_t ar = 750156374016ull / (1 << 20) * (1 << 20);  // 75 % of a 1 TB drive, whole MiB
  auto layout = segment_layout(client(7), ar);
  ASSERT_TRUE(layout.ok()) << layout.error().message();
  const auto& starts = layout.value();
  ASSERT_EQ(starts.size(), 2048u);
  const uint64_t seg = 8ull << 20;
  uint64_t smallest_gap = UINT64_MAX;
  for (size_t i = 0; i < starts.size(); ++i) {
    EXPECT_EQ(starts[i] % (1 << 20), 0u) << i;
    EXPECT_LE(starts[i] + seg, ar) << i;
    if (i > 0) {
      ASSERT_GT(starts[i], starts[i - 1] + seg) << "segments " << i - 1 << " and " << i << " overlap or touch";
      smallest_gap = std::min(smallest_gap, starts[i] - (starts[i - 1] + seg));
    }
  }
  EXPECT_GE(smallest_gap, 1u << 20);
  // Spread over the whole ActiveRange: 16 equal bins each hold about 2048/16 segment starts.
  std::vector<int> bins(16, 0);
  for (uint64_t s : starts) ++bins[static_cast<size_t>(static_cast<long double>(s) / ar * 16)];
  double x2 = 0;
  for (int b : bins) x2 += (b - 128.0) * (b - 128.0) / 128.0;
  EXPECT_LT(x2, 37.7);  // chi-square, 15 degrees of freedom, p = 0.001
  EXPECT_LT(starts.front(), ar / 100);
  EXPECT_GT(starts.back() + seg, ar - ar / 100);
}

TEST(ArSegments, ReproducibleFromTheSeed) {
  const uint64_t ar = 100ull << 30;
  auto a = segment_layout(client(42), ar), b = segment_layout(client(42), ar), c = segment_layout(client(43), ar);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(a.value(), b.value());
  EXPECT_NE(a.value(), c.value());
}

TEST(ArSegments, ACountThatDoesNotFitIsRefused) {
  // 2048 segments of 1 MiB with 1 MiB gaps need 4095 MiB; 4 GiB - 2 MiB is too little.
  ArSegmentation s = client(1);
  s.segment_bytes = 1 << 20;
  EXPECT_TRUE(segment_layout(s, 4095ull << 20).ok());
  auto no = segment_layout(s, 4094ull << 20);
  ASSERT_FALSE(no.ok());
  EXPECT_NE(no.error().message().find("2048 non-touching segments of 1 MiB need 4095 MiB"), std::string::npos)
      << no.error().message();
  s.segment_bytes = (1 << 20) + 512;  // not whole blocks
  EXPECT_FALSE(segment_layout(s, 100ull << 30).ok());
  ArSegmentation none;
  auto empty = segment_layout(none, 1 << 20);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty.value().empty());
}
