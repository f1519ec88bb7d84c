// pts/run_env.h — what the PTS state machine runs against: the engine, the target, a clock,
// a RecordSink, the operator's stop controls and an optional observer for a progress
// display. Only interfaces, so unit tests drive the machine in fake time and a simulated
// drive can drive it unchanged. May use: core, model, engine, device.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/clock.h"
#include "device/target_device.h"
#include "engine/io_engine.h"
#include "model/cell.h"
#include "model/plan.h"
#include "model/run_record.h"
#include "model/sink.h"

namespace pts::runner {

/// Operator controls, typically set from a signal handler.
struct RunControls {
  /// First Ctrl-C: finish the cell in flight, journal it, then stop (state Interrupted).
  /// A WIPC pass in flight is cut short (it is redone on resume).
  const std::atomic<bool>* stop_after_cell = nullptr;
  /// Second Ctrl-C: abort the cell in flight through the engine's abort flag.
  const std::atomic<bool>* abort_now = nullptr;
};

/// Where a cell sits in the run, for progress displays.
struct CellPosition {
  size_t subtest = 0;
  size_t subtest_count = 1;
  std::string subtest_id;
  uint32_t round = 0;           ///< 0 for WIPC
  uint32_t max_rounds = 0;
  bool unbounded_rounds = false;///< continue past max rounds
  size_t cell_index = 0;        ///< 0-based within the round
  size_t cells_in_round = 0;
  std::string cell_id;          ///< "WIPC" for preconditioning
  std::string label;
  double cell_seconds = 0;      ///< planned duration (0 for a byte-limited WIPC)
  uint64_t bytes_limit = 0;     ///< WIPC byte budget
};

/// Receives what the state machine does, as it happens (app/progress draws it). Called on
/// the runner's thread (cell_progress from the engine's progress callback).
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  virtual void state(const model::Transition&) {}
  virtual void cell_started(const CellPosition&) {}
  virtual void cell_progress(const CellPosition&, double /*elapsed_seconds*/, uint64_t /*ios_done*/) {}
  virtual void cell_finished(const CellPosition&, const model::CellResult&) {}
  virtual void round_finished(size_t /*subtest*/, const model::RoundRecord&) {}
};

/// Several drives run one test in lockstep (app/lockstep.h): every cell on every drive in the
/// same interval. The runner calls it when a drive's sub-test is done; it returns once every
/// drive still running has finished that sub-test too. Meanwhile the drive serves as load in
/// the cells the others still run (its record takes none of them): it returns how many.
class LockstepGate {
 public:
  virtual ~LockstepGate() = default;
  struct Held {
    uint64_t load_cells = 0;     ///< cells it served as load while it waited
    std::string waited_for;      ///< the drives it waited for, in words
    std::string failure;         ///< its I/O failed while it served as load ("" when none)
  };
  virtual Held subtest_done(size_t subtest) = 0;
};

/// Everything the state machine needs; all references outlive the run.
struct RunEnv {
  engine::IoEngine& engine;
  device::TargetDevice& device;
  core::Clock& clock;
  model::RecordSink& sink;
  RunControls controls;
  RunObserver* observer = nullptr;
  LockstepGate* lockstep = nullptr;  ///< set when the drive runs in lockstep with others
};

}  // namespace pts::runner
