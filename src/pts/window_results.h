// pts/window_results.h — the numbers a PTS report states for each cell: means over the
// Measurement Window only (rounds first … last), never over rounds outside it. ART is the
// mean of the per-round means, MRT the maximum over the window (the natural reading of
// "maximum"; pts-digest §5.3 notes the spec wording is unconfirmed). Percentiles (5 nines and
// every other one shown) are those of all the window's I/Os: the Rounds' stored histograms
// merged, never an average of per-Round percentiles. May use: core, model, engine
// (latency_histogram.h).
#pragma once

#include <cstdint>
#include <vector>

#include "model/plan.h"
#include "model/run_record.h"

namespace pts::runner {

/// One CellWindowResult per applicable cell of `plan`, in plan order, from the rounds of
/// `rounds` numbered first_round … last_round (inclusive). A cell missing from some window
/// round is averaged over the rounds that hold it (`rounds` says how many).
std::vector<model::CellWindowResult> window_results(const model::SubTestPlan& plan,
                                                    const std::vector<model::RoundRecord>& rounds,
                                                    uint32_t first_round, uint32_t last_round);

}  // namespace pts::runner
