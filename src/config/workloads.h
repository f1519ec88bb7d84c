// config/workloads.h — internal to config/: named workloads ([workload.ID]) for the procedures
// that run them (WSAT, HIR, XSR, DIRTH): read and checked from a definition, turned into access
// specs and cells over the plan's ActiveRange, the stimulus an operator may choose, the
// steady-state preconditioning sub-test built from one, and durations in words. Included by
// config/*.cpp only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/procedure.h"

namespace pts::config::detail {

/// Reads every [workload.ID] table into d.workloads (at least one).
void read_workloads(TableReader& top, Problems& p, TestDefinition& d);

/// `name` names a [workload.*] of the definition; else a problem at `line` ("<where> names
/// workload 'x', which no [workload.x] defines (defined: ...)").
void check_workload(const TestDefinition& d, const std::string& name, const std::string& where, int line,
                    Problems& p);

/// Every edition/class `workloads` list names defined workloads.
void check_class_workloads(const TestDefinition& d, Problems& p);

/// "RND 4 KiB 0/100", or "RND 12-size block mix 40/60" for a split.
std::string workload_label(const WorkloadDef& w);

/// The workload as the target can run it. A block-size mix loses the sizes the target cannot
/// issue (below, or not a multiple of, its LBA size: ECW's 0.5–3.5 KiB on a 4096-byte LBA
/// format, as the IOPS test leaves out its 0.5 KiB cells), and the kept sizes' shares are
/// renormalised to 100 % in proportion (model::renormalised_split), recorded once per workload
/// as the deviation "bs-split-lba". `w` itself when nothing is left out, or when nothing could
/// run (workload_spec then names every size as an error).
const WorkloadDef& runnable(ResolveCtx& c, const WorkloadDef& w);

/// The workload as an access spec at TC `threads` × QD `queue_depth` for `seconds`, over the
/// plan's ActiveRange, with the operator's seed, its mix as runnable() gives it. Block sizes
/// the target cannot run are errors (a single size, or a mix with none left).
model::AccessSpec workload_spec(ResolveCtx& c, const WorkloadDef& w, uint32_t threads, uint32_t queue_depth,
                                double seconds);

model::CellPlan make_cell(std::string id, std::string label, model::AccessSpec spec);

/// The stimulus: --workload when given (a deviation unless the edition/class lists it), else
/// `default_id`, as the target can run it (runnable()). Null after adding an error (an unknown id).
const WorkloadDef* stimulus(ResolveCtx& c, const std::string& default_id);

/// Whether the sub-tests purge (the definition's purge, unless --purge none was chosen).
bool purge_wanted(ResolveCtx& c);

/// For the client class of a test the sources do not segment (WSAT, HIR, XSR): states that its
/// ActiveRange is one range, as a reading (docs/pts-rules.md "Client class").
void note_unsegmented_client(ResolveCtx& c);

/// Steady-state preconditioning sub-test: Rounds of `cells_per_round` cells of `w` at the
/// plan's TC/QD; the Tracking Variable is the IOPS of each Round's last cell (its first with
/// `track_first`).
model::SubTestPlan precondition_subtest(ResolveCtx& c, const WorkloadDef& w, uint32_t cells_per_round,
                                        const std::string& title, bool track_first = false);

/// A steady-Rounds sub-test of a procedure with phases of its own (its preconditioning): worst
/// case max_rounds × its cells, and its description.
SubtestWorstCase rounds_worst_case(const model::TestPlan& plan, const model::SubTestPlan& sub);
SubtestText describe_rounds(const model::TestPlan& plan, const model::SubTestPlan& sub);

/// "8 h", "5 min", "30 s", "1.5 s" for plans and deviations.
std::string duration_words(double seconds);

/// "TC 4 / QD 32", the plan's.
std::string tcqd(const model::TestPlan& p);

}  // namespace pts::config::detail
