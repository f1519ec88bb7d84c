// app/cmd_purge.cpp — `ptsuite purge TARGET --confirm SERIAL [--purge METHOD]
// [--accept-purge-failure] [--json]`: the purge step of a run on its own (same device code),
// then prints the PurgeRecord. Order: bad arguments (exit 2) → guard and consent (exit 3) →
// a --purge the target cannot do (exit 2) → purge + verification (exit 4 on failure unless
// accepted). May use: core, model, device, results (JSON codec), nlohmann json.
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "app/json_out.h"
#include "app/guarded_target.h"
#include "app/target_open.h"
#include "device/purge_policy.h"
#include "device/target_device.h"
#include "results/codec.h"

namespace pts::app {

namespace {

constexpr const char* kUsage =
    "usage: ptsuite purge TARGET --confirm SERIAL [--purge METHOD] [--accept-purge-failure]\n"
    "                            [--force-signatures] [--json]\n"
    "Purges TARGET and verifies it: a pattern written at sampled blocks before the purge must\n"
    "read back erased afterwards. METHOD: auto (default: the strongest the drive supports),\n"
    "sanitize-crypto, sanitize-block, format-crypto, format-user, discard (block devices and\n"
    "simulated drives: Dataset Management deallocate; not a SNIA purge), recreate (files), none. A failed or unverified purge exits 4 unless\n"
    "--accept-purge-failure is given (then it is recorded as accepted). --confirm takes what\n"
    "`ptsuite info TARGET` shows under \"Confirm with\" (the serial; for devices whose serial\n"
    "ptsuite made up: the WWID, a by-id name or the loop device's backing file); without it,\n"
    "it is asked for on a terminal. The guard refuses a target that is in use or holds a\n"
    "signature (file system, LVM, RAID, partition table); --force-signatures overwrites the\n"
    "latter (recorded).\n";

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
  bool json = false, accept = false, force_signatures = false;
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
    } else if (a == "--force-signatures") {
      force_signatures = true;
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

  // The guard first (argument check -> guard -> anything that touches the device): an in-use
  // target is exit 3 with its reason whatever --purge says. The one guard entry point:
  // examination, exclusive descriptor, signatures, consent (a sim: target is held by an
  // exclusive lock on its state file: app/target_open.h).
  auto writable = acquire_writable(positional[0], writing_options(confirm, force_signatures));
  if (!writable.ok()) return fail(writable.error());
  auto& held = writable->held;
  const model::DeviceIdentity* id = &held->identity();
  device::TargetDevice* dev = &held->device();
  // A --purge this target cannot do is bad input (exit 2), found before anything is written.
  // (No method at all is a device failure, exit 4, reported by the purge itself.)
  if (auto choice = device::choose_purge_method(*id, method);
      !choice.ok() && choice.error().kind == core::ErrorKind::BadInput)
    return fail(choice.error());
  if (!json) std::fprintf(stderr, "ptsuite purge: %s\n", consent_line(*held).c_str());
  for (const auto& [code, text] : held->deviations()) std::fprintf(stderr, "ptsuite purge: deviation [%s] %s\n", code.c_str(), text.c_str());

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
    j["consent"] = held->consent();
    j["deviations"] = nlohmann::json::array();
    for (const auto& [code, text] : held->deviations()) j["deviations"].push_back({{"code", code}, {"text", text}});
    j["method_name"] = model::purge_method_name(record.method);
    std::printf("%s\n", json_text(j).c_str());
  } else if (sent) {
    print_record(*id, record);
  }
  const bool saved = close_target(*writable, "purge");
  if (!done.ok()) return fail(done.error());
  return saved ? 0 : core::exit_code(core::ErrorKind::Internal);
}

}  // namespace pts::app
