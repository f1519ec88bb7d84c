// app/progress.h — the run's progress display. On a terminal: one line redrawn in place
// (test, sub-test, round, cell, IOPS so far, ETA to the round cap). Otherwise (CI logs): one
// plain line per state transition and per finished round. Writes to stderr; stdout keeps the
// final summary. May use: model, pts (RunObserver).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "model/plan.h"
#include "pts/run_env.h"

namespace pts::app {

class ProgressDisplay final : public runner::RunObserver {
 public:
  /// `tty` selects the redrawn line; `quiet` prints nothing.
  ProgressDisplay(const model::TestPlan& plan, bool tty, bool quiet, FILE* out = stderr);
  ~ProgressDisplay() override;

  void state(const model::Transition& t) override;
  void cell_started(const runner::CellPosition& pos) override;
  void cell_progress(const runner::CellPosition& pos, double elapsed_seconds, uint64_t ios_done) override;
  void cell_finished(const runner::CellPosition& pos, const model::CellResult& r) override;
  void round_finished(size_t subtest, const model::RoundRecord& round) override;

  /// Upper bound on the seconds left (cells up to the round cap; WIPC not included).
  double eta_seconds(const runner::CellPosition& pos, double elapsed_in_cell) const;

 private:
  void draw(const runner::CellPosition& pos, double elapsed, double iops);
  void clear_line();

  model::TestPlan plan_;
  bool tty_;
  bool quiet_;
  FILE* out_;
  bool line_open_ = false;
  uint64_t last_draw_ns_ = 0;
};

/// "1h02m", "4m05s", "12s".
std::string format_duration(double seconds);

}  // namespace pts::app
