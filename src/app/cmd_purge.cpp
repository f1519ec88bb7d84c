// app/cmd_purge.cpp — `ptsuite purge TARGET --confirm SERIAL [--purge METHOD]
// [--accept-purge-failure] [--json]`: the purge step of a run on its own (same device code),
// then prints the PurgeRecord. Order: bad input (exit 2) → guard and serial (exit 3) →
// purge + verification (exit 4 on failure unless accepted). May use: core, model, device,
// results (JSON codec), nlohmann json.
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "app/confirm_prompt.h"
#include "app/target_open.h"
#include "device/confirm.h"
#include "device/purge_policy.h"
#include "device/target_device.h"
#include "results/codec.h"

namespace pts::app {

namespace {

constexpr const char* kUsage =
    "usage: ptsuite purge TARGET --confirm SERIAL [--purge METHOD] [--accept-purge-failure] [--json]\n"
    "Purges TARGET and verifies it: a pattern written at sampled blocks before the purge must\n"
    "read back erased afterwards. METHOD: auto (default: the strongest the drive supports),\n"
    "sanitize-crypto, sanitize-block, format-crypto, format-user, discard (block devices; not a\n"
    "SNIA purge), recreate (files), none. A failed or unverified purge exits 4 unless\n"
    "--accept-purge-failure is given (then it is recorded as accepted). The serial is the one\n"
    "`ptsuite info TARGET` shows; without --confirm it is asked for on a terminal.\n";

void print_record(const model::DeviceIdentity& id, const model::PurgeRecord& r) {
  std::printf("Purge of %s (%s, serial %s)\n", id.path.c_str(), id.model.c_str(), id.serial.c_str());
  std::printf("  method        %s (%s)\n", model::purge_method_name(r.method).c_str(), r.reason.c_str());
  if (r.opcode) {
    std::printf("  command       opcode 0x%02x nsid %u cdw10..15", r.opcode, r.nsid);
    for (uint32_t d : r.cdw) std::printf(" 0x%08x", d);
    std::printf("\n");
  }
  std::printf("  status        %s\n", r.status_text.c_str());
  if (r.progress_polls) std::printf("  polls         %u sanitize log reads\n", r.progress_polls);
  std::printf("  duration      %.3f s\n", r.duration_ns / 1e9);
  const auto& v = r.verification;
  if (v.performed)
    std::printf("  verification  %s: %s (expected %s)\n", v.passed ? "passed" : "FAILED", v.detail.c_str(),
                v.expectation.c_str());
  else
    std::printf("  verification  not performed (%s)\n", v.detail.c_str());
  std::printf("  SNIA purge    %s\n", r.is_snia_purge ? "yes" : "no (recorded as a deviation)");
  if (r.accepted_by_operator) std::printf("  accepted      failed or unverified purge accepted by the operator (deviation)\n");
}

}  // namespace

int cmd_purge(const Args& args) {
  std::vector<std::string> errors, positional;
  std::optional<std::string> confirm;
  std::optional<model::PurgeMethod> method;
  bool json = false, accept = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* flag) -> std::optional<std::string> {
      if (i + 1 < args.size()) return args[++i];
      errors.push_back(std::string(flag) + " needs a value");
      return std::nullopt;
    };
    if (a == "--help" || a == "-h") {
      std::printf("%s", kUsage);
      return 0;
    } else if (a == "--json") {
      json = true;
    } else if (a == "--accept-purge-failure") {
      accept = true;
    } else if (a == "--confirm") {
      confirm = value("--confirm");
    } else if (a == "--purge") {
      if (auto v = value("--purge")) {
        auto m = device::parse_purge_method(*v);
        if (m.ok()) method = *m;
        else errors.push_back(m.error().message());
      }
    } else if (a.rfind("-", 0) == 0) {
      errors.push_back("unknown option " + a);
    } else {
      positional.push_back(a);
    }
  }
  if (positional.empty()) errors.push_back("TARGET is missing");
  if (positional.size() > 1) errors.push_back("one TARGET expected, got " + std::to_string(positional.size()));
  if (!errors.empty()) {
    for (const auto& e : errors) std::fprintf(stderr, "ptsuite purge: %s\n", e.c_str());
    std::fprintf(stderr, "(ptsuite purge --help for usage)\n");
    return 2;
  }
  auto fail = [](const core::Error& e) {
    std::fprintf(stderr, "ptsuite purge: %s\n", e.message().c_str());
    return core::exit_code(e.kind);
  };

  auto opened = open_device_target(positional[0], /*writable=*/true);
  if (!opened.ok()) return fail(opened.error());
  auto& dev = opened->device;
  auto id = dev->identify();
  if (!id.ok()) return fail(id.error());
  if (auto choice = device::choose_purge_method(*id, method); !choice.ok()) return fail(choice.error());
  if (auto g = dev->guard(); !g.ok()) return fail(g.error());
  // A simulated drive this command just created holds nothing to protect.
  if (!opened->sim_created)
    if (auto c = device::check_confirmation(*id, confirm, confirm ? nullptr : interactive_serial_prompt()); !c.ok())
      return fail(c.error());

  model::PurgeRecord record;
  device::PurgeRequest req;
  req.method = method;
  req.accept_failure = accept;
  req.record_out = &record;
  if (!json)
    req.progress = [](double f, double elapsed_s, uint32_t estimate_s) {
      std::fprintf(stderr, "\rsanitize %5.1f%%  %.0f s elapsed, controller estimate %u s ", f * 100, elapsed_s,
                   estimate_s);
      if (f >= 1.0) std::fprintf(stderr, "\n");
    };
  auto done = dev->purge(req);
  const bool sent = record.started_wall_ns != 0;
  if (json && sent) {
    nlohmann::json j = record;
    j["target"] = id->path;
    j["serial"] = id->serial;
    j["method_name"] = model::purge_method_name(record.method);
    std::printf("%s\n", j.dump(2).c_str());
  } else if (sent) {
    print_record(*id, record);
  }
  if (!close_target(*opened, "purge")) return core::exit_code(core::ErrorKind::Internal);
  if (!done.ok()) return fail(done.error());
  return 0;
}

}  // namespace pts::app
