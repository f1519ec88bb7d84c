// app/run_target.cpp — see run_target.h.
#include "app/run_target.h"

#include <cstdio>
#include <filesystem>

#include "device/held_target.h"
#include "app/guarded_target.h"
#include "engine/io_target.h"
#include "pts/procedure.h"

namespace pts::app {

namespace fs = std::filesystem;

void CreatedFile::discard() {
  if (path_.empty()) return;
  std::error_code ec;
  fs::remove(path_, ec);
  path_.clear();
}

core::Result<CreatedFile> prepare_run_target(RunInputs& in) {
  if (in.simulated) return CreatedFile{};
  // The demo target belongs to ptsuite: recreate it fresh, so it needs no confirmation.
  if (in.demo && in.info.exists) {
    if (in.info.kind != model::TargetKind::File || !device::carries_demo_marker(in.target_path))
      return core::Error(core::ErrorKind::Refused,
                         "refused: the demo target path " + in.target_path + " holds a " +
                             (in.info.kind == model::TargetKind::File ? "file" : "device") +
                             " without ptsuite's demo marker: it is not ptsuite's; move it away or set "
                             "PTSUITE_DEMO_TARGET; nothing was written");
    std::error_code ec;
    fs::remove(in.target_path, ec);
    if (ec)
      return core::bad_input("demo target " + in.target_path + ": cannot remove the previous one (" + ec.message() +
                             ")");
    in.info.exists = false;
  }
  if (in.info.exists) return CreatedFile{};
  if (auto made = engine::create_file_target(in.target_path, *in.size_bytes); !made.ok()) return made.error();
  CreatedFile created(in.target_path);
  if (in.demo)
    if (auto marked = device::mark_demo_target(in.target_path); !marked.ok())
      std::fprintf(stderr, "ptsuite run: warning: %s (the next demo run will refuse this file)\n",
                   marked.error().message().c_str());
  auto again = engine::inspect_target(in.target_path, true);
  if (!again.ok()) return again.error();
  in.info = *again;
  return created;
}

core::Result<Held> hold_and_plan(const RunInputs& in, bool created) {
  Held h;
  auto w = acquire_writable(in.target_path,
                            writing_options(in.confirm, in.force_signatures, in.simulated ? in.demo : created));
  if (!w.ok()) return w.error();
  h.target = std::move(w.value());
  auto refuse = [&h](core::Error e) -> core::Result<Held> {
    discard_created(h.target);  // a state file this run made and could not use
    return e;
  };
  auto resolved = config::resolve_plan(in.definition, in.options, h.target.held->identity(),
                                       engine_limits_for(in.target_path));
  if (!resolved.ok()) return refuse(resolved.error());
  h.resolved = std::move(resolved.value());
  if (!runner::find_procedure_for(h.resolved.plan))
    return refuse(core::bad_input("TEST " + in.test + ": no procedure runs '" + h.resolved.plan.test_id +
                                  "' yet (see ptsuite list)"));
  if (!in.session.quiet) std::fprintf(stderr, "ptsuite run: %s\n", consent_line(*h.target.held).c_str());
  auto eng = open_plan_engine(h.target, in.info, h.resolved.plan, in.confirm, in.force_signatures);
  if (!eng.ok()) return refuse(eng.error());
  h.engine = std::move(eng.value());
  return h;
}

}  // namespace pts::app
