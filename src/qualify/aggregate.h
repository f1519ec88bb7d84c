// qualify/aggregate.h — the system-level view of a multi-drive run: from its lockstep log (one
// line per interval, each drive's role and figures, app/lockstep.h) per interval the drives'
// IOPS and MB/s summed, and the spread across drives (min, max, relative spread = (max − min) /
// mean), over every drive that ran in it — measured for its record, or serving as load after
// its own sub-test was done. Per cell, the last interval that ran it (the system at its most
// settled) is the headline. Pure: parses text, builds JSON and a report::Document.
// May use: core, report (document).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "report/document.h"

namespace pts::qualify {

struct IntervalDrive {
  std::string label;
  std::string role;     ///< "measured" or "load"
  std::string subtest, cell_id;
  uint32_t round = 0;
  double seconds = 0, iops = 0, mbps = 0;
  uint64_t io_errors = 0;
  std::string error;
};

struct Interval {
  uint64_t number = 0;
  std::string kind;     ///< "timed" or "fill"
  std::vector<IntervalDrive> drives;
  // Over the drives without an error:
  double iops_sum = 0, mbps_sum = 0;
  double iops_min = 0, iops_max = 0, iops_spread = 0;  ///< spread: (max − min) / mean
  double mbps_min = 0, mbps_max = 0, mbps_spread = 0;
  std::string subtest, cell_id;  ///< the cell the measured drives ran (the first one's)
  uint32_t round = 0;
};

struct Aggregate {
  std::vector<std::string> labels;  ///< every drive of the run, in order
  std::vector<Interval> intervals;
  /// Per (sub-test, cell): the index into `intervals` of the last timed interval that ran it.
  std::vector<size_t> last_per_cell;
  uint64_t skipped_lines = 0;       ///< torn or unreadable lines (a kill -9 mid-line)
};

/// Parses the lockstep log's text; `labels` are the run's drives.
Aggregate aggregate_from_log(const std::string& text, const std::vector<std::string>& labels);

/// aggregate.json's text.
std::string aggregate_json(const Aggregate& a, const std::string& test_id);

/// The workbook: "By cell" (the headline per cell) and "Intervals" (every interval).
report::Document aggregate_document(const Aggregate& a, const std::string& title);

}  // namespace pts::qualify
