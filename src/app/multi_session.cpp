// app/multi_session.cpp — see multi_session.h.
#include "app/multi_session.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <thread>

#include "app/lockstep.h"
#include "app/signals.h"
#include "core/atomic_file.h"
#include "core/clock.h"
#include "qualify/aggregate.h"
#include "report/report.h"

namespace pts::app {

core::Status write_manifest(const std::string& root, const Manifest& m) {
  nlohmann::json j;
  j["format"] = "ptsuite multi-drive run";
  j["test_id"] = m.test_id;
  j["drives"] = nlohmann::json::array();
  for (const auto& d : m.drives) j["drives"].push_back({{"label", d.label}, {"target", d.target}});
  return core::atomic_write_file(root + "/" + kLockstepManifest, j.dump(2) + "\n");
}

core::Result<Manifest> read_manifest(const std::string& root) {
  const std::string path = root + "/" + kLockstepManifest;
  auto text = core::read_file(path);
  if (!text.ok()) return text.error();
  auto j = nlohmann::json::parse(*text, nullptr, false);
  Manifest m;
  if (j.is_discarded() || !j.is_object() || !j.contains("drives") || !j["drives"].is_array())
    return core::bad_input(path + ":1: not a multi-drive run's manifest");
  m.test_id = j.value("test_id", std::string());
  for (const auto& d : j["drives"]) {
    if (!d.is_object()) return core::bad_input(path + ":1: a drive entry is not an object");
    m.drives.push_back({d.value("label", std::string()), d.value("target", std::string())});
    if (m.drives.back().label.empty() || m.drives.back().target.empty())
      return core::bad_input(path + ":1: a drive without label or target");
  }
  if (m.drives.size() < 2) return core::bad_input(path + ":1: fewer than two drives");
  return m;
}

core::Status write_aggregate(const std::string& root, const std::string& test_id, const std::vector<std::string>& labels,
                             bool quiet) {
  auto log = core::read_file(root + "/" + kLockstepLog);
  const auto a = qualify::aggregate_from_log(log.ok() ? *log : std::string(), labels);
  const std::string title = test_id + " on " + std::to_string(labels.size()) + " drives in lockstep";
  auto written = report::write_document_files(qualify::aggregate_document(a, title), root + "/aggregate.xlsx",
                                              {{root + "/aggregate.json", qualify::aggregate_json(a, test_id)}},
                                              core::wall_ns());
  if (!written.ok()) return written.error();
  if (quiet) return core::ok_status();
  std::printf("aggregate (%zu drives, %zu lockstep intervals): %s/aggregate.json, %s/aggregate.xlsx\n", labels.size(),
              a.intervals.size(), root.c_str(), root.c_str());
  size_t shown = 0;
  for (size_t k : a.last_per_cell) {
    const auto& iv = a.intervals[k];
    if (++shown > 8) {
      std::printf("  ... %zu cells in all (aggregate.json: by_cell)\n", a.last_per_cell.size());
      break;
    }
    std::printf("  %s %s (round %u): IOPS sum %.0f (min %.0f, max %.0f, spread %.1f %%), MB/s sum %.1f\n",
                iv.subtest.c_str(), iv.cell_id.c_str(), iv.round, iv.iops_sum, iv.iops_min, iv.iops_max,
                iv.iops_spread * 100, iv.mbps_sum);
  }
  return core::ok_status();
}

int run_lockstep(const char* command, const std::string& root, const std::string& test_id,
                 std::vector<LockstepDriveRun>& drives, engine::IoEngine* combined, const SessionOptions& options) {
  std::vector<LockstepMember> members;
  std::vector<size_t> index;  // member → drive
  for (size_t i = 0; i < drives.size(); ++i) {
    if (drives[i].skip) continue;
    members.push_back({drives[i].label, drives[i].target.path, drives[i].size_bytes, drives[i].own.get()});
    index.push_back(i);
  }
  Lockstep lockstep(members, combined, root + "/" + kLockstepLog, options.quiet);
  StopFlags& flags = stop_flags();
  install_stop_handlers();
  std::vector<runner::RunResult> results(index.size());
  std::vector<std::thread> threads;
  for (size_t m = 0; m < index.size(); ++m)
    threads.emplace_back([&, m] {
      LockstepDriveRun& d = drives[index[m]];
      runner::RunEnv env{lockstep.engine(m), d.target.held->device(), *d.target.clock, *d.sink,
                         {&flags.stop_after_cell, &flags.abort_now}, &lockstep.observer(m), &lockstep.gate(m)};
      results[m] = d.go(env);
      lockstep.leave(m);
      if (results[m].error && !options.quiet)
        std::fprintf(stderr, "ptsuite %s: [%s] stopped: %s (the other drives go on)\n", command, d.label.c_str(),
                     results[m].error->message().c_str());
    });
  for (auto& t : threads) t.join();
  remove_stop_handlers();
  if (auto p = lockstep.log_problem(); !p.empty()) std::fprintf(stderr, "ptsuite %s: %s\n", command, p.c_str());

  int code = 0;
  for (size_t m = 0; m < index.size(); ++m) {
    LockstepDriveRun& d = drives[index[m]];
    std::printf("[%s]\n", d.label.c_str());
    const int c = finish_session(command, d.dir, results[m], options);
    if (c == 130 && code == 0) code = 130;
    else if (c != 0 && (code == 0 || code == 130)) code = c;
  }
  std::vector<std::string> labels;
  for (const auto& d : drives) labels.push_back(d.label);
  if (auto st = write_aggregate(root, test_id, labels, options.quiet); !st.ok()) {
    for (const auto& m : st.error().messages) std::fprintf(stderr, "ptsuite %s: aggregate: %s\n", command, m.c_str());
    if (code == 0) code = core::exit_code(core::ErrorKind::Internal);
  }
  std::fflush(stdout);
  return code;
}

}  // namespace pts::app
