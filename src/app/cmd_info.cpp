// app/cmd_info.cpp — `ptsuite info TARGET [--json]`: identity, capabilities, purge methods,
// write cache and health of an NVMe namespace (or its controller / generic node), a block
// device or a file. Read-only: sends Identify, Get Log Page and Get Features only.
// May use: core, model, device, results (JSON codec), nlohmann json.
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "app/json_out.h"
#include "app/sim_info.h"
#include "app/target_open.h"
#include "core/units.h"
#include "device/held_target.h"
#include "device/purge_policy.h"
#include "device/target_device.h"
#include "results/codec.h"

namespace pts::app {

namespace {

const char* kind_text(model::TargetKind k) {
  switch (k) {
    case model::TargetKind::NvmeNamespace: return "NVMe namespace";
    case model::TargetKind::BlockDevice: return "block device";
    case model::TargetKind::File: return "regular file";
  }
  return "";
}

const char* cache_text(model::WriteCacheState s) {
  switch (s) {
    case model::WriteCacheState::NotPresent: return "no volatile cache";
    case model::WriteCacheState::Enabled: return "enabled";
    case model::WriteCacheState::Disabled: return "disabled";
    case model::WriteCacheState::Unknown: return "unknown";
  }
  return "unknown";
}

const char* yes(bool b) { return b ? "yes" : "no"; }

template <typename T>
std::string opt(const std::optional<T>& v, const std::string& unit = "") {
  return v ? std::to_string(*v) + unit : "n/a";
}

void print_text(const model::DeviceIdentity& id, const model::WriteCacheSetting& cache,
                const std::vector<model::PurgeMethod>& methods, const std::string& auto_choice,
                const std::string& accepts) {
  std::printf("Target         %s (%s", id.path.c_str(), kind_text(id.kind));
  if (id.kind == model::TargetKind::NvmeNamespace) std::printf(", namespace %u", id.namespace_id);
  std::printf(")\n");
  std::printf("Model          %s\n", id.model.c_str());
  std::printf("Serial         %s%s\n", id.serial.c_str(), id.serial_made_up ? " (made up by ptsuite)" : "");
  if (!id.wwid.empty()) std::printf("WWID           %s\n", id.wwid.c_str());
  if (!id.nguid.empty()) std::printf("NGUID          %s\n", id.nguid.c_str());
  if (!id.eui64.empty()) std::printf("EUI-64         %s\n", id.eui64.c_str());
  std::printf("Confirm with   %s\n", accepts.c_str());
  std::printf("Firmware       %s\n", id.firmware.empty() ? "n/a" : id.firmware.c_str());
  if (!id.manufacturer.empty()) std::printf("Manufacturer   %s\n", id.manufacturer.c_str());
  std::printf("Interface      %s\n", id.interface.c_str());
  std::printf("PCIe link      %s\n", model::pcie_link_label(id.pcie_link).c_str());
  std::printf("Capacity       %llu bytes (%s)\n", static_cast<unsigned long long>(id.capacity_bytes),
              core::format_bytes(id.capacity_bytes).c_str());
  std::printf("LBA size       %u bytes", id.lba_size);
  if (id.kind == model::TargetKind::NvmeNamespace)
    std::printf(" + %u metadata bytes (LBA format %u)", id.lba_metadata_bytes, id.lba_format_index);
  std::printf("\n");
  if (id.physical_block_bytes) std::printf("Physical block %u bytes\n", id.physical_block_bytes);
  const auto& c = id.capabilities;
  if (id.kind == model::TargetKind::NvmeNamespace) {
    std::printf("Format NVM     %s (crypto erase: %s, applies to all namespaces: %s)\n", yes(c.format_nvm),
                yes(c.crypto_erase_in_format), yes(c.format_applies_to_all_namespaces));
    std::printf("Sanitize       crypto erase %s, block erase %s, overwrite %s\n", yes(c.sanitize_crypto_erase),
                yes(c.sanitize_block_erase), yes(c.sanitize_overwrite));
    std::printf("NS management  %s\n", yes(c.namespace_management));
    std::printf("Volatile cache %s\n", c.volatile_write_cache_present ? "present" : "not present");
  }
  std::printf("Deallocated    %s\n", c.deallocated_reads_zeroes ? "read as zeroes" : "read value not reported");
  std::printf("Discard        %s\n", yes(c.discard));
  std::string names;
  for (auto m : methods) names += (names.empty() ? "" : ", ") + model::purge_method_name(m);
  std::printf("Purge methods  %s (auto: %s)\n", names.c_str(), auto_choice.c_str());
  std::printf("Write cache    %s", cache_text(cache.current));
  if (cache.saveable) std::printf(" (saved across resets: %s)", cache_text(cache.saved));
  std::printf("\n");
  const auto& h = id.health;
  if (h.temperature_c || h.percentage_used || h.media_errors || h.data_units_written) {
    std::printf("Temperature    %s\n", opt(h.temperature_c, " C").c_str());
    std::printf("Health         percentage used %s, media errors %s, data units written %s (x 512000 bytes), "
                "power-on hours %s, critical warning %s\n",
                opt(h.percentage_used, "%").c_str(), opt(h.media_errors).c_str(),
                opt(h.data_units_written).c_str(), opt(h.power_on_hours).c_str(), opt(h.critical_warning).c_str());
  }
}

}  // namespace

int cmd_info(const InfoArgs& args) {
  std::vector<std::string> errors = args.errors;
  const bool json = args.json, sources = args.sources;
  if (args.target.empty()) errors.push_back("TARGET: missing (see ptsuite info --help)");
  if (!errors.empty()) {
    for (const auto& e : errors) std::fprintf(stderr, "ptsuite info: %s\n", e.c_str());
    return 2;
  }
  auto fail = [](const core::Error& e) {
    std::fprintf(stderr, "ptsuite info: %s\n", e.message().c_str());
    return core::exit_code(e.kind);
  };
  auto opened = open_read_only(args.target);  // a simulated drive's state file is only read
  if (!opened.ok()) return fail(opened.error());
  auto& dev = opened->device;
  auto id = dev->identify();
  if (!id.ok()) return fail(id.error());
  auto cache = dev->write_cache_setting();  // a run sets it back when it ends; a killed one: resume
  if (!cache.ok()) return fail(cache.error());
  auto methods = device::supported_purge_methods(*id);
  auto choice = device::choose_purge_method(*id, std::nullopt);
  std::string auto_choice = choice.ok() ? model::purge_method_name(choice->method) : "none available";
  auto rules = confirmation_rules(args.target, *id);
  if (!rules.ok()) return fail(rules.error());

  if (json) {
    nlohmann::json j = *id;
    j["write_cache"] = cache->current;
    j["write_cache_saveable"] = cache->saveable;
    if (cache->saveable) j["write_cache_saved"] = cache->saved;
    j["purge_methods"] = nlohmann::json::array();
    for (auto m : methods) j["purge_methods"].push_back(model::purge_method_name(m));
    j["purge_auto"] = auto_choice;
    j["confirm_with"] = device::preferred_confirmation(*rules);
    j["confirm_accepts"] = device::accepted_confirmations(*rules);
    if (opened->sim) j["simulated_drive"] = sim_info_json(*opened->sim);
    std::printf("%s\n", json_text(j).c_str());
  } else {
    print_text(*id, *cache, methods, auto_choice, device::accepted_confirmations(*rules));
    if (opened->sim)
      for (const auto& line : sim_info_lines(*opened->sim, sources)) std::printf("%s\n", line.c_str());
  }
  return 0;
}

}  // namespace pts::app
