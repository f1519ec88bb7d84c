// app/run_header.cpp — see run_header.h.
#include "app/run_header.h"

#include <filesystem>

#include "app/run_session.h"
#include "core/units.h"
#include "device/held_target.h"

namespace pts::app {

model::RunRecord run_header(const RunInputs& in, const WritableTarget& target, const config::ResolvedPlan& resolved,
                            const engine::IoEngine& engine, const std::vector<std::string>& words) {
  const device::HeldTarget& held = *target.held;
  model::RunRecord header;
  header.tool_version = std::string(PTS_VERSION) + ", engine " + engine.describe();
  header.git_revision = PTS_GIT_REV;
  header.run_id = std::filesystem::path(in.out_dir).filename().string();
  header.command_line = "ptsuite";
  for (const auto& w : words) header.command_line += " " + w;
  header.host = collect_host_info();
  header.started_wall_ns = target.clock->wall_ns();
  header.device = held.identity();
  header.consent = held.consent();
  header.plan = resolved.plan;
  header.deviations = resolved.deviations;
  header.operator_fields = in.operator_fields;
  for (const auto& [code, text] : held.deviations()) header.deviations.push_back({code, text});
  mark_simulated(target, header);
  if (in.demo && in.simulated)
    header.deviations.push_back({"demo-target", "Built-in demo target " + target.path +
                                                    " (a simulated drive; set PTSUITE_DEMO_TARGET to use another), "
                                                    "not an SSD"});
  else if (in.demo)
    header.deviations.push_back({"demo-target", "Built-in demo target: a " + core::format_bytes(*in.size_bytes) +
                                                    " file (" + in.target_path + ") re-created for this run, not an SSD"});
  return header;
}

}  // namespace pts::app
