// sim/target.cpp — see target.h.
#include "sim/target.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "sim/bytes.h"

namespace pts::sim {

bool is_sim_target(const std::string& text) { return text.rfind("sim:", 0) == 0; }

std::string default_state_dir() {
  const char* env = std::getenv("PTSUITE_SIM_DIR");
  return env && *env ? env : "/var/tmp";
}

std::string SimTarget::drive_text() const { return "sim:" + canonical(params) + "@" + state_path; }

std::string SimTarget::text() const { return drive_text() + (nsid ? "#" + std::to_string(nsid) : ""); }

core::Result<SimTarget> parse_sim_target(const std::string& text) {
  const std::string where = "TARGET " + text + ": ";
  if (!is_sim_target(text)) return core::bad_input(where + "not a sim: target");
  std::string spec = text.substr(4), path;
  uint32_t nsid = 0;
  if (const auto hash = spec.rfind('#'); hash != std::string::npos) {  // #NSID: digits to the end
    const std::string n = spec.substr(hash + 1);
    if (!n.empty() && n.size() <= 3 && n.find_first_not_of("0123456789") == std::string::npos) {
      nsid = static_cast<uint32_t>(std::stoul(n));
      if (nsid == 0) return core::bad_input(where + "#0 is not a namespace (NSIDs start at 1)");
      spec = spec.substr(0, hash);
    }
  }
  if (const auto at = spec.find('@'); at != std::string::npos) {
    path = spec.substr(at + 1);
    spec = spec.substr(0, at);
    if (path.empty()) return core::bad_input(where + "'@' must be followed by the state file's path");
  }
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t comma = spec.find(',', start);
    parts.push_back(spec.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (parts.empty() || parts[0].empty())
    return core::bad_input(where + "needs a profile, e.g. sim:demo or sim:dc-tlc-2t,op=28%");
  auto base = profile_params(parts[0]);
  if (!base.ok()) return core::bad_input(where + base.error().message());
  SimTarget t;
  t.params = *base;
  t.nsid = nsid;
  std::vector<std::string> errors;
  bool blocks_given = false;
  for (size_t i = 1; i < parts.size(); ++i) {
    const auto eq = parts[i].find('=');
    if (eq == std::string::npos) {
      errors.push_back(where + "'" + parts[i] + "' is not name=value");
      continue;
    }
    if (auto m = apply_override(t.params, parts[i].substr(0, eq), parts[i].substr(eq + 1)); !m.empty())
      errors.push_back(where + m);
    blocks_given = blocks_given || parts[i].substr(0, eq) == "pages_per_block";
  }
  // A smaller capacity keeps the spare: its blocks shrink with it unless pages_per_block is given.
  if (errors.empty() && !blocks_given)
    if (auto why = fit_blocks_to_capacity(t.params, *base); !why.empty()) t.derived.emplace_back("pages_per_block", why);
  if (errors.empty())
    if (auto v = validate(t.params); !v.ok())
      for (const auto& m : v.error().messages) errors.push_back(where + m);
  if (!errors.empty()) return core::Error(core::ErrorKind::BadInput, errors);

  if (path.empty()) {
    const std::string c = canonical(t.params);
    std::string name = "ptsuite-sim-" + t.params.profile;
    if (c != t.params.profile) {
      char hash[20];
      std::snprintf(hash, sizeof hash, "-%08llx",
                    static_cast<unsigned long long>(checksum64(c.data(), c.size()) & 0xFFFFFFFFull));
      name += hash;
    }
    path = default_state_dir() + "/" + name + ".simdrive";
    t.default_path = true;
  }
  std::error_code ec;
  const auto abs = std::filesystem::absolute(path, ec);
  t.state_path = ec ? path : abs.lexically_normal().string();
  const auto dir = std::filesystem::path(t.state_path).parent_path();
  if (!std::filesystem::is_directory(dir, ec))
    return core::bad_input(where + "the state file's directory " + dir.string() + " does not exist");
  if (std::filesystem::is_directory(t.state_path, ec))
    return core::bad_input(where + "the state file " + t.state_path + " is a directory");
  return t;
}

}  // namespace pts::sim
