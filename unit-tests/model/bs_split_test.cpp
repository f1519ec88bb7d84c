// unit-tests/model/bs_split_test.cpp — a block-size split renormalised after sizes were left
// out: the kept sizes keep their proportions, whole percent summing to 100 by largest
// remainder, checked against arithmetic done here.
#include <gtest/gtest.h>

#include <vector>

#include "model/access_spec.h"

using pts::model::BlockSizeShare;
using pts::model::renormalised_split;

namespace {

std::vector<uint32_t> percents(const std::vector<BlockSizeShare>& v) {
  std::vector<uint32_t> out;
  for (const auto& s : v) out.push_back(s.percent);
  return out;
}

// ECW without 0.5–3.5 KiB: 67, 10, 7, 3, 3 of 90 → 74.44, 11.11, 7.78, 3.33, 3.33; floors
// 74 + 11 + 7 + 3 + 3 = 98, the two points left go to .78 (16 KiB) and .44 (4 KiB).
TEST(BlockSizeSplit, EcwWithoutTheSizesBelow4KiB) {
  const std::vector<BlockSizeShare> kept = {{4096, 67}, {8192, 10}, {16384, 7}, {32768, 3}, {65536, 3}};
  const auto r = renormalised_split(kept);
  EXPECT_EQ(percents(r), (std::vector<uint32_t>{75, 11, 8, 3, 3}));
  EXPECT_EQ(r[2].bytes, 16384u);
}

TEST(BlockSizeSplit, ExactSharesStayAndTiesGoToTheEarlierEntry) {
  EXPECT_EQ(percents(renormalised_split({{4096, 30}, {8192, 20}})), (std::vector<uint32_t>{60, 40}));
  // 1/3 each: 33 + 33 + 33 = 99, the tie goes to the first.
  EXPECT_EQ(percents(renormalised_split({{4096, 5}, {8192, 5}, {16384, 5}})), (std::vector<uint32_t>{34, 33, 33}));
  EXPECT_TRUE(renormalised_split({}).empty());
  EXPECT_TRUE(renormalised_split({{4096, 0}}).empty());
}

}  // namespace
