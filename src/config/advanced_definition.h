// config/advanced_definition.h — the parts of a tests-pts definition that the advanced tests
// use: named workloads ([workload.ID], the access specs a procedure runs) and one table per
// procedure ([wsat], [hir], [xsr], [dirth]) with its durations, stop rules and the readings
// of details the spec sources leave unconfirmed. Plain data, filled and validated by
// definition_loader (advanced_loader.cpp). May use: core, model.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/access_spec.h"

namespace pts::config {

/// Procedure names a definition may give in [test] procedure (pts/procedure.cpp runs them).
inline constexpr const char* kProcSteadyRounds = "steady-rounds";
inline constexpr const char* kProcWsat = "wsat";
inline constexpr const char* kProcHir = "hir";
inline constexpr const char* kProcXsr = "xsr";
inline constexpr const char* kProcDirth = "dirth";

/// A named access spec ([workload.ID]): pattern, R/W mix, one block size or a split.
struct WorkloadDef {
  std::string id;
  std::string title;                          ///< e.g. "Write Intensive RND 4 KiB W"
  model::AccessPattern pattern = model::AccessPattern::Random;
  uint32_t read_pct = 0;
  uint32_t block_bytes = 0;                   ///< 0 when bs_split is set
  std::vector<model::BlockSizeShare> bs_split;
  std::vector<model::AccessZone> zones;       ///< zoned random distribution (zones = "50/5:30/15:20/80"); empty = uniform
  int line = 0;
  int zones_line = 0;
};

/// [wsat]
struct WsatDef {
  std::string workload;            ///< default stimulus (a [workload.ID])
  double max_hours = 24;
  double capacity_multiple = 4;
  bool stop_at_steady = false;
  uint32_t fob_samples = 5;
  double cliff_fraction = 0.5;
  uint32_t plateau_samples = 30;
  int line = 0;
};

/// [hir]
struct HirDef {
  std::string workload;
  uint32_t precondition_round_cells = 30;  ///< cells per preconditioning Round; the last is tracked
  std::vector<double> wait_seconds;        ///< Access B idle per wait state
  double access_a_seconds = 5;
  uint32_t repetitions = 360;
  double access_c_seconds = 1800;
  std::string baseline = "precondition";
  int line = 0;
};

/// One [[xsr.group]].
struct XsrGroupDef {
  std::string id;
  std::string workload;
  double hours = 0;
  int line = 0;
};

/// [xsr]
struct XsrDef {
  std::vector<XsrGroupDef> groups;
  std::string recovery_reference = "group1-mean";
  double recovery_tolerance_pct = 5;  ///< a group 3 sample within this % below the reference has recovered
  int line = 0;
};

/// [dirth] (also ECW, which runs on the DIRTH procedure with its own workloads)
struct DirthDef {
  std::string workload;               ///< the sweep and histogram stimulus
  std::string precondition_workload;  ///< preconditioning and pre-writes
  uint32_t precondition_round_cells = 30;
  std::vector<uint32_t> thread_counts;
  std::vector<uint32_t> queue_depths;
  std::string sweep_order = "toio-descending";
  double art_ceiling_ms = 5;
  double round_prewrite_minutes = 5;
  double histogram_prewrite_minutes = 60;
  double histogram_minutes = 10;
  std::string mid_rule = "closest-to-midpoint-under-ceiling";
  int line = 0;
  int grid_line = 0;     ///< thread_counts, for messages about the grid
  int ceiling_line = 0;
};

/// Everything above for one definition.
struct AdvancedDef {
  std::map<std::string, WorkloadDef> workloads;
  std::optional<WsatDef> wsat;
  std::optional<HirDef> hir;
  std::optional<XsrDef> xsr;
  std::optional<DirthDef> dirth;
};

}  // namespace pts::config
