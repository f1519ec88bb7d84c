// model/review_plan.h — the plans of the workloads review labs run beside the PTS (issue #25):
// the latency-vs-load curve (VDbench's `iorate=curve`), the Iometer-style sweep, and the labs'
// own preconditioning (`review`) both may run first. pts/curve.cpp and pts/sweep.cpp run them;
// config/curve.cpp and config/sweep.cpp resolve them from a definition's [curve] / [sweep].
// None of them is a SNIA PTS test: their reports say so on every page. Durations are already
// multiplied by TestPlan::time_scale; the spec_* fields keep the definition's values.
// May use: core.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace pts::model {

/// The labs' preconditioning (not the PTS's): secure erase (the sub-test's purge), the whole
/// surface written with 64 KiB sequential writes, one hour more of them, the test then confined
/// to a partition of the surface (the plan's ActiveRange), and before a random profile one hour
/// of 4 KiB random writes inside it. Its steps are the cells of a "review-precondition" sub-test.
struct ReviewPreconditionPlan {
  bool enabled = false;
  double seq_seconds = 3600;  ///< 64 KiB sequential writes after the fill (scaled)
  double spec_seq_seconds = 3600;
  double random_seconds = 3600;  ///< 4 KiB random writes in the ActiveRange; 0 = none (sequential profile)
  double spec_random_seconds = 3600;
};

/// Where a review-lab profile comes from, and whether it is the lab's own definition or one
/// built from a description of it (then every report says "approximation").
struct ProfileSource {
  std::string source;        ///< e.g. "VDbench curve, review lab (4K random read, 128 threads)"
  bool approximation = false;
  std::string threads_meaning;  ///< what the lab's "threads" is here, and its TC × QD
};

/// A latency-vs-load curve: a run at the maximum rate, then runs paced at fractions of the
/// achieved maximum, each after a warm-up that is excluded.
struct CurvePlan {
  std::string workload;        ///< [workload.ID]
  std::string workload_title;
  std::vector<double> fractions_pct;  ///< of the achieved maximum, in run order
  std::string arrival = "exponential";  ///< model::arrival_name of the points' arrivals
  double warmup_seconds = 0;   ///< before every measured point (scaled), excluded
  double spec_warmup_seconds = 0;
  double interval_seconds = 0; ///< every measured point (scaled)
  double spec_interval_seconds = 0;
  double stop_response_ms = 0; ///< stopcurve: end the curve after a point whose mean response exceeds it; 0 = never
  bool qd1_reference = true;   ///< a TC 1 / QD 1 run first: the latency the low points are compared with
  ProfileSource profile;
  ReviewPreconditionPlan review;
};

/// The cell id of the curve point at `pct` % of the maximum ("p10", "p12.5"); its warm-up is
/// the same id with "-warmup".
inline std::string curve_point_id(double pct) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "p%g", pct);
  return buf;
}

/// An Iometer-style sweep: steps of (workers × outstanding I/Os each, read share), each a ramp
/// (excluded) and a measured interval.
struct SweepPlan {
  std::string workload;
  std::string workload_title;
  double ramp_seconds = 0;     ///< before every step (scaled), excluded
  double spec_ramp_seconds = 0;
  double interval_seconds = 0; ///< every step (scaled)
  double spec_interval_seconds = 0;
  double climb_gain_pct = 4;   ///< writes stop climbing at the first doubling that gains less than this
  double littles_law_tolerance_pct = 5;  ///< |IOPS × mean latency ÷ (TC × QD) − 1| allowed per step
  ProfileSource profile;
  ReviewPreconditionPlan review;
};

}  // namespace pts::model
