// unit-tests/qualify/aggregate_test.cpp — the multi-drive aggregate from a lockstep log: sums,
// min/max/relative spread per interval over the drives without an error, the last interval per
// cell, a torn last line skipped.
#include <gtest/gtest.h>

#include "qualify/aggregate.h"

namespace pts::qualify {
namespace {

const char* kLog =
    R"({"interval":1,"kind":"fill","drives":[{"label":"a","role":"measured","subtest":"main","round":0,"cell_id":"WIPC","seconds":9,"iops":100,"mbps":12.8},{"label":"b","role":"measured","subtest":"main","round":0,"cell_id":"WIPC","seconds":9,"iops":100,"mbps":12.8}]}
{"interval":2,"kind":"timed","drives":[{"label":"a","role":"measured","subtest":"main","round":1,"cell_id":"w4k","seconds":1,"iops":1000,"mbps":4.096},{"label":"b","role":"measured","subtest":"main","round":1,"cell_id":"w4k","seconds":1,"iops":3000,"mbps":12.288}]}
{"interval":3,"kind":"timed","drives":[{"label":"a","role":"load","seconds":1,"iops":1200,"mbps":4.9152},{"label":"b","role":"measured","subtest":"main","round":2,"cell_id":"w4k","seconds":1,"iops":2800,"mbps":11.4688}]}
{"interval":4,"kind":"timed","drives":[{"label":"a","role":"load","error":"Write Fault"},{"label":"b","role":"measured","subtest":"main","round":2,"cell_id":"r4k","seconds":1,"iops":5000,"mbps":20.48}]}
{"interval":5,"kind":"timed","dri)";

TEST(Aggregate, SumsSpreadAndLastIntervalPerCell) {
  const Aggregate a = aggregate_from_log(kLog, {"a", "b"});
  ASSERT_EQ(a.intervals.size(), 4u);
  EXPECT_EQ(a.skipped_lines, 1u);  // the torn last line
  const Interval& i2 = a.intervals[1];
  EXPECT_DOUBLE_EQ(i2.iops_sum, 4000);
  EXPECT_DOUBLE_EQ(i2.iops_min, 1000);
  EXPECT_DOUBLE_EQ(i2.iops_max, 3000);
  EXPECT_DOUBLE_EQ(i2.iops_spread, 2000.0 / 2000.0);
  // A drive serving as load counts in the system's sum; the cell is the measured drive's.
  const Interval& i3 = a.intervals[2];
  EXPECT_DOUBLE_EQ(i3.iops_sum, 4000);
  EXPECT_EQ(i3.cell_id, "w4k");
  EXPECT_EQ(i3.round, 2u);
  // A drive with an error and no figures is left out of the sum and the spread.
  const Interval& i4 = a.intervals[3];
  EXPECT_DOUBLE_EQ(i4.iops_sum, 5000);
  EXPECT_DOUBLE_EQ(i4.iops_spread, 0);
  // Per cell the last timed interval that ran it; the fill is no cell.
  ASSERT_EQ(a.last_per_cell.size(), 2u);
  EXPECT_EQ(a.intervals[a.last_per_cell[0]].number, 3u);
  EXPECT_EQ(a.intervals[a.last_per_cell[1]].number, 4u);
  const std::string json = aggregate_json(a, "iops");
  EXPECT_NE(json.find("\"relative_spread\""), std::string::npos);
  const auto doc = aggregate_document(a, "iops on 2 drives");
  ASSERT_EQ(doc.pages.size(), 2u);
  EXPECT_EQ(doc.pages[0].tables[0].rows.size(), 2u);
  EXPECT_EQ(doc.pages[1].tables[0].rows.size(), 4u);
}

}  // namespace
}  // namespace pts::qualify
