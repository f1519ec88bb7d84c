// app/access_options.cpp — see access_options.h.
#include "app/access_options.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <sstream>

#include "core/option_text.h"
#include "core/units.h"

namespace pts::app {

namespace {

using model::AccessPattern;

std::optional<uint64_t> parse_uint(const std::string& text) {
  uint64_t v = 0;
  if (text.empty()) return std::nullopt;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

std::optional<double> parse_double(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

/// "--bs: '3000' <why>"
std::string complain(const std::string& opt, const std::string& value, const std::string& why) {
  return core::bad_option_value(opt, value, why);
}

/// A block size: 512 B … 1 MiB, a multiple of 512 B. Empty optional + message on failure.
std::optional<uint32_t> block_size(const std::string& opt, const std::string& text, std::vector<std::string>& errors) {
  const auto bytes = core::parse_size_bytes(text);
  if (!bytes) {
    errors.push_back(complain(opt, text, "is not a size (use e.g. 4096, 4k, 128k, 1m)"));
    return std::nullopt;
  }
  if (*bytes < kMinBlockBytes || *bytes > kMaxBlockBytes || *bytes % 512 != 0) {
    errors.push_back(complain(opt, text, "is not a block size (a multiple of 512 bytes from 512 B to 1 MiB)"));
    return std::nullopt;
  }
  return static_cast<uint32_t>(*bytes);
}

std::vector<model::BlockSizeShare> parse_split(const std::string& text, std::vector<std::string>& errors) {
  std::vector<model::BlockSizeShare> shares;
  uint32_t total = 0;
  size_t start = 0;
  bool ok = true;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = text.substr(start, comma - start);
    const size_t colon = item.find(':');
    if (colon == std::string::npos) {
      errors.push_back(complain("--bs-split", text, "is not a block-size mix: entry '" + item + "' is not SIZE:PERCENT"));
      ok = false;
    } else {
      const auto bytes = block_size("--bs-split", item.substr(0, colon), errors);
      const auto pct = parse_uint(item.substr(colon + 1));
      if (!pct || *pct == 0 || *pct > 100) {
        errors.push_back(complain("--bs-split", text, "is not a block-size mix: the percentage in '" + item + "' must be 1..100"));
        ok = false;
      }
      if (!bytes) ok = false;
      if (bytes && pct && *pct <= 100) {
        shares.push_back({*bytes, static_cast<uint32_t>(*pct)});
        total += static_cast<uint32_t>(*pct);
      }
    }
    start = comma + 1;
  }
  if (ok && total != 100) {
    errors.push_back(complain("--bs-split", text, "is not a block-size mix: the percentages sum to " + std::to_string(total) + ", not 100"));
    ok = false;
  }
  return ok ? shares : std::vector<model::BlockSizeShare>{};
}

}  // namespace

void AccessOptions::apply_to(model::AccessSpec& spec) const {
  if (pattern) spec.pattern = *pattern;
  if (pattern) spec.trim = trim;
  if (read_pct) spec.read_pct = *read_pct;
  else if (rw_read_pct) spec.read_pct = *rw_read_pct;
  else if (pattern) spec.read_pct = 50;  // a mixed --rw without --read-pct
  if (block_bytes) {
    spec.block_bytes = *block_bytes;
    spec.bs_split.clear();
  }
  if (!bs_split.empty()) spec.bs_split = bs_split;
  if (threads) spec.threads = *threads;
  if (queue_depth) spec.queue_depth = *queue_depth;
  if (seconds) spec.seconds = *seconds;
  if (bytes_limit) spec.bytes_limit = *bytes_limit;
  if (active_range_pct) spec.active_range_pct = *active_range_pct;
  if (!zones.empty()) spec.zones = zones;
  if (rate_iops) spec.rate_iops = *rate_iops;
  if (poll_budget_us)
    spec.poll_budget_ns = *poll_budget_us == model::kPollBudgetAuto ? model::kPollBudgetAuto : *poll_budget_us * 1000;
  if (seed) spec.seed = *seed;
}

ParsedAccessArgs parse_access_options(const AccessArgs& given) {
  ParsedAccessArgs out;
  AccessOptions& o = out.options;
  std::vector<std::string>& errors = out.errors;
  std::map<std::string, bool> seen;

  using Handler = std::function<void(const std::string& opt, const std::string& value)>;
  auto uint_in = [&](const std::string& opt, const std::string& v, uint64_t lo, uint64_t hi) -> std::optional<uint64_t> {
    const auto n = parse_uint(v);
    if (!n || *n < lo || *n > hi) {
      errors.push_back(complain(opt, v, "is not a whole number from " + std::to_string(lo) + " to " + std::to_string(hi)));
      return std::nullopt;
    }
    return n;
  };
  const std::map<std::string, Handler> handlers = {
      {"--rw", [&](const std::string& opt, const std::string& v) {
         static const std::map<std::string, std::pair<AccessPattern, int>> kinds = {
             {"read", {AccessPattern::Sequential, 100}},  {"write", {AccessPattern::Sequential, 0}},
             {"rw", {AccessPattern::Sequential, -1}},     {"readwrite", {AccessPattern::Sequential, -1}},
             {"randread", {AccessPattern::Random, 100}},  {"randwrite", {AccessPattern::Random, 0}},
             {"randrw", {AccessPattern::Random, -1}},     {"trim", {AccessPattern::Sequential, 0}},
             {"randtrim", {AccessPattern::Random, 0}}};
         const auto it = kinds.find(v);
         if (it == kinds.end()) {
           errors.push_back(complain(opt, v, "is not a pattern (read, write, rw, randread, randwrite, randrw, trim or randtrim)"));
           return;
         }
         o.pattern = it->second.first;
         o.trim = v.find("trim") != std::string::npos;
         if (it->second.second >= 0) o.rw_read_pct = static_cast<uint32_t>(it->second.second);
       }},
      {"--read-pct", [&](const std::string& opt, const std::string& v) {
         if (auto n = uint_in(opt, v, 0, 100)) o.read_pct = static_cast<uint32_t>(*n);
       }},
      {"--bs", [&](const std::string& opt, const std::string& v) { o.block_bytes = block_size(opt, v, errors); }},
      {"--bs-split", [&](const std::string&, const std::string& v) { o.bs_split = parse_split(v, errors); }},
      {"--threads", [&](const std::string& opt, const std::string& v) {
         if (auto n = uint_in(opt, v, 1, kMaxThreads)) o.threads = static_cast<uint32_t>(*n);
       }},
      {"--oio", [&](const std::string& opt, const std::string& v) {
         if (auto n = uint_in(opt, v, 1, kMaxQueueDepth)) o.queue_depth = static_cast<uint32_t>(*n);
       }},
      {"--seconds", [&](const std::string& opt, const std::string& v) {
         const auto d = parse_double(v);
         if (!d || !(*d > 0) || *d > 366.0 * 86400) errors.push_back(complain(opt, v, "is not a number of seconds above 0"));
         else o.seconds = *d;
       }},
      {"--bytes", [&](const std::string& opt, const std::string& v) {
         const auto bytes = core::parse_size_bytes(v);
         if (!bytes || *bytes == 0) errors.push_back(complain(opt, v, "is not a size above 0 (e.g. 64g, 8t)"));
         else o.bytes_limit = *bytes;
       }},
      {"--active-range", [&](const std::string& opt, const std::string& v) {
         const auto d = parse_double(v);
         if (!d || !(*d > 0) || *d > 100) errors.push_back(complain(opt, v, "is not an ActiveRange: a percentage above 0 and at most 100"));
         else o.active_range_pct = *d;
       }},
      {"--zones", [&](const std::string& opt, const std::string& v) {
         std::vector<model::AccessZone> zones;
         std::string why;
         if (!model::parse_zones(v, zones, why)) {
           errors.push_back(complain(opt, v, "is not a zone list: " + why));
           return;
         }
         const auto problems = model::zone_problems(zones);
         for (const auto& m : problems) errors.push_back(complain(opt, v, "is not a zone list: " + m));
         if (problems.empty()) o.zones = zones;
       }},
      {"--rate-iops", [&](const std::string& opt, const std::string& v) {
         if (auto n = uint_in(opt, v, 0, 100000000)) o.rate_iops = *n;
       }},
      {"--poll-budget", [&](const std::string& opt, const std::string& v) {
         if (v == "auto") {
           o.poll_budget_us = model::kPollBudgetAuto;
         } else if (const auto n = parse_uint(v); n && *n <= model::kMaxPollBudgetUs) {
           o.poll_budget_us = *n;
         } else {
           errors.push_back(complain(opt, v, "is not auto or a whole number of microseconds from 0 to " +
                                                 std::to_string(model::kMaxPollBudgetUs)));
         }
       }},
      {"--seed", [&](const std::string& opt, const std::string& v) {
         if (auto n = uint_in(opt, v, 0, UINT64_MAX)) o.seed = *n;
       }},
      {"--size", [&](const std::string& opt, const std::string& v) {
         const auto bytes = core::parse_size_bytes(v);
         if (!bytes || *bytes == 0 || *bytes % 512 != 0)
           errors.push_back(complain(opt, v, "is not a size above 0 and a multiple of 512 bytes (e.g. 1g, 256m)"));
         else o.size_bytes = *bytes;
       }},
  };

  for (const auto& [opt, value] : given) {
    const auto h = handlers.find(opt);
    if (h == handlers.end()) {
      errors.push_back(opt + ": not an access-spec option");
      continue;
    }
    if (seen[opt]) {
      errors.push_back(opt + ": given more than once");
      continue;
    }
    seen[opt] = true;
    h->second(opt, value);
  }

  // Cross-option checks.
  if (o.block_bytes && !o.bs_split.empty()) errors.push_back("--bs and --bs-split: give one or the other");
  if (!o.zones.empty() && o.pattern && *o.pattern == AccessPattern::Sequential)
    errors.push_back("--zones: a zoned distribution needs random access (--rw randread, randwrite or randrw)");
  if (o.read_pct && o.rw_read_pct && *o.read_pct != *o.rw_read_pct)
    errors.push_back("--read-pct " + std::to_string(*o.read_pct) + ": contradicts --rw (" +
                     (*o.rw_read_pct == 100 ? "reads only" : "writes only") + "); use --rw randrw or rw");
  if (o.queue_depth) {
    const uint64_t bs = o.block_bytes ? *o.block_bytes : 0;
    uint64_t max_bs = bs;
    for (const auto& s : o.bs_split) max_bs = std::max<uint64_t>(max_bs, s.bytes);
    if (max_bs * *o.queue_depth > (uint64_t{1} << 30))
      errors.push_back(core::bad_option_value("--oio", std::to_string(*o.queue_depth),
                                              "needs more than 1 GiB of I/O buffers per thread with blocks of " +
                                                  core::format_block_size(max_bs)));
  }
  return out;
}

namespace {
/// 50 → "50", 12.5 → "12.5": a percentage as an operator types it.
std::string percent_text(double pct) {
  std::ostringstream out;
  out << pct;
  return out.str();
}
}  // namespace

std::vector<std::string> check_spec_for_target(const model::AccessSpec& spec, uint32_t logical_block_bytes,
                                               uint64_t target_bytes) {
  std::vector<std::string> errors;
  const uint32_t lbs = logical_block_bytes ? logical_block_bytes : 512;
  const std::string opt = spec.bs_split.empty() ? "--bs" : "--bs-split";
  std::vector<uint32_t> sizes;
  if (spec.bs_split.empty()) sizes.push_back(spec.block_bytes);
  for (const auto& s : spec.bs_split) sizes.push_back(s.bytes);
  for (uint32_t bytes : sizes)
    if (bytes % lbs != 0)
      errors.push_back(core::bad_option_value(opt, std::to_string(bytes),
                                              "is not a multiple of the target's logical block size (" +
                                                  std::to_string(lbs) + " B)"));
  const uint64_t range = static_cast<uint64_t>(static_cast<long double>(target_bytes) * spec.active_range_pct / 100.0L);
  const uint64_t max_bs = model::max_block_bytes(spec);
  const uint64_t per_stream = spec.pattern == model::AccessPattern::Sequential ? range / spec.threads : range;
  if (target_bytes > 0 && per_stream < max_bs)
    errors.push_back(core::bad_option_value(
        "--active-range", percent_text(spec.active_range_pct),
        "covers " + std::to_string(range) + " B, too small for " +
            (spec.pattern == model::AccessPattern::Sequential ? std::to_string(spec.threads) + " stream(s) of " : "") +
            core::format_block_size(max_bs) + " blocks"));
  else if (target_bytes > 0 && !spec.zones.empty()) {
    const uint64_t ar = range / lbs * lbs;
    const auto bounds = model::zone_bounds(spec.zones, ar, static_cast<uint32_t>(max_bs));
    for (size_t z = 0; z < spec.zones.size(); ++z)
      if (bounds[z + 1] - bounds[z] < max_bs)
        errors.push_back(core::bad_option_value("--zones", model::zones_text(spec.zones),
                                                "gives zone " + std::to_string(z + 1) + " " +
                                                    std::to_string(bounds[z + 1] - bounds[z]) +
                                                    " B of the ActiveRange, less than one " +
                                                    core::format_block_size(max_bs) + " block"));
  }
  return errors;
}

const std::vector<AccessOptionHelp>& access_option_flags() {
  // The auto budget's two limits, from the constants the engine uses.
  static const std::string poll_budget_help =
      "at TC x QD <= 4: poll for each completion up to US microseconds before sleeping (0: never poll, "
      "at any depth; auto: measured before the cell, polling only where it was faster: at TC x QD <= 4 "
      "up to " + std::to_string(model::kAutoPollBudgetNs / 1000) + " us, above it up to " +
      std::to_string(model::kDepthSpinNs / 1000) + " us)";
  static const std::vector<AccessOptionHelp> flags = {
      {"--rw", "PATTERN", "read, write, rw, randread, randwrite, randrw; trim, randtrim: deallocate instead of writing (fio's trim)", "randread"},
      {"--read-pct", "N", "share of reads for rw and randrw, 0..100", "50"},
      {"--bs", "SIZE", "block size, 512 B .. 1 MiB, a multiple of 512", "4k"},
      {"--bs-split", "LIST", "block-size mix, e.g. 4k:67,8k:10,64k:23 (percentages sum to 100)", "none: --bs"},
      {"--threads", "TC", "worker threads, each with its own io_uring", "1"},
      {"--oio", "QD", "outstanding I/Os per thread", "1"},
      {"--seconds", "S", "duration, fractional allowed (virtual seconds on a simulated drive)", "60"},
      {"--bytes", "SIZE", "stop after this many bytes instead (e.g. 4t: four fills of a 1 TiB drive)", "none"},
      {"--active-range", "PCT", "ActiveRange: share of the target from LBA 0, (0, 100]", "100"},
      {"--zones", "LIST",
       "zoned random distribution, IO%/RANGE% per zone from the start of the ActiveRange, e.g. "
       "50/5:30/15:20/80 (fio's zoned; each sum is 100)",
       "none: uniform"},
      {"--rate-iops", "N", "pace all threads together to N IOPS (0: unthrottled)", "0"},
      {"--poll-budget", "US", poll_budget_help.c_str(), "auto"},
      {"--seed", "N", "random seed (0: a fresh one, printed with the result)", "0"},
      {"--size", "SIZE", "create a missing file target with this size (e.g. 1g)", "none"},
  };
  return flags;
}

}  // namespace pts::app
