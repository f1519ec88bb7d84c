// app/cmd_resume_multi.cpp — `ptsuite resume ROOT` of a multi-drive run (ROOT holds the
// manifest lockstep.json): every drive's journal taken over, the complete ones left alone, every
// unfinished one through the guard again with its confirmation (--confirm A,B,...: one value per
// drive of the run, in the manifest's order; none for drives the run created) and resumed, all
// of them in lockstep again from where each journal stands. The lockstep log goes on and the
// aggregate is written again. Every drive is taken before any is written (a refusal stops all).
// May use: every module.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "app/command_fail.h"
#include "app/cell_targets.h"
#include "app/commands.h"
#include "app/guarded_target.h"
#include "app/multi_session.h"
#include "app/resume_target.h"
#include "results/run_dir.h"

namespace pts::app {

namespace {

int fail(const std::vector<std::string>& messages, int code) { return fail_command("resume", messages, code); }

}  // namespace

int cmd_resume_multi(const ResumeArgs& args) {
  std::vector<std::string> errors = args.errors;
  const SessionOptions session = session_options(args.session, errors);
  if (!errors.empty()) return fail(errors, 2);
  const std::string& root = args.run_dir;
  if (auto trusted = results::check_run_dir_trusted(root); !trusted.ok()) return fail(trusted.error().messages, 2);
  auto manifest = read_manifest(root);
  if (!manifest.ok()) return fail(manifest.error().messages, core::exit_code(manifest.error().kind));
  const auto& md = manifest->drives;
  const std::vector<std::string> confirms = confirm_values(args.confirm);
  if (!confirms.empty() && confirms.size() != md.size())
    return fail({"--confirm: " + std::to_string(confirms.size()) + " value(s) for the run's " +
                 std::to_string(md.size()) + " drives: give one per drive, in the run's order (A,B,...)"}, 2);

  std::vector<LockstepDriveRun> runs;
  std::vector<results::ResumableJournal> journals;
  std::vector<engine::TargetInfo> infos;
  journals.reserve(md.size());
  size_t unfinished = 0, simulated = 0;
  for (size_t i = 0; i < md.size(); ++i) {
    LockstepDriveRun r;
    r.label = md[i].label;
    r.dir = (std::filesystem::path(root) / md[i].label).string();
    auto taken = take_journal(r.dir, session.quiet, "resume");
    if (!taken.ok()) return fail(taken.error().messages, core::exit_code(taken.error().kind));
    journals.push_back(std::move(taken.value()));
    const model::RunRecord& rec = journals.back().loaded.record;
    infos.emplace_back();
    if (rec.state == model::RunState::Complete) {
      r.skip = true;
      r.target.path = rec.device.path;
      if (!session.quiet) std::fprintf(stderr, "ptsuite resume: [%s] complete; left alone\n", r.label.c_str());
      runs.push_back(std::move(r));
      continue;
    }
    ++unfinished;
    simulated += is_simulated(rec.device.path) ? 1 : 0;
    if (!session.quiet)
      std::fprintf(stderr, "ptsuite resume: [%s] %s on %s, %s\n", r.label.c_str(), rec.plan.title.c_str(),
                   rec.device.path.c_str(), runner::describe_position(rec).c_str());
    const std::optional<std::string> confirm = confirms.empty() ? std::nullopt : std::optional(confirms[i]);
    auto held = hold_resumed_target(rec, confirm, args.force_signatures, session.quiet, "resume",
                                    !is_simulated(rec.device.path));
    if (!held.ok()) return fail(held.error().messages, core::exit_code(held.error().kind));
    r.target = std::move(held->writable);
    r.own = std::move(held->engine);
    infos.back() = held->info;
    r.size_bytes = rec.device.capacity_bytes;
    r.sink = std::move(journals.back().sink);
    r.go = [rec](runner::RunEnv& env) { return runner::resume_run(env, rec); };
    runs.push_back(std::move(r));
  }
  if (unfinished == 0) {
    std::printf("ptsuite resume: every drive's run in %s is complete; nothing to do\n", root.c_str());
    return 0;
  }
  std::unique_ptr<engine::IoEngine> combined;
  if (simulated != unfinished) {  // real drives: the io_uring engine's multi-job cell over the unfinished ones
    if (simulated) return fail({"the run mixes real and simulated drives"}, 2);
    std::vector<engine::IoTarget> io;
    for (size_t i = 0; i < runs.size(); ++i)
      if (!runs[i].skip)
        io.push_back(engine_target(*runs[i].target.held, runs[i].target.path, infos[i].target.size_bytes,
                                   infos[i].target.logical_block_bytes));
    auto eng = engine::open_uring_engine(io, std::vector<bool>(io.size(), true));
    if (!eng.ok()) return fail(eng.error().messages, core::exit_code(eng.error().kind));
    combined = std::move(eng.value());
  }
  int code = run_lockstep("resume", root, manifest->test_id, runs, combined.get(), session);
  combined.reset();
  for (auto& r : runs) {
    if (r.skip) continue;
    r.own.reset();
    if (!close_target(r.target, "resume") && code == 0) code = core::exit_code(core::ErrorKind::Internal);
  }
  return code;
}

}  // namespace pts::app
