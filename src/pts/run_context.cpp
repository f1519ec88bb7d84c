// pts/run_context.cpp — see run_context.h.
#include "pts/run_context.h"

#include <algorithm>

#include "device/confirm.h"
#include "engine/fidelity_check.h"
#include "pts/stream_positions.h"

namespace pts::runner {

RunContext::RunContext(RunEnv& env, model::RunRecord record) : env_(env), state_(std::move(record)) {}

bool RunContext::stop_requested() const {
  return env_.controls.stop_after_cell && env_.controls.stop_after_cell->load(std::memory_order_relaxed);
}

core::Status RunContext::transition(const std::string& state, size_t subtest, uint32_t round,
                                    const std::string& detail) {
  model::Transition t;
  t.state = state;
  if (subtest < record().plan.subtests.size()) t.subtest = record().plan.subtests[subtest].id;
  t.round = round;
  t.wall_ns = env_.clock.wall_ns();
  t.detail = detail;
  auto st = env_.sink.transition(t);
  if (!st.ok()) return st;
  if (env_.observer) env_.observer->state(t);
  return state_.transition(t);
}

core::Status RunContext::deviation(const std::string& code, const std::string& text) {
  model::Deviation d{code, text};
  auto st = env_.sink.deviation(d);
  if (!st.ok()) return st;
  return state_.deviation(d);
}

core::Status RunContext::deviation_once(const std::string& code, const std::string& text) {
  for (const auto& d : record().deviations)
    if (d.code == code && d.text == text) return core::ok_status();
  return deviation(code, text);
}

core::Status RunContext::purge(size_t subtest, const model::PurgeRecord& p) {
  auto st = env_.sink.purge(subtest, p);
  if (!st.ok()) return st;
  return state_.purge(subtest, p);
}

core::Status RunContext::precondition(size_t subtest, const model::PreconditionRecord& p) {
  auto st = env_.sink.precondition(subtest, p);
  if (!st.ok()) return st;
  return state_.precondition(subtest, p);
}

core::Status RunContext::cell(size_t subtest, uint32_t round, const model::CellResult& r) {
  auto st = env_.sink.cell(subtest, round, r);
  if (!st.ok()) return st;
  return state_.cell(subtest, round, r);
}

core::Status RunContext::round_end(size_t subtest, const model::RoundRecord& summary) {
  auto st = env_.sink.round_end(subtest, summary);
  if (!st.ok()) return st;
  st = state_.round_end(subtest, summary);
  if (st.ok() && env_.observer) env_.observer->round_finished(subtest, record().subtests[subtest].rounds.back());
  return st;
}

core::Status RunContext::subtest_end(size_t subtest, const model::SubTestRecord& summary) {
  // Cells that did not hold their queue depth, or that the kernel's counters contradict,
  // become one deviation per sub-test listing them (deviation_once: a resume that repeats
  // this step adds nothing).
  std::vector<engine::FlaggedCell> flagged;
  const auto& rec = record().subtests[subtest];
  if (rec.wipc) flagged.push_back({0, &rec.wipc->result});
  for (const auto& round : rec.rounds)
    for (const auto& c : round.cells) flagged.push_back({round.round, &c});
  const std::string text = engine::fidelity_deviation_text(summary.id, flagged);
  if (!text.empty()) {
    auto dev = deviation_once("measurement-fidelity", text);
    if (!dev.ok()) return dev;
  }
  auto st = env_.sink.subtest_end(subtest, summary);
  if (!st.ok()) return st;
  return state_.subtest_end(subtest, summary);
}

core::Status RunContext::finish(model::RunState run_state, const std::string& failure) {
  model::RunRecord fin = record();
  fin.state = run_state;
  fin.failure = failure;
  fin.ended_wall_ns = env_.clock.wall_ns();
  (void)state_.finish(fin);
  return env_.sink.finish(fin);
}

core::Status RunContext::check_identity(const std::string& before_what) {
  auto now = env_.device.identify();
  if (!now.ok()) {
    core::Error e = now.take_error();
    e.messages.insert(e.messages.begin(), "identity re-check before " + before_what + " failed");
    return e;
  }
  auto same = device::check_identity_unchanged(record().device, *now);
  if (!same.ok()) {
    core::Error e = same.take_error();
    e.messages.insert(e.messages.begin(), "identity re-check before " + before_what + ":");
    return e;
  }
  return core::ok_status();
}

core::Result<EngineRun> RunContext::run_engine(const model::AccessSpec& spec, bool abort_on_stop,
                                               const CellPosition& pos) {
  // Sequential streams continue where the last sequential run of this sub-test left them.
  model::AccessSpec run_spec = spec;
  if (run_spec.pattern == model::AccessPattern::Sequential && run_spec.stream_start_bytes.empty())
    run_spec.stream_start_bytes = stream_resume_point(record(), pos.subtest, run_spec);
  return measured(abort_on_stop, pos, [&](const std::atomic<bool>* abort, const engine::ProgressFn& progress) {
    return env_.engine.run(run_spec, abort, progress);
  });
}

core::Result<EngineRun> RunContext::run_engine_jobs(const std::vector<model::JobSpec>& jobs, bool allow_overlap,
                                                    bool abort_on_stop, const CellPosition& pos) {
  return measured(abort_on_stop, pos, [&](const std::atomic<bool>* abort, const engine::ProgressFn& progress) {
    return env_.engine.run_jobs(jobs, allow_overlap, abort, progress);
  });
}

core::Result<EngineRun> RunContext::measured(
    bool abort_on_stop, const CellPosition& pos,
    const std::function<core::Result<model::CellResult>(const std::atomic<bool>*, const engine::ProgressFn&)>& go) {
  abort_flag_.store(false);
  // The engine watches one flag; a watcher would cost a thread, so the flag it watches is
  // the operator's own: abort_now for cells, stop_after_cell for WIPC.
  const std::atomic<bool>* abort = abort_on_stop ? env_.controls.stop_after_cell : env_.controls.abort_now;
  if (!abort) abort = &abort_flag_;
  engine::ProgressFn progress;
  if (env_.observer)
    progress = [this, &pos](double elapsed, uint64_t ios) { env_.observer->cell_progress(pos, elapsed, ios); };

  EngineRun out;
  const uint64_t called_ns = env_.clock.monotonic_ns();
  const uint64_t start_wall = env_.clock.wall_ns();
  auto result = go(abort, progress);
  const uint64_t returned_ns = env_.clock.monotonic_ns();
  // The gap is the drive's idle time, from the engine's I/O phase, which it measures on the
  // run's monotonic clock (IoPhase): the io_uring engine and the simulated drive's report one
  // for every run that submitted I/O. Without one (an engine that keeps none: none in src/,
  // the tests' fake when told to; or a run that submitted nothing) that run's side falls back
  // to run() called / returned, which leaves the engine's set-up and drain out.
  const auto phase = env_.engine.last_io_phase();
  const uint64_t io_start_ns = phase ? phase->first_submit_ns : called_ns;
  if (last_io_end_ns_) {
    const uint64_t idle_span_ns = io_start_ns > *last_io_end_ns_ ? io_start_ns - *last_io_end_ns_ : 0;
    // The procedure's own host idle lies inside that span; it is the Round's idle_after.
    out.gap_before_ns = idle_span_ns - std::min(idle_span_ns, procedure_idle_ns_);
  }
  last_io_end_ns_ = phase ? phase->last_completion_ns : returned_ns;
  procedure_idle_ns_ = 0;
  if (!result.ok()) return result.take_error();
  out.result = std::move(result.value());
  if (out.result.started_wall_ns == 0) out.result.started_wall_ns = start_wall;
  out.stopped_early = abort->load();
  if (out.gap_before_ns) round_gaps_.push_back(*out.gap_before_ns);
  return out;
}

}  // namespace pts::runner
