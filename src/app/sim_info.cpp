// app/sim_info.cpp — see sim_info.h.
#include "app/sim_info.h"

#include <sys/stat.h>

#include <cstdio>

#include "core/units.h"
#include "sim/geometry.h"

namespace pts::app {

namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

double lifetime_wa(const sim::FtlCounters& c) {
  return c.host_pages ? double(c.nand_pages()) / double(c.host_pages) : 0.0;
}

// Opening a saved drive maps its state file and decodes the snapshot from the mapping, so
// the file's pages count in the process's resident memory (max RSS) on top of the state until
// the open ends: clean file pages, which the kernel can reclaim, but a peak a lab would see.
std::string mapped_while_opening(const sim::DriveSession& s) {
  struct stat st {};
  if (!s.exists() || ::stat(s.target().state_path.c_str(), &st) != 0 || st.st_size <= 0) return "";
  return "; opening it maps the state file, so resident memory peaks at about " +
         core::format_bytes(s.drive().geometry().state_bytes() + static_cast<uint64_t>(st.st_size)) +
         " while it loads (the file's " + core::format_bytes(static_cast<uint64_t>(st.st_size)) +
         ": clean page cache the kernel can reclaim)";
}

}  // namespace

std::string sim_memory_line(const sim::DriveSession& s) {
  const sim::Geometry& g = s.drive().geometry();
  return "Simulated drive " + s.target().text() + ": needs " + core::format_bytes(g.state_bytes()) +
         " of memory for its state (mapping table " + core::format_bytes(g.user_pages * 4) + ", reverse map " +
         core::format_bytes(g.phys_pages * 4) + ", validity bitmap " + core::format_bytes(g.phys_pages / 8) +
         "); its state file holds at most as much (mapping runs compress)" + mapped_while_opening(s);
}

std::vector<std::string> sim_info_lines(sim::DriveSession& s, bool with_sources) {
  sim::Drive& d = s.drive();
  const sim::Geometry& g = d.geometry();
  const sim::SimParams& p = d.params();
  const auto& c = d.counters();
  std::vector<std::string> out;
  out.push_back("Simulated      yes: profile " + p.profile + ", every figure from ptsuite's FTL and flash model, "
                "times are virtual");
  out.push_back("State file     " + s.target().state_path +
                (s.exists() ? "" : " (does not exist yet: made by the first command that writes)"));
  out.push_back("Geometry       " + std::to_string(p.channels) + " channels, " + std::to_string(p.dies) + " dies, " +
                std::to_string(p.planes) + " planes, " + std::to_string(g.superblocks) + " superblocks of " +
                std::to_string(g.sb_pages) + " pages (" + core::format_bytes(g.sb_pages * g.page_bytes) +
                "), spare factor " + fmt("%.4f", g.effective_op()));
  out.push_back("Spare          " + fmt("%.4f", g.spare_after_reserve()) + " after the GC reserve and open frontiers (" +
                std::to_string(g.reserve_superblocks) + " superblocks: " + std::to_string(p.gc_free) +
                " kept free, half of each open frontier); uniform random writes reach the closed-form write "
                "amplification " + fmt("%.2f", sim::closed_form_wa(g.spare_after_reserve())) + " at it");
  out.push_back("Memory         " + core::format_bytes(g.state_bytes()) + " of drive state");
  out.push_back("Power-on time  " + fmt("%.1f", double(d.now()) / 3.6e12) + " h virtual");
  out.push_back("Written        host " + std::to_string(c.ftl.host_pages) + " pages, NAND " +
                std::to_string(c.ftl.nand_pages()) + " pages (GC copies " + std::to_string(c.ftl.gc_pages) +
                ", padding " + std::to_string(c.ftl.pad_pages) + "), write amplification " +
                fmt("%.3f", lifetime_wa(c.ftl)) + " over the drive's life");
  out.push_back("Free space     " + std::to_string(d.ftl().free_superblocks()) + " free superblocks, " +
                std::to_string(d.ftl().mapped_pages()) + " of " + std::to_string(g.user_pages) + " pages mapped, " +
                std::to_string(c.ftl.erases) + " superblock erases, mean " + fmt("%.2f", d.ftl().mean_erases()) +
                " erases per block");
  const auto& st = s.stats();
  out.push_back("Checkpoints    opened in " + fmt("%.3f", st.load_seconds + st.replay_seconds) + " s (snapshot " +
                fmt("%.3f", st.load_seconds) + " s, " + std::to_string(st.records_replayed) + " log records replayed in " +
                fmt("%.3f", st.replay_seconds) + " s)" + (st.dropped_torn_tail ? "; a torn last record was dropped" : ""));
  out.push_back("Parameters     " + canonical(p));
  auto sources = sim::profile_sources(p.profile);
  sources.insert(sources.begin(), s.target().derived.begin(), s.target().derived.end());  // first match wins
  for (const auto& doc : sim::param_docs()) {
    std::string line = "  " + std::string(doc.name) + " = " + sim::param_value(p, doc.name) + " (" + doc.unit + "): " +
                       doc.meaning;
    if (with_sources)
      for (const auto& [k, v] : sources)
        if (k == doc.name) {
          line += "\n      source: " + v;
          break;
        }
    out.push_back(line);
  }
  return out;
}

nlohmann::json sim_info_json(sim::DriveSession& s) {
  sim::Drive& d = s.drive();
  const sim::Geometry& g = d.geometry();
  const auto& c = d.counters();
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [k, v] : sim::all_values(d.params())) params[k] = v;
  return {{"target", s.target().text()},
          {"profile", d.params().profile},
          {"state_file", s.target().state_path},
          {"state_file_exists", s.exists()},
          {"parameters", params},
          {"superblocks", g.superblocks},
          {"pages_per_superblock", g.sb_pages},
          {"effective_op", g.effective_op()},
          {"spare_after_reserve", g.spare_after_reserve()},
          {"reserve_superblocks", g.reserve_superblocks},
          {"state_memory_bytes", g.state_bytes()},
          {"power_on_virtual_ns", d.now()},
          {"host_pages_written", c.ftl.host_pages},
          {"nand_pages_written", c.ftl.nand_pages()},
          {"gc_pages_copied", c.ftl.gc_pages},
          {"write_amplification", lifetime_wa(c.ftl)},
          {"free_superblocks", d.ftl().free_superblocks()},
          {"mapped_pages", d.ftl().mapped_pages()},
          {"trimmed_pages", c.ftl.trimmed},
          {"erases", c.ftl.erases},
          {"replay_seconds", s.stats().replay_seconds},
          {"records_replayed", s.stats().records_replayed}};
}

}  // namespace pts::app
