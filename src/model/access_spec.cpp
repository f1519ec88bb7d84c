// model/access_spec.cpp — see access_spec.h.
#include "model/access_spec.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/units.h"

namespace pts::model {

std::string rw_name(const AccessSpec& spec) {
  const bool rnd = spec.pattern == AccessPattern::Random;
  if (spec.trim) return std::string(rnd ? "randtrim" : "trim") + (spec.read_pct ? "+read" : "");
  if (spec.read_pct == 100) return rnd ? "randread" : "read";
  if (spec.read_pct == 0) return rnd ? "randwrite" : "write";
  return rnd ? "randrw" : "rw";
}

const char* arrival_name(Arrival a) {
  switch (a) {
    case Arrival::Fixed: return "fixed";
    case Arrival::Exponential: return "exponential";
    case Arrival::Uniform: return "uniform";
  }
  return "?";
}

bool parse_arrival(const std::string& name, Arrival& out) {
  for (Arrival a : {Arrival::Fixed, Arrival::Exponential, Arrival::Uniform})
    if (name == arrival_name(a)) {
      out = a;
      return true;
    }
  return false;
}

uint32_t max_block_bytes(const AccessSpec& spec) {
  uint32_t m = spec.block_bytes;
  if (!spec.bs_split.empty()) {
    m = 0;
    for (const auto& s : spec.bs_split) m = std::max(m, s.bytes);
  }
  return m;
}

std::vector<BlockSizeShare> renormalised_split(const std::vector<BlockSizeShare>& kept) {
  uint64_t sum = 0;
  for (const auto& s : kept) sum += s.percent;
  if (kept.empty() || sum == 0) return {};
  std::vector<BlockSizeShare> out = kept;
  std::vector<std::pair<uint64_t, size_t>> remainders;  // (remainder × sum, index)
  uint32_t given = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    const uint64_t scaled = uint64_t{kept[i].percent} * 100;  // exact share = scaled / sum
    out[i].percent = static_cast<uint32_t>(scaled / sum);
    given += out[i].percent;
    remainders.emplace_back(scaled % sum, i);
  }
  std::stable_sort(remainders.begin(), remainders.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t k = 0; given < 100 && k < remainders.size(); ++k, ++given) ++out[remainders[k].second].percent;
  return out;
}

std::string block_size_text(const AccessSpec& spec) {
  if (spec.bs_split.empty()) return core::format_block_size(spec.block_bytes);
  std::string out;
  for (const auto& s : spec.bs_split)
    out += (out.empty() ? "" : ", ") + core::format_block_size(s.bytes) + " " + std::to_string(s.percent) + " %";
  return out;
}

std::vector<std::string> zone_problems(const std::vector<AccessZone>& zones) {
  std::vector<std::string> out;
  if (zones.empty()) return out;
  uint64_t io = 0;
  double range = 0;
  for (size_t i = 0; i < zones.size(); ++i) {
    const auto& z = zones[i];
    io += z.io_pct;
    range += z.range_pct;
    if (z.io_pct > 100) out.push_back("zone " + std::to_string(i + 1) + ": I/O share " + std::to_string(z.io_pct) + " % is above 100 %");
    if (!(z.range_pct > 0) || z.range_pct > 100)
      out.push_back("zone " + std::to_string(i + 1) + ": range share must be above 0 % and at most 100 %");
  }
  if (io != 100) out.push_back("zone shares of the I/Os sum to " + std::to_string(io) + " %, not 100 %");
  if (std::fabs(range - 100.0) > 1e-9) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "zone shares of the ActiveRange sum to %g %%, not 100 %%", range);
    out.push_back(buf);
  }
  return out;
}

bool parse_zones(const std::string& text, std::vector<AccessZone>& out, std::string& why) {
  out.clear();
  if (text.empty()) {
    why = "no zones given (e.g. 50/5:30/15:20/80)";
    return false;
  }
  size_t start = 0;
  while (start <= text.size()) {
    size_t colon = text.find(':', start);
    if (colon == std::string::npos) colon = text.size();
    const std::string item = text.substr(start, colon - start);
    const size_t slash = item.find('/');
    AccessZone z;
    char* end = nullptr;
    bool ok = slash != std::string::npos && slash > 0 && slash + 1 < item.size();
    if (ok) {
      const std::string io = item.substr(0, slash), range = item.substr(slash + 1);
      ok = io.find_first_not_of("0123456789") == std::string::npos && io.size() <= 3;
      if (ok) z.io_pct = static_cast<uint32_t>(std::strtoul(io.c_str(), nullptr, 10));
      z.range_pct = std::strtod(range.c_str(), &end);
      ok = ok && end == range.c_str() + range.size() && std::isfinite(z.range_pct);
    }
    if (!ok) {
      why = "zone '" + item + "' is not IO_PCT/RANGE_PCT (e.g. 50/5)";
      out.clear();
      return false;
    }
    out.push_back(z);
    start = colon + 1;
  }
  return true;
}

std::vector<uint64_t> zone_bounds(const std::vector<AccessZone>& zones, uint64_t range, uint32_t align) {
  std::vector<uint64_t> bounds{0};
  if (align == 0) align = 1;
  double cumulative = 0;
  for (size_t i = 0; i + 1 < zones.size(); ++i) {
    cumulative += zones[i].range_pct;
    const auto at = static_cast<uint64_t>(static_cast<long double>(range) * cumulative / 100.0L);
    bounds.push_back(std::max(bounds.back(), std::min(range, at / align * align)));
  }
  bounds.push_back(range);
  return bounds;
}

std::string zones_text(const std::vector<AccessZone>& zones) {
  std::string out;
  for (const auto& z : zones) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%u/%g", out.empty() ? "" : ":", z.io_pct, z.range_pct);
    out += buf;
  }
  return out;
}

}  // namespace pts::model
