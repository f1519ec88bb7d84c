// sim/params.cpp — the parameter table (names, units, parsing, formatting) and validation.
// The profiles themselves live in profiles.cpp.
#include "sim/params.h"

#include "sim/geometry.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>

namespace pts::sim {

namespace {

enum class Kind { Bytes, Fraction, Share, Uint, Us, Ms, Mbps, Bool, Policy, Ns };

struct Param {
  ParamDoc doc;
  Kind kind;
  std::function<double(const SimParams&)> get;
  std::function<void(SimParams&, double)> set;
};

std::string trim(std::string s) {
  while (!s.empty() && s.front() == ' ') s.erase(s.begin());
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

/// "2000398934016", "64GiB", "32GB", "16KiB", "48MiB", "2TB": exact byte counts only.
bool parse_bytes(const std::string& text, double& out) {
  size_t pos = 0;
  while (pos < text.size() && (std::isdigit(static_cast<unsigned char>(text[pos])) || text[pos] == '.')) ++pos;
  if (pos == 0) return false;
  char* end = nullptr;
  const std::string num = text.substr(0, pos);
  const double v = std::strtod(num.c_str(), &end);
  if (end != num.c_str() + num.size()) return false;
  const std::string unit = text.substr(pos);
  double mult = 0;
  if (unit.empty() || unit == "B") mult = 1;
  else if (unit == "KiB") mult = 1024.0;
  else if (unit == "MiB") mult = 1024.0 * 1024;
  else if (unit == "GiB") mult = 1024.0 * 1024 * 1024;
  else if (unit == "TiB") mult = 1024.0 * 1024 * 1024 * 1024;
  else if (unit == "KB" || unit == "kB") mult = 1e3;
  else if (unit == "MB") mult = 1e6;
  else if (unit == "GB") mult = 1e9;
  else if (unit == "TB") mult = 1e12;
  else return false;
  out = v * mult;
  return std::floor(out) == out && out < 1.8e19;
}

std::string format_bytes_exact(uint64_t b) {
  struct U { uint64_t m; const char* n; };
  static const U units[] = {{1ull << 40, "TiB"}, {1ull << 30, "GiB"}, {1ull << 20, "MiB"}, {1ull << 10, "KiB"}};
  for (const auto& u : units)
    if (b >= u.m && b % u.m == 0) return std::to_string(b / u.m) + u.n;
  return std::to_string(b);
}

std::string format_number(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

#define P_U32(field) [](const SimParams& p) { return double(p.field); }, [](SimParams& p, double v) { p.field = uint32_t(v); }
#define P_U64(field) [](const SimParams& p) { return double(p.field); }, [](SimParams& p, double v) { p.field = uint64_t(v); }
#define P_DBL(field) [](const SimParams& p) { return p.field; }, [](SimParams& p, double v) { p.field = v; }

const std::vector<Param>& params() {
  static const std::vector<Param> table = {
      {{"capacity", "bytes", "user capacity (a multiple of the page), e.g. 64GiB or 2000398934016"}, Kind::Bytes, P_U64(capacity_bytes)},
      {{"lba", "bytes", "logical block size the namespace reports (512 or 4096)"}, Kind::Uint, P_U32(lba_bytes)},
      {{"op", "% or fraction", "spare factor rho: physical flash = user capacity x (1 + op), e.g. 7%"}, Kind::Fraction, P_DBL(op)},
      {{"page", "bytes", "mapping unit of the page-mapped FTL (sub-page writes read-modify-write)"}, Kind::Bytes, P_U32(page_bytes)},
      {{"gc", "greedy|fifo", "garbage-collection victim: fewest valid pages, or oldest written"}, Kind::Policy,
       [](const SimParams& p) { return double(p.gc == GcPolicy::Fifo); },
       [](SimParams& p, double v) { p.gc = v != 0 ? GcPolicy::Fifo : GcPolicy::Greedy; }},
      {{"gc_free", "superblocks", "foreground GC runs while at most this many superblocks are free"}, Kind::Uint, P_U32(gc_free)},
      {{"idle_gc_free", "superblocks", "during host idle, GC cleans until this many superblocks are free"}, Kind::Uint, P_U32(idle_gc_free)},
      {{"pe_cycles", "cycles", "rated program/erase cycles (SMART percentage used = mean erases / this)"}, Kind::Uint, P_U32(pe_cycles)},
      {{"channels", "count", "flash channels (buses shared by their dies)"}, Kind::Uint, P_U32(channels)},
      {{"dies", "count", "flash dies in total, spread evenly over the channels"}, Kind::Uint, P_U32(dies)},
      {{"planes", "count", "planes per die (programmed, read and erased together)"}, Kind::Uint, P_U32(planes)},
      {{"flash_page", "bytes", "flash page per plane"}, Kind::Bytes, P_U32(flash_page_bytes)},
      {{"pages_per_block", "count", "flash pages per block and plane"}, Kind::Uint, P_U32(pages_per_block)},
      {{"bits_per_cell", "count", "pages programmed together on one wordline (1 SLC, 2 MLC, 3 TLC, 4 QLC)"}, Kind::Uint, P_U32(bits_per_cell)},
      {{"read_us", "us", "tR: reading a page (all planes of one wordline page) into the die's register"}, Kind::Us, P_U32(read_ns)},
      {{"prog_us", "us", "tPROG: programming one wordline on all planes and all its bits (one program unit); its page "
                            "types (lower, middle, upper, ...) take 1:2:4:... shares of it, one after another"}, Kind::Us, P_U32(prog_ns)},
      {{"erase_us", "us", "tBERS: erasing one block on every plane of a die"}, Kind::Us, P_U32(erase_ns)},
      {{"channel_mbps", "MB/s", "flash channel transfer rate (10^6 B/s)"}, Kind::Mbps, P_DBL(channel_mbps)},
      {{"pcie_mbps", "MB/s", "host link transfer rate per direction (10^6 B/s)"}, Kind::Mbps, P_DBL(pcie_mbps)},
      {{"cmd_read_us", "us", "controller latency of a read command (fetch, lookup, completion)"}, Kind::Us, P_U32(cmd_read_ns)},
      {{"cmd_write_us", "us", "controller latency of a write command up to data in the buffer"}, Kind::Us, P_U32(cmd_write_ns)},
      {{"cmd_occupancy_ns", "ns", "controller busy time per command: the controller's IOPS limit is 1/this"}, Kind::Ns, P_U32(cmd_occupancy_ns)},
      {{"ftl_page_ns", "ns", "controller (FTL) busy time per flash page programmed (host data, GC copies, padding): its "
                             "program-rate limit is 1/this"}, Kind::Ns, P_U32(ftl_page_ns)},
      {{"buffer", "bytes", "write buffer holding host data until it is programmed"}, Kind::Bytes, P_U64(buffer_bytes)},
      {{"plp", "0|1", "1: the buffer is power-loss protected (no volatile write cache is reported); 0: a volatile write cache"}, Kind::Bool,
       [](const SimParams& p) { return double(p.plp); }, [](SimParams& p, double v) { p.plp = v != 0; }},
      {{"crypto_erase_ms", "ms", "duration of a crypto erase (Sanitize or Format NVM SES=2)"}, Kind::Ms, P_U32(crypto_erase_ms)},
      {{"read_priority", "0|1", "1: host reads go ahead of queued flash work on their die and channel and suspend a "
                                "program or erase in progress; 0: every die and channel first come, first served"}, Kind::Bool,
       [](const SimParams& p) { return double(p.read_priority); }, [](SimParams& p, double v) { p.read_priority = v != 0; }},
      {{"suspend_us", "us", "program suspend latency: from the suspend command until the die can sense a read"}, Kind::Us, P_U32(suspend_ns)},
      {{"erase_suspend_us", "us", "erase suspend latency, likewise"}, Kind::Us, P_U32(erase_suspend_ns)},
      {{"resume_us", "us", "extra die time a suspended program or erase takes when it resumes"}, Kind::Us, P_U32(resume_ns)},
      {{"max_suspends", "count", "suspends one page program (or one erase) admits; later reads wait for it to end"}, Kind::Uint,
       P_U32(max_suspends)},
      {{"prog_var", "% or fraction", "each page program time is drawn uniformly within +-this share of its page type's time"},
       Kind::Share, P_DBL(prog_var)},
      {{"read_retry", "% or fraction", "probability that a flash read needs another read with shifted reference voltages "
                                       "(each retry again with this probability); each costs one more tR"}, Kind::Share, P_DBL(read_retry)},
      {{"ctrl_jitter_us", "us", "mean extra controller latency per command, exponentially distributed (firmware and "
                                "interrupt scheduling)"}, Kind::Us, P_U32(ctrl_jitter_ns)},
      {{"variation_seed", "count", "seed of the per-operation variation (program times, read retries, controller "
                                   "jitter): the same seed repeats the same drive; another gives another drive's tails"},
       Kind::Uint, P_U32(variation_seed)},
      {{"fail_after_writes", "bytes", "fault injection, 0 = off: once the host has written this much to the drive (over "
                                      "its life, purges included), every further write command fails with Write Fault, "
                                      "as a drive gone read-only does; reads still complete"}, Kind::Bytes,
       P_U64(fail_after_write_bytes)},
  };
  return table;
}

#undef P_U32
#undef P_U64
#undef P_DBL

const Param* find_param(const std::string& name) {
  for (const auto& p : params())
    if (name == p.doc.name) return &p;
  return nullptr;
}

std::string known_names() {
  std::string out;
  for (const auto& p : params()) out += (out.empty() ? "" : ", ") + std::string(p.doc.name);
  return out;
}

}  // namespace

const std::vector<ParamDoc>& param_docs() {
  static const std::vector<ParamDoc> docs = [] {
    std::vector<ParamDoc> d;
    for (const auto& p : params()) d.push_back(p.doc);
    return d;
  }();
  return docs;
}

std::string apply_override(SimParams& p, const std::string& raw_name, const std::string& raw_value) {
  const std::string name = trim(raw_name), value = trim(raw_value);
  const Param* param = find_param(name);
  if (!param) return "unknown parameter '" + name + "' (known: " + known_names() + ")";
  const std::string what = name + "=" + value + ": ";
  if (value.empty()) return what + "needs a value";
  double v = 0;
  char* end = nullptr;
  switch (param->kind) {
    case Kind::Bytes:
      if (!parse_bytes(value, v)) return what + "not a byte count (e.g. 4096, 16KiB, 64GiB, 32GB)";
      break;
    case Kind::Fraction: {
      const bool pct = value.back() == '%';
      const std::string num = pct ? value.substr(0, value.size() - 1) : value;
      v = std::strtod(num.c_str(), &end);
      if (num.empty() || end != num.c_str() + num.size()) return what + "not a percentage (7%) or a fraction (0.07)";
      if (pct) v /= 100.0;
      else if (v >= 1) return what + "a plain number must be a fraction below 1; write a percentage as " + num + "%";
      if (!(v > 0)) return what + "must be above 0 (a drive without spare space cannot garbage-collect)";
      break;
    }
    case Kind::Share: {
      const bool pct = value.back() == '%';
      const std::string num = pct ? value.substr(0, value.size() - 1) : value;
      v = std::strtod(num.c_str(), &end);
      if (num.empty() || end != num.c_str() + num.size() || !(v >= 0))
        return what + "not a percentage (10%) or a fraction (0.1)";
      if (pct) v /= 100.0;
      else if (v >= 1) return what + "a plain number must be a fraction below 1; write a percentage as " + num + "%";
      if (!(v < 1)) return what + "must be below 100%";
      break;
    }
    case Kind::Policy:
      if (value == "greedy") v = 0;
      else if (value == "fifo") v = 1;
      else return what + "unknown policy (greedy or fifo)";
      break;
    case Kind::Bool:
      if (value == "1" || value == "true" || value == "yes") v = 1;
      else if (value == "0" || value == "false" || value == "no") v = 0;
      else return what + "not 0 or 1";
      break;
    default: {
      v = std::strtod(value.c_str(), &end);
      if (end != value.c_str() + value.size() || !(v >= 0)) return what + "not a non-negative number";
      if (param->kind == Kind::Uint || param->kind == Kind::Ns) {
        if (std::floor(v) != v || v > 4e9) return what + "not a whole number";
      }
      if (param->kind == Kind::Us) v = std::round(v * 1000.0);
      if (param->kind == Kind::Ms) v = std::round(v);
      if ((param->kind == Kind::Us) && v > 4e9) return what + "too large";
      break;
    }
  }
  param->set(p, v);
  return "";
}

std::string param_value(const SimParams& p, const std::string& name) {
  const Param* param = find_param(name);
  if (!param) return "";
  const double v = param->get(p);
  switch (param->kind) {
    case Kind::Bytes: return format_bytes_exact(uint64_t(v));
    case Kind::Fraction:
    case Kind::Share: return format_number(v * 100.0) + "%";
    case Kind::Policy: return v != 0 ? "fifo" : "greedy";
    case Kind::Bool: return v != 0 ? "1" : "0";
    case Kind::Us: return format_number(v / 1000.0);
    default: return format_number(v);
  }
}

std::vector<std::pair<std::string, std::string>> all_values(const SimParams& p) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& param : params()) out.emplace_back(param.doc.name, param_value(p, param.doc.name));
  return out;
}

std::string canonical(const SimParams& p) {
  std::string out = p.profile;
  auto base = profile_params(p.profile);
  for (const auto& [name, value] : all_values(p))
    if (!base.ok() || param_value(*base, name) != value) out += "," + name + "=" + value;
  return out;
}

std::string fit_blocks_to_capacity(SimParams& p, const SimParams& profile) {
  if (p.capacity_bytes >= profile.capacity_bytes || p.pages_per_block != profile.pages_per_block || p.bits_per_cell == 0)
    return "";
  const double scale = double(p.capacity_bytes) / double(profile.capacity_bytes);
  const uint32_t wordlines = std::max<uint32_t>(1, uint32_t(double(profile.pages_per_block / p.bits_per_cell) * scale));
  p.pages_per_block = wordlines * p.bits_per_cell;
  if (p.pages_per_block == profile.pages_per_block) return "";
  return "scaled with capacity: the profile's " + std::to_string(profile.pages_per_block) + " pages per block x " +
         std::to_string(p.capacity_bytes) + " / " + std::to_string(profile.capacity_bytes) + " B, rounded down to whole wordlines (" + std::to_string(wordlines) + " x " + std::to_string(p.bits_per_cell) +
         "), so the drive keeps about the profile's number of superblocks and its GC reserve the same share of the spare";
}

core::Status validate(const SimParams& p) {
  std::vector<std::string> e;
  auto pow2 = [](uint64_t v) { return v && (v & (v - 1)) == 0; };
  if (p.lba_bytes != 512 && p.lba_bytes != 4096) e.push_back("lba=" + std::to_string(p.lba_bytes) + ": must be 512 or 4096");
  if (!pow2(p.page_bytes) || p.page_bytes < 512 || p.page_bytes > 65536)
    e.push_back("page=" + std::to_string(p.page_bytes) + ": must be a power of two from 512 to 64KiB");
  else if (p.page_bytes < p.lba_bytes)
    e.push_back("page=" + std::to_string(p.page_bytes) + ": smaller than the " + std::to_string(p.lba_bytes) + "-byte LBA");
  if (p.capacity_bytes == 0) e.push_back("capacity: must be above 0");
  else if (p.page_bytes && p.capacity_bytes % p.page_bytes != 0)
    e.push_back("capacity=" + std::to_string(p.capacity_bytes) + ": not a multiple of the " +
                std::to_string(p.page_bytes) + "-byte page");
  else if (p.page_bytes && p.capacity_bytes / p.page_bytes < 4096)
    e.push_back("capacity=" + std::to_string(p.capacity_bytes) + ": smaller than 4096 pages");
  if (!(p.op > 0)) e.push_back("op: must be above 0 (a drive without spare space cannot garbage-collect)");
  if (p.op > 4) e.push_back("op: at most 400%");
  if (p.channels == 0) e.push_back("channels: at least 1");
  if (p.dies == 0) e.push_back("dies: at least 1");
  if (p.channels && p.dies % p.channels != 0)
    e.push_back("dies=" + std::to_string(p.dies) + ": must be a multiple of channels=" + std::to_string(p.channels));
  if (p.dies > 4096) e.push_back("dies: at most 4096");
  if (p.planes == 0 || p.planes > 16) e.push_back("planes: 1 to 16");
  if (p.bits_per_cell == 0 || p.bits_per_cell > 4) e.push_back("bits_per_cell: 1 to 4");
  if (p.page_bytes && (p.flash_page_bytes < p.page_bytes || p.flash_page_bytes % p.page_bytes != 0))
    e.push_back("flash_page=" + std::to_string(p.flash_page_bytes) + ": must be a multiple of the page (" +
                std::to_string(p.page_bytes) + ")");
  if (p.pages_per_block == 0 || (p.bits_per_cell && p.pages_per_block % p.bits_per_cell != 0))
    e.push_back("pages_per_block=" + std::to_string(p.pages_per_block) + ": must be a positive multiple of bits_per_cell");
  if (p.read_ns == 0 || p.prog_ns == 0 || p.erase_ns == 0) e.push_back("read_us, prog_us, erase_us: must be above 0");
  if (!(p.channel_mbps > 0) || !(p.pcie_mbps > 0)) e.push_back("channel_mbps, pcie_mbps: must be above 0");
  if (p.pe_cycles == 0) e.push_back("pe_cycles: at least 1");
  if (!(p.prog_var >= 0 && p.prog_var < 1)) e.push_back("prog_var: from 0 to below 100%");
  if (!(p.read_retry >= 0 && p.read_retry <= 0.5)) e.push_back("read_retry: from 0 to 50%");
  if (p.max_suspends > 1000) e.push_back("max_suspends: at most 1000");
  if (p.gc_free < 2) e.push_back("gc_free: at least 2 (one for each write frontier)");
  if (p.idle_gc_free < p.gc_free) e.push_back("idle_gc_free: at least gc_free");
  if (!e.empty()) return core::Error(core::ErrorKind::BadInput, e);
  // Geometry checks that need the derived sizes.
  const Geometry g(p);
  const double sbs = std::ceil(double(g.user_pages) * (1.0 + p.op) / double(g.sb_pages));
  if (p.buffer_bytes / p.page_bytes < 2 * uint64_t(g.unit_pages))
    e.push_back("buffer=" + std::to_string(p.buffer_bytes) + ": must hold at least two program units (" +
                std::to_string(2 * uint64_t(g.unit_pages) * p.page_bytes) + " bytes)");
  if (sbs < p.idle_gc_free + 8)
    e.push_back("capacity/op/geometry give only " + format_number(sbs) + " superblocks; at least idle_gc_free + 8 = " +
                std::to_string(p.idle_gc_free + 8) + " are needed (more capacity, fewer dies or smaller blocks)");
  if (sbs * double(g.sb_pages) >= 2147483647.0)
    e.push_back("physical flash of " + format_number(sbs * double(g.sb_pages)) + " pages exceeds 2^31 - 1 pages");
  else if (e.empty() && g.spare_after_reserve() < p.op / 2)
    e.push_back("capacity/op/geometry give " + format_number(double(g.superblocks)) + " superblocks of " +
                format_number(double(g.sb_pages * p.page_bytes) / 1048576.0) + " MiB: the GC's free pool (gc_free=" +
                std::to_string(p.gc_free) + ") and the open frontiers hold " +
                std::to_string(g.reserve_superblocks) + " of them, which leaves a spare of " +
                format_number(std::round(g.spare_after_reserve() * 10000) / 100) + "% of the " +
                format_number(p.op * 100) + "% asked for (at least half must remain): more capacity, fewer dies, "
                "fewer planes or smaller blocks (pages_per_block)");
  if (!e.empty()) return core::Error(core::ErrorKind::BadInput, e);
  return core::ok_status();
}

}  // namespace pts::sim
