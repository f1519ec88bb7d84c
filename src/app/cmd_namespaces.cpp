// app/cmd_namespaces.cpp — `ptsuite namespaces TARGET [--create N --size SIZE --confirm WHAT]`:
// lists the controller's namespaces (a read-only look), or re-creates them through the one guard
// entry point (consent names the drive; the device examines every namespace first: see
// device::TargetDevice::recreate_namespaces) and prints what changed as a record. Bad input is
// named at once (exit 2) before the target is opened. May use: every module.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "app/command_fail.h"
#include "app/commands.h"
#include "app/guarded_target.h"
#include "app/json_out.h"
#include "app/target_open.h"
#include "core/clock.h"
#include "core/units.h"

namespace pts::app {

namespace {

int fail(const std::vector<std::string>& messages, int code) { return fail_command("namespaces", messages, code); }

nlohmann::json inventory_json(const model::NamespaceInventory& inv) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& n : inv.namespaces)
    list.push_back({{"nsid", n.nsid},           {"size_bytes", n.size_bytes}, {"lba_bytes", n.lba_bytes},
                    {"lba_format", n.lba_format}, {"used_bytes", n.used_bytes}, {"attached", n.attached},
                    {"block", n.block},         {"in_use", n.in_use},         {"in_use_why", n.in_use_why}});
  return {{"namespace_management", inv.management},
          {"namespace_management_missing", inv.management_missing},
          {"max_namespaces", inv.max_namespaces},
          {"controller_id", inv.controller_id},     {"total_bytes", inv.total_bytes},
          {"unallocated_bytes", inv.unallocated_bytes}, {"namespaces", list}};
}

void print_inventory(const std::string& target, const model::NamespaceInventory& inv) {
  std::printf("ptsuite namespaces %s: %zu namespace(s); the controller supports %u%s\n", target.c_str(),
              inv.namespaces.size(), inv.max_namespaces,
              inv.management ? ", with Namespace Management and Attachment"
                             : (", without Namespace Management (" + inv.management_missing + ")").c_str());
  if (inv.total_bytes)
    std::printf("  capacity %s, unallocated %s\n", core::format_bytes(inv.total_bytes).c_str(),
                core::format_bytes(inv.unallocated_bytes).c_str());
  std::printf("  %-5s %-12s %-14s %-12s %-9s %-16s %s\n", "NSID", "size", "LBA format", "in use (data)", "attached",
              "block device", "in use");
  for (const auto& n : inv.namespaces)
    std::printf("  %-5u %-12s %-14s %-12s %-9s %-16s %s\n", n.nsid, core::format_bytes(n.size_bytes).c_str(),
                ("#" + std::to_string(n.lba_format) + " (" + std::to_string(n.lba_bytes) + " B)").c_str(),
                core::format_bytes(n.used_bytes).c_str(), n.attached ? "yes" : "no",
                n.block.empty() ? "-" : n.block.c_str(), n.in_use ? ("yes: " + n.in_use_why).c_str() : "no");
}

}  // namespace

int cmd_namespaces(const NamespacesArgs& args) {
  std::vector<std::string> errors = args.errors;
  if (args.target.empty()) errors.push_back("TARGET: missing (see ptsuite namespaces --help)");
  uint32_t count = 0;
  uint64_t size = 0;
  if (args.create) {
    try {
      const long v = std::stol(*args.create);
      if (v < 1 || v > 1024) throw std::out_of_range("count");
      count = static_cast<uint32_t>(v);
    } catch (const std::exception&) {
      errors.push_back("--create " + *args.create + ": a number of namespaces, 1 or more");
    }
    if (!args.size) errors.push_back("--size: needed with --create (each new namespace's size, e.g. 16GiB)");
    if (!args.confirm) errors.push_back("--confirm: needed with --create (what `ptsuite info TARGET` shows under "
                                        "\"Confirm with\": every namespace of the drive is deleted)");
  } else if (args.size) {
    errors.push_back("--size: only with --create");
  }
  if (args.size) {
    if (auto v = core::parse_size_bytes(*args.size); v && *v > 0) size = *v;
    else errors.push_back("--size " + *args.size + ": a size such as 16GiB or 1000000000");
  }
  if (!errors.empty()) return fail(errors, 2);

  if (!args.create) {
    // A controller node lists its namespaces however many there are (open_target wants the
    // one namespace a controller node stands for); anything else through its namespace.
    std::optional<core::Result<model::NamespaceInventory>> inv;
    std::string shown = args.target;
    if (!is_simulated(args.target)) inv = device::controller_namespaces(args.target);
    if (!inv) {
      auto probe = open_read_only(args.target);
      if (!probe) return fail(probe.error().messages, core::exit_code(probe.error().kind));
      shown = probe->path;
      inv = probe->device->namespaces();
    }
    if (!*inv) return fail((*inv).error().messages, core::exit_code((*inv).error().kind));
    if (args.json) std::printf("%s\n", json_text(inventory_json(**inv)).c_str());
    else print_inventory(shown, **inv);
    return 0;
  }
  auto held = acquire_writable(args.target, writing_options(args.confirm, args.force_signatures));
  if (!held) return fail(held.error().messages, core::exit_code(held.error().kind));
  if (!args.json) std::fprintf(stderr, "ptsuite namespaces: %s\n", consent_line(*held->held).c_str());
  model::NamespaceChange change;
  change.target = held->path;
  change.serial = held->held->identity().serial;
  change.consent = held->held->consent().method + " '" + held->held->consent().value + "'";
  change.started_wall_ns = held->clock->wall_ns();
  change.created = count;
  change.size_bytes = size;
  auto before = held->held->device().namespaces();
  if (!before) {
    close_target(*held, "namespaces");
    return fail(before.error().messages, core::exit_code(before.error().kind));
  }
  change.before = *before;
  auto after = held->held->device().recreate_namespaces(count, size);
  const bool saved = close_target(*held, "namespaces");
  if (!after) return fail(after.error().messages, core::exit_code(after.error().kind));
  change.after = *after;
  if (args.json) {
    nlohmann::json j = {{"target", change.target},   {"serial", change.serial},
                        {"consent", change.consent}, {"started_wall_ns", change.started_wall_ns},
                        {"created", change.created}, {"size_bytes", change.size_bytes},
                        {"before", inventory_json(change.before)}, {"after", inventory_json(change.after)}};
    std::printf("%s\n", json_text(j).c_str());
  } else {
    std::printf("ptsuite namespaces: deleted %zu namespace(s), created %u of %s each on drive %s (confirmed with %s)\n",
                change.before.namespaces.size(), count, core::format_bytes(size).c_str(), change.serial.c_str(),
                change.consent.c_str());
    print_inventory(change.target, change.after);
  }
  return saved ? 0 : core::exit_code(core::ErrorKind::Internal);
}

}  // namespace pts::app
