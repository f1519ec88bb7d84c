// unit-tests/report/fixture_record.h — fixed, deterministic RunRecords for the report tests
// and the render benchmark. Verdicts are computed here with a closed-form least-squares fit
// (test code, independent of steady/ and of report/). May use: core, model.
#pragma once

#include <string>
#include <vector>

#include "model/run_record.h"

namespace pts::report::fixture {

/// PTS-E 1.1 IOPS, 56 cells, steady at Round 5: the RND 4 KiB 0/100 Measurement Window is the
/// published PTS-digest §9 TV-6 window (avg 11726.8, fit −6.4·R + 11746, data excursion 300).
/// States every operator field (plus an unknown key) and a PCIe Gen4 x4 link.
model::RunRecord iops_tv6();

/// PTS 2.0.2 IOPS, three Tracking Variables, 25 Rounds, steady state NOT achieved
/// (rounds 21–25 reported): the full-size record and the not-steady variant. `four_kn`: the
/// namespace has 4096 B blocks, so the 0.5 KiB cells are not applicable (49 cells, not 56).
model::RunRecord iops_not_steady_25(bool four_kn = true);

/// PTS-E 1.1 Throughput: sub-tests SEQ 128 KiB (steady at Round 6) and SEQ 1024 KiB (steady at
/// Round 5; its window is TV-6's published TP SEQ 1024 KiB W window).
model::RunRecord throughput_two_subtests();

/// PTS-E 1.1 Latency, 3 × 3 cells at TC 1 / QD 1, ART of 4 KiB 0/100 steady at Round 7.
model::RunRecord latency_steady();

/// PTS-E 1.1 IOPS interrupted in Round 3 after 20 cells: state Interrupted, no verdict.
model::RunRecord iops_interrupted();

/// The tests with phases of their own (phase_fixtures.cpp), each with the findings its procedure stores:
/// WSAT (40 one-minute samples: FOB plateau, cliff at sample 9, steady plateau), HIR
/// (preconditioning + two wait states of 6 × Access A with idle, then Access C), XSR (three
/// Access Groups of 10 samples, recovery after 3 min), DIRTH / ECW (preconditioning, a 3 × 3
/// TC × QD sweep, three histogram sub-tests with log-linear capture histograms).
model::RunRecord wsat_fixture();
model::RunRecord hir_fixture();
model::RunRecord xsr_fixture();
model::RunRecord dirth_fixture(bool ecw);

/// The review-lab workloads (review_fixtures.cpp; not SNIA PTS tests): a curve of 12 points
/// after the review preconditioning (an approximation's profile), and a depth sweep of reads and
/// writes (1 … 256).
model::RunRecord curve_fixture();
model::RunRecord sweep_fixture();

/// The quality-of-service tests (qos_fixtures.cpp; not SNIA PTS tests): write pressure over six
/// steps, the last capped, and the noisy neighbour on six namespaces, writers off and on.
model::RunRecord pressure_fixture();
model::RunRecord neighbour_fixture();

/// Value of `metric` ("iops", "mbps", "mean_latency_ns", "max_latency_ns", "p99_999_ns") of
/// `cell_id` in Round `round` of sub-test `subtest`, straight from the record (for expectations).
double cell_value(const model::RunRecord& r, size_t subtest, uint32_t round, const std::string& cell_id,
                  const std::string& metric);

/// The TV-6 published IOPS window values, Rounds 1–5.
std::vector<double> tv6_iops_window();

}  // namespace pts::report::fixture
