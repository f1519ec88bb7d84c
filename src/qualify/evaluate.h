// qualify/evaluate.h — a requirement sheet held against runs: the runs are grouped by drive
// (model and serial); each requirement is answered, per drive, by the run of its test point's
// test and the first applicable cell that matches the point, from the stored Measurement Window
// result (never recomputed); pass or fail with the measured value, the limit and the margin.
// What the runs cannot answer (no run of the test, no matching cell, a figure the window does
// not hold) is named with the sheet's file:line. Pure. May use: core, model, report (figures).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/requirement.h"
#include "model/run_record.h"

namespace pts::qualify {

/// A run handed to the check.
struct CheckedRun {
  const model::RunRecord* record = nullptr;
  std::string name;  ///< the run directory's name
  std::string dir;
};

/// One requirement on one drive.
struct RequirementResult {
  const model::Requirement* requirement = nullptr;
  const model::TestPoint* point = nullptr;
  std::string unit;          ///< the figure's unit ("IOPS", "ms")
  double measured = 0;
  double limit = 0;
  double margin = 0;         ///< in the unit, positive = on the passing side: measured − floor, ceiling − measured
  double margin_pct = 0;     ///< margin / limit × 100
  bool pass = false;
  std::string run_name, run_dir;
  std::string cell;          ///< the cell that answered ("4 KiB 100/0", TC × QD)
  std::string window;        ///< "Rounds 3–7"
  bool steady_state = false; ///< the sub-test reached steady state
};

/// Every requirement on one drive, in sheet order.
struct DriveCheck {
  std::string model, serial;
  std::string label;          ///< "ACME X1 SN 123"
  bool simulated = false;
  bool scaled = false;        ///< a run of it departs from the spec's cell length or time scale
  std::vector<RequirementResult> results;
  size_t failed() const;
};

struct CheckOutcome {
  std::vector<DriveCheck> drives;     ///< in the order their first run was given
  std::vector<std::string> unanswered;///< "sheet:line: ..." — the runs cannot answer these
  bool all_pass() const;
};

/// nullopt when `figure` is one ptsuite records per Measurement Window; else what is wrong with
/// it, the known figures listed (config::FigureCheck for the sheet's loader).
std::optional<std::string> figure_problem(const std::string& figure);

/// Holds `runs` against `sheet` (its figures checked by figure_problem when it was read).
CheckOutcome evaluate(const model::RequirementSheet& sheet, const std::vector<CheckedRun>& runs);

/// "test iops, R/W 100/0, 4 KiB, TC 4 × QD 32": what a point selects, in words.
std::string point_text(const model::TestPoint& point);

}  // namespace pts::qualify
