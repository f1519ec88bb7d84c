// app/lockstep.h — several drives running one test in lockstep (`ptsuite run TEST T1 T2 ...`):
// each drive's PTS state machine runs on its own thread with its own record, and every engine
// call it makes meets the others' here. When every drive still running has asked for its next
// cell (or waits at the end of a sub-test), they run together as one multi-job cell, one job
// per drive: real drives through the io_uring engine's multi-job cell over all their held
// descriptors (one barrier, one t0, one clock); simulated drives each on their own engine in
// their own virtual time (each drive has its own clock: the cell is the same interval of each
// drive's time), all started at one barrier. Each drive gets its own job's result, with its
// placement (job id = its label, target index = its place in the run). A drive whose sub-test is
// done (steady state reached, or the maximum of Rounds) serves as load — the cell the others
// run, with its own seed — until they are all done with it; those cells are in the lockstep
// log, not in its record. A drive that fails or stops leaves; the others go on without it.
// Every interval is one line of OUT/lockstep.jsonl (fsync'd): each drive's role and figures.
// May use: every module.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/io_engine.h"
#include "pts/run_env.h"

namespace pts::app {

/// The name of the lockstep log under the run root.
inline constexpr const char* kLockstepLog = "lockstep.jsonl";

struct LockstepMember {
  std::string label;                   ///< its run directory's name; its job's id in every cell
  std::string target;                  ///< as records store it
  uint64_t size_bytes = 0;             ///< its capacity (the job's range)
  engine::IoEngine* own = nullptr;     ///< its own engine; null: `combined` runs its jobs
};

class Lockstep {
 public:
  /// `combined` (may be null): an engine whose job target i is members[i] (the io_uring engine
  /// over every real drive); else every member has its own engine. `log_path`: appended to.
  Lockstep(std::vector<LockstepMember> members, engine::IoEngine* combined, const std::string& log_path, bool quiet);
  ~Lockstep();
  Lockstep(const Lockstep&) = delete;
  Lockstep& operator=(const Lockstep&) = delete;

  /// What drive i's state machine runs on (RunEnv): its engine, its gate and its observer.
  engine::IoEngine& engine(size_t i);
  runner::LockstepGate& gate(size_t i);
  runner::RunObserver& observer(size_t i);

  /// Drive i's run ended (complete, failed or stopped): never waited for again.
  void leave(size_t i);

  /// A problem writing the lockstep log ("" when none): the runs go on, the aggregate is short.
  std::string log_problem() const;

 private:
  struct Slot;
  class DriveEngine;
  class DriveGate;
  class DriveObserver;
  friend class DriveEngine;
  friend class DriveGate;
  friend class DriveObserver;

  core::Result<model::CellResult> request(size_t i, const model::AccessSpec& spec, const std::atomic<bool>* abort);
  runner::LockstepGate::Held hold(size_t i);
  /// Waits, running intervals and releasing holders when it is this thread's turn, until `done`.
  template <class Done>
  void pump(std::unique_lock<std::mutex>& lk, Done done);
  bool interval_ready() const;
  bool release_ready() const;
  void run_interval(std::unique_lock<std::mutex>& lk);

  std::vector<LockstepMember> members_;
  engine::IoEngine* combined_;
  std::vector<std::unique_ptr<Slot>> slots_;
  int log_fd_ = -1;
  std::string log_problem_;
  uint64_t interval_ = 0;
  uint64_t request_seq_ = 0;
  bool busy_ = false;
  bool quiet_ = false;
  mutable std::mutex mu_;
  std::condition_variable cv_;
};

}  // namespace pts::app
