// pts/runner.cpp — see runner.h.
#include "pts/runner.h"

#include <algorithm>
#include <cstdio>

#include "core/clock.h"
#include "device/confirm.h"
#include "pts/phases.h"
#include "pts/procedure.h"
#include "pts/run_context.h"
#include "pts/write_cache.h"
#include "results/record_builder.h"

namespace pts::runner {

namespace {

using core::ErrorKind;

model::Transition make_transition(core::Clock& clock, const std::string& state, const std::string& detail) {
  model::Transition t;
  t.state = state;
  t.wall_ns = clock.wall_ns();
  t.detail = detail;
  return t;
}

std::string identity_text(const model::DeviceIdentity& id) {
  return id.model + " serial " + id.serial + " firmware " + id.firmware + ", " + std::to_string(id.capacity_bytes) +
         " bytes";
}

/// Runs every sub-test that is not complete, then finishes the record.
RunResult execute(RunContext& ctx) {
  RunResult out;
  out.journaled = true;
  auto fail = [&](core::Error e) {
    (void)ctx.transition("Failed", 0, 0, e.message());
    (void)restore_write_cache_step(ctx);
    (void)ctx.finish(model::RunState::Failed, e.message());
    out.record = ctx.record();
    out.error = std::move(e);
    return out;
  };
  const Procedure* proc = find_procedure_for(ctx.record().plan);
  if (!proc)
    return fail(core::Error(ErrorKind::Internal, "no procedure runs test '" + ctx.record().plan.test_id + "'" +
                                                     (ctx.record().plan.procedure.empty()
                                                          ? std::string()
                                                          : " (procedure '" + ctx.record().plan.procedure + "')")));
  for (size_t i = 0; i < ctx.record().subtests.size(); ++i) {
    auto step = proc->run_subtest(ctx, i);
    if (!step.ok()) return fail(step.take_error());
    if (*step == StepOutcome::Done && ctx.env().lockstep) {
      // Steady state (or the sub-test's end) is this drive's own: its Measurement Window is
      // fixed; it now serves as load until every other drive is done with this sub-test.
      const auto held = ctx.env().lockstep->subtest_done(i);
      if (held.load_cells) {
        auto st = ctx.transition("LockstepLoad", i, 0,
                                 "this drive's sub-test was done; it served as load in " +
                                     std::to_string(held.load_cells) + " lockstep cell(s) not in this record while " +
                                     held.waited_for + " went on");
        if (!st.ok()) return fail(st.take_error());
      }
      if (!held.failure.empty()) return fail(core::Error(ErrorKind::Io, held.failure));
    }
    if (*step == StepOutcome::Interrupted) {
      auto st = ctx.transition("Interrupted", i, 0, "stopped by the operator; " + describe_position(ctx.record()));
      if (st.ok()) st = restore_write_cache_step(ctx);
      if (st.ok()) st = ctx.finish(model::RunState::Interrupted, "interrupted by the operator");
      out.record = ctx.record();
      if (!st.ok()) out.error = st.take_error();
      return out;
    }
  }
  auto st = restore_write_cache_step(ctx);
  if (st.ok()) st = ctx.finish(model::RunState::Complete, "");
  out.record = ctx.record();
  if (!st.ok()) out.error = st.take_error();
  return out;
}

/// Wall time of the last thing the journal knows happened.
uint64_t last_event_wall_ns(const model::RunRecord& r) {
  uint64_t t = std::max(r.started_wall_ns, r.ended_wall_ns);
  for (const auto& tr : r.transitions) t = std::max(t, tr.wall_ns);
  for (const auto& s : r.subtests) {
    if (s.wipc) t = std::max(t, s.wipc->result.started_wall_ns + static_cast<uint64_t>(s.wipc->result.seconds * 1e9));
    for (const auto& round : s.rounds) {
      t = std::max(t, round.ended_wall_ns);
      for (const auto& c : round.cells)
        t = std::max(t, c.started_wall_ns + static_cast<uint64_t>(c.seconds * 1e9));
    }
  }
  return t;
}

}  // namespace

std::string describe_position(const model::RunRecord& record) {
  for (size_t i = 0; i < record.subtests.size(); ++i) {
    const auto& s = record.subtests[i];
    if (s.complete) continue;
    std::string where = "sub-test " + s.id + ", ";
    if (s.rounds.empty()) {
      if (s.wipc && s.wipc->completed) return where + "WIPC done, before round 1";
      if (s.purge) return where + "after the purge, before WIPC completed";
      return where + "before the purge";
    }
    const auto& last = s.rounds.back();
    size_t cells = 0;
    if (i < record.plan.subtests.size())
      for (const auto& c : record.plan.subtests[i].cells) cells += c.applicable ? 1 : 0;
    if (last.ended_wall_ns == 0)
      return where + "round " + std::to_string(last.round) + ", after cell " + std::to_string(last.cells.size()) +
             " of " + std::to_string(cells);
    return where + "after round " + std::to_string(last.round);
  }
  return "all sub-tests complete";
}

RunResult start_run(RunEnv& env, model::RunRecord header) {
  RunResult out;
  out.record = header;
  auto id = env.device.identify();
  if (!id.ok()) {
    out.error = id.take_error();
    return out;
  }
  if (!header.device.serial.empty()) {
    auto same = device::check_identity_unchanged(header.device, *id);
    if (!same.ok()) {
      out.error = same.take_error();
      return out;
    }
  }
  header.device = *id;
  header.transitions.push_back(make_transition(env.clock, "Identify", identity_text(*id)));
  auto guard = env.device.guard();
  if (!guard.ok()) {
    out.error = guard.take_error();
    return out;
  }
  header.transitions.push_back(make_transition(env.clock, "Guard", "passed"));
  header.write_cache_original = read_write_cache_setting(env.device);  // before ptsuite changes it
  const auto cache = apply_write_cache(env.device, header.plan, header.write_cache_original);
  header.write_cache = cache.state;
  if (!cache.problem.empty()) header.deviations.push_back({"write-cache", cache.problem});
  header.transitions.push_back(make_transition(
      env.clock, "WriteCache",
      std::string(write_cache_name(cache.state)) + (cache.how.empty() ? "" : ", " + cache.how) +
          "; before the run: " + write_cache_setting_text(header.write_cache_original)));
  if (env.observer) env.observer->state(header.transitions.back());
  header.state = model::RunState::Running;
  if (header.started_wall_ns == 0) header.started_wall_ns = env.clock.wall_ns();
  results::RecordBuilder shaped;  // sizes subtests from the plan, exactly as the journal will
  (void)shaped.begin(header);
  header = shaped.record();
  auto st = env.sink.begin(header);
  if (!st.ok()) {
    (void)restore_write_cache(env.device, header);  // nothing journaled: nothing will resume
    out.error = st.take_error();
    return out;
  }
  RunContext ctx(env, header);
  return execute(ctx);
}

RunResult resume_run(RunEnv& env, model::RunRecord loaded) {
  RunResult out;
  out.record = loaded;
  if (loaded.state == model::RunState::Complete) {
    out.journaled = true;
    return out;
  }
  auto id = env.device.identify();
  if (!id.ok()) {
    out.error = id.take_error();
    return out;
  }
  auto same = device::check_identity_unchanged(loaded.device, *id);
  if (!same.ok()) {
    core::Error e = same.take_error();
    e.messages.insert(e.messages.begin(), "resume refused: the target is not the drive this run started on");
    out.error = std::move(e);
    return out;
  }
  auto guard = env.device.guard();
  if (!guard.ok()) {
    out.error = guard.take_error();
    return out;
  }
  const uint64_t now = env.clock.wall_ns();
  const uint64_t last = last_event_wall_ns(loaded);
  const double lost_s = now > last ? static_cast<double>(now - last) / 1e9 : 0.0;
  const std::string where = describe_position(loaded);
  const char* how = loaded.state == model::RunState::Interrupted ? "interrupted"
                    : loaded.state == model::RunState::Failed    ? "stopped by a failure"
                                                                 : "killed or crashed";
  RunContext ctx(env, std::move(loaded));
  out.journaled = true;
  auto st = ctx.transition(results::kResumeState, 0, 0, std::string("resuming a run that was ") + how + " at " + where);
  if (st.ok()) st = ctx.transition("Identify", 0, 0, identity_text(*id) + " (unchanged)");
  if (st.ok()) st = ctx.transition("Guard", 0, 0, "passed");
  if (st.ok()) {
    const auto cache = apply_write_cache(env.device, ctx.record().plan, ctx.record().write_cache_original);
    st = ctx.transition("WriteCache", 0, 0,
                        std::string(write_cache_name(cache.state)) + (cache.how.empty() ? "" : ", " + cache.how));
    if (st.ok() && !cache.problem.empty()) st = ctx.deviation_once("write-cache", cache.problem);
  }
  if (st.ok()) {
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.1f", lost_s);
    st = ctx.deviation("resume-gap", std::string("The run was ") + how + " at " + where + " and resumed at " +
                                         core::iso8601_utc(now) + "; " + secs +
                                         " s passed since the last journaled event (" + core::iso8601_utc(last) +
                                         "). A cell in flight was discarded and run again; the cells on either "
                                         "side of the gap ran with the device idle in between.");
  }
  if (!st.ok()) {
    (void)restore_write_cache(env.device, ctx.record());
    out.record = ctx.record();
    out.error = st.take_error();
    return out;
  }
  return execute(ctx);
}

}  // namespace pts::runner
