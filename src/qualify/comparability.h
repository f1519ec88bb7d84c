// qualify/comparability.h — whether runs may be compared: the aspects a comparison must match
// (test and edition, block sizes, read shares, total outstanding I/O and its TC × QD split,
// targets per run, preconditioning, ActiveRange, write cache, cell length, steady-state rules,
// ptsuite version, simulated or real), each as plain text per run, and the aspects that differ.
// Review labs' pitfall list (review-workloads.md "What a comparison must match"). Pure: no
// files. May use: core, model, report (labels).
#pragma once

#include <string>
#include <vector>

#include "model/run_record.h"

namespace pts::qualify {

/// One aspect of a run as compared: its name and its value in words ("TC × QD", "4 × 32").
struct Aspect {
  std::string name;
  std::string value;
};

/// Every aspect of `record`, in a fixed order.
std::vector<Aspect> comparability_aspects(const model::RunRecord& record);

/// An aspect on which the runs differ: every run's value, in the order the runs were given.
struct Difference {
  std::string aspect;
  std::vector<std::string> values;
  /// "TC × QD split: a 4 × 32; b 2 × 64" (run names as given).
  std::string text;
};

/// The aspects on which `runs` differ (empty: comparable). `names` labels the runs in texts.
std::vector<Difference> differences(const std::vector<const model::RunRecord*>& runs,
                                    const std::vector<std::string>& names);

/// Targets one run drove (1 for every record of this format; a run over several drives at once
/// records more).
uint32_t targets_per_run(const model::RunRecord& record);

}  // namespace pts::qualify
