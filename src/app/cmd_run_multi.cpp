// app/cmd_run_multi.cpp — `ptsuite run TEST TARGET1 TARGET2 ... --out ROOT [--confirm WHAT]...`:
// the test on several drives in lockstep (app/lockstep.h, docs/multi-drive.md). The order of a
// one-drive run, for every drive before any of them is written: every input problem of every
// drive at once (exit 2: a target given twice, --confirm not once per TARGET, a drive not
// confirmed — checked on a read-only look at each —, real and simulated drives mixed, a test
// whose cells are multi-job cells of their own), then per drive the guard with its own consent
// (exit 3), its plan and engine; only when every drive holds does anything write. Each drive's
// record goes to ROOT/LABEL, the lockstep log, manifest and aggregate to ROOT.
// May use: every module.
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "app/command_fail.h"
#include "app/cell_targets.h"
#include "app/commands.h"
#include "app/guarded_target.h"
#include "app/multi_session.h"
#include "app/run_header.h"
#include "app/run_inputs.h"
#include "app/run_target.h"
#include "app/target_open.h"
#include "core/atomic_file.h"
#include "device/confirm.h"
#include "device/held_target.h"
#include "model/plan.h"
#include "pts/runner.h"
#include "results/journal.h"
#include "sim/target.h"

namespace pts::app {

namespace {

namespace fs = std::filesystem;

int fail(const std::vector<std::string>& messages, int code) { return fail_command("run", messages, code); }

/// The drive a target names, for "given twice": a simulated drive's state file (any namespace,
/// any spelling of its parameters that finds the same file), a real target's canonical path.
std::string drive_key(const std::string& t) {
  if (is_simulated(t)) {
    auto p = sim::parse_sim_target(t);
    return p.ok() ? "sim@" + p->state_path : t;
  }
  std::error_code ec;
  const auto c = fs::canonical(t, ec);
  return ec ? t : c.string();
}

/// A run directory name for a target: "sim-demo_op_28", "nvme0n1", "a.img"; unique in the run.
std::string label_for(const std::string& target, std::set<std::string>& taken) {
  std::string base;
  if (is_simulated(target)) {
    const std::string t = target.substr(0, target.find('@'));
    base = "sim-" + t.substr(4);
  } else {
    base = fs::path(target).filename().string();
  }
  std::string clean;  // sim:demo,op=28% → sim-demo-op28
  for (char c : base) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_') clean += c;
    else if (c == ',' || c == '/' || c == ':') clean += '-';
  }
  if (clean.empty() || clean == "." || clean == "..") clean = "drive";
  std::string label = clean;
  for (int n = 2; taken.count(label); ++n) label = clean + "-" + std::to_string(n);
  taken.insert(label);
  return label;
}

/// Whether `value` confirms TARGET (nullopt: it does, or the target needs none because this run
/// creates it), on a read-only look; else the problem in words.
std::optional<std::string> consent_problem(const RunInputs& in, const std::optional<std::string>& value, size_t n,
                                           size_t count) {
  if (!in.simulated && !in.info.exists) return std::nullopt;  // a file this run creates
  auto probe = open_read_only(in.target_path);
  if (!probe.ok()) return probe.error().message();
  const bool creates = probe->sim ? !probe->sim->exists() : !in.info.exists;
  if (creates) return std::nullopt;  // nothing on it to destroy: needs none (its --confirm place takes any value, e.g. -)
  auto id = probe->device->identify();
  if (!id.ok()) return "TARGET " + in.target_path + ": identity unreadable: " + id.error().message();
  auto rules = confirmation_rules(in.target_path, *id);
  if (!rules.ok()) return rules.error().message();
  const std::string want = device::accepted_confirmations(*rules);
  if (!value)
    return "TARGET " + in.target_path + " (target " + std::to_string(n + 1) + " of " + std::to_string(count) +
           "): not confirmed: give --confirm once per TARGET, in the order given (this one: " + want + ")";
  if (!device::check_confirmation(*id, *rules, *value, nullptr).ok())
    return "--confirm " + *value + " (value " + std::to_string(n + 1) + ") does not confirm TARGET " + in.target_path +
           " (target " + std::to_string(n + 1) + " of " + std::to_string(count) + "): it accepts " + want;
  return std::nullopt;
}


struct Drive {
  RunInputs in;
  CreatedFile created;
  std::optional<Held> held;
};

void discard_all(std::vector<Drive>& drives) {
  for (auto& d : drives) {
    if (d.held) {
      d.held->engine.reset();
      discard_created(d.held->target);
    }
    d.created.discard();
  }
}

}  // namespace

int cmd_run_multi(const RunArgs& args) {
  std::vector<std::string> errors = args.errors;
  std::vector<std::string> targets = {args.target};
  targets.insert(targets.end(), args.more_targets.begin(), args.more_targets.end());
  std::vector<std::string> confirms;
  for (const auto& c : args.confirms)
    for (auto& v : confirm_values(c)) confirms.push_back(v);
  if (!confirms.empty() && confirms.size() != targets.size())
    errors.push_back("--confirm: " + std::to_string(confirms.size()) + " value(s) for " +
                     std::to_string(targets.size()) +
                     " targets: give one per TARGET, in the order given (none only when this run creates every target)");
  std::map<std::string, std::string> seen;
  for (const auto& t : targets) {
    auto [it, fresh] = seen.emplace(drive_key(t), t);
    if (!fresh)
      errors.push_back("TARGET " + t + ": the same drive as TARGET " + it->second +
                       ": a drive runs once in a multi-drive run");
  }
  const std::string root = args.out ? *args.out : default_out_dir(args.test);
  if (auto why = check_out_dir(root); !why.empty()) errors.push_back(why);

  std::set<std::string> labels_taken;
  std::vector<Drive> drives;
  std::set<std::string> said;  // the drives share their options: each problem once
  for (size_t i = 0; i < targets.size(); ++i) {
    RunArgs a = args;
    a.target = targets[i];
    a.more_targets.clear();
    a.errors.clear();
    a.confirm = confirms.size() == targets.size() ? std::optional<std::string>(confirms[i]) : std::nullopt;
    a.out = (fs::path(root) / label_for(targets[i], labels_taken)).string();
    auto in = check_run_inputs(a);
    if (!in.ok()) {
      for (const auto& m : in.error().messages)
        if (said.insert(m).second) errors.push_back(m);
      continue;
    }
    drives.push_back({std::move(in.value()), {}, std::nullopt});
  }
  size_t simulated = 0;
  for (const auto& d : drives) simulated += d.in.simulated ? 1 : 0;
  if (simulated && simulated != drives.size())
    errors.push_back("TARGET: real and simulated drives do not run in one lockstep run (a simulated drive runs in "
                     "its own virtual time)");
  if (errors.empty())  // consent, on a read-only look at every drive, before any is held
    for (size_t i = 0; i < drives.size(); ++i)
      if (auto why = consent_problem(drives[i].in, drives[i].in.confirm, i, drives.size())) errors.push_back(*why);
  if (!errors.empty()) return fail(errors, 2);

  // Every drive held and planned before anything is written to any of them.
  for (auto& d : drives) {
    auto prepared = prepare_run_target(d.in);
    if (!prepared.ok()) {
      discard_all(drives);
      return fail(prepared.error().messages, core::exit_code(prepared.error().kind));
    }
    d.created = *prepared;
    auto held = hold_and_plan(d.in, d.created.created());
    if (!held.ok()) {
      d.created.discard();
      discard_all(drives);
      return fail(held.error().messages, core::exit_code(held.error().kind));
    }
    d.held = std::move(held.value());
    if (d.held->resolved.plan.params<model::QosPlan>()) {
      discard_all(drives);
      return fail({"TEST " + d.in.test + ": its cells are multi-job cells of their own (several jobs on one drive): "
                   "run it on one drive at a time"}, 2);
    }
  }
  std::unique_ptr<engine::IoEngine> combined;
  if (!simulated) {  // the io_uring engine's multi-job cell over every held descriptor
    std::vector<engine::IoTarget> io;
    for (auto& d : drives) {
      d.held->engine.reset();
      io.push_back(engine_target(*d.held->target.held, d.in.target_path, d.in.info.target.size_bytes,
                                 d.in.info.target.logical_block_bytes));
    }
    auto eng = engine::open_uring_engine(io, std::vector<bool>(io.size(), true));
    if (!eng.ok()) {
      discard_all(drives);
      return fail(eng.error().messages, core::exit_code(eng.error().kind));
    }
    combined = std::move(eng.value());
  }

  if (auto made = core::create_directories_durable(root); !made.ok()) {
    discard_all(drives);
    return fail({"--out " + root + ": cannot create it (" + made.error().message() + ")"}, 2);
  }
  Manifest manifest;
  manifest.test_id = drives.front().held->resolved.plan.test_id;
  model::LockstepInfo info;
  info.run_root = root;
  info.rule = "Each cell ran on every drive in the same interval (one job per drive). Steady state is judged per "
              "drive from its own Rounds: a drive's Measurement Window is its own first steady window (or its last "
              "Rounds at the maximum); once its sub-test is done it keeps running the other drives' cells as load "
              "(not in its record; see the LockstepLoad transition and ROOT/lockstep.jsonl) until all are done.";
  for (size_t i = 0; i < drives.size(); ++i) {
    const std::string label = fs::path(drives[i].in.out_dir).filename().string();
    manifest.drives.push_back({label, drives[i].held->target.path});
    info.drives.push_back({label, drives[i].held->target.path, drives[i].held->target.held->identity().serial,
                           static_cast<uint32_t>(i)});
  }
  if (auto st = write_manifest(root, manifest); !st.ok()) {
    discard_all(drives);
    return fail(st.error().messages, core::exit_code(st.error().kind));
  }
  std::vector<LockstepDriveRun> runs;
  for (size_t i = 0; i < drives.size(); ++i) {
    Drive& d = drives[i];
    LockstepDriveRun r;
    r.label = manifest.drives[i].label;
    r.dir = d.in.out_dir;
    if (auto made = core::create_directories_durable(r.dir); !made.ok())
      return fail({"--out " + r.dir + ": cannot create it (" + made.error().message() + ")"}, 2);
    auto sink = results::JournalSink::create(r.dir);
    if (!sink.ok()) return fail(sink.error().messages, core::exit_code(sink.error().kind));
    r.sink = std::move(sink.value());
    r.own = std::move(d.held->engine);
    r.size_bytes = d.held->target.held->identity().capacity_bytes;
    model::RunRecord header =
        run_header(d.in, d.held->target, d.held->resolved, r.own ? *r.own : *combined, args.words);
    header.lockstep = info;
    header.lockstep->label = r.label;
    if (!d.in.session.quiet)
      std::fprintf(stderr, "ptsuite run: [%s] %s on %s, %zu sub-test(s), cells %g s, max %u rounds -> %s\n",
                   r.label.c_str(), header.plan.title.c_str(), d.in.target_path.c_str(), header.plan.subtests.size(),
                   header.plan.cell_seconds, header.plan.max_rounds, r.dir.c_str());
    r.go = [header](runner::RunEnv& env) { return runner::start_run(env, header); };
    r.target = std::move(d.held->target);
    runs.push_back(std::move(r));
  }
  int code = run_lockstep("run", root, manifest.test_id, runs, combined.get(), drives.front().in.session);
  combined.reset();
  for (auto& r : runs) {
    r.own.reset();  // the workers go before the descriptors they borrow
    if (!close_target(r.target, "run") && code == 0) code = core::exit_code(core::ErrorKind::Internal);
  }
  return code;
}

}  // namespace pts::app
