// app/resume_target.h — the two steps of `resume` before the state machine, shared by a
// one-drive resume and a multi-drive one (every unfinished drive of the run): the run
// directory's journal taken over (trusted directory, the journal's lock, a torn tail dropped,
// run.json rebuilt when behind), then the run's target through the one guard entry point again
// with the confirmation asked again (a file or simulated drive the run created needs none),
// refused when the path now names another drive, and the engine for its plan.
// May use: every module.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "app/target_open.h"
#include "core/result.h"
#include "engine/io_engine.h"
#include "engine/io_target.h"
#include "results/journal.h"

namespace pts::app {

/// Takes RUNDIR's journal over (see the top of this file); `command` prefixes what is printed.
core::Result<results::ResumableJournal> take_journal(const std::string& dir, bool quiet, const char* command);

/// The run's target held again for `rec`, its inspection and, unless `no_engine`, its plan's engine.
struct ResumedTarget {
  WritableTarget writable;
  engine::TargetInfo info;
  std::unique_ptr<engine::IoEngine> engine;
};
core::Result<ResumedTarget> hold_resumed_target(const model::RunRecord& rec, const std::optional<std::string>& confirm,
                                                bool force_signatures, bool quiet, const char* command,
                                                bool no_engine = false);

}  // namespace pts::app
