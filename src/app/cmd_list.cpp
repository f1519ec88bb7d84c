// app/cmd_list.cpp — `ptsuite list [--names]`: the PTS tests defined in tests-pts/ with their
// CLI names and the editions/classes each supports, then apart, by their procedure's group, the
// workloads that are not SNIA PTS tests (review-lab curves, sweeps, profiles) (--names: the
// names alone, one a line, for scripts and the bash completion). May use: config.
#include <algorithm>
#include <cstdio>
#include <string>

#include "app/commands.h"
#include "config/catalog.h"
#include "config/procedure_table.h"

namespace pts::app {

int cmd_list(const ListArgs& args) {
  if (!args.errors.empty()) {
    for (const auto& e : args.errors) std::fprintf(stderr, "ptsuite list: %s\n", e.c_str());
    return 2;
  }
  auto dir = config::find_tests_dir();
  if (!dir) {
    std::fprintf(stderr, "ptsuite list: %s\n", dir.error().message().c_str());
    return 2;
  }
  auto defs = config::load_all_definitions(*dir);
  if (!defs) {
    for (const auto& m : defs.error().messages) std::fprintf(stderr, "ptsuite list: %s\n", m.c_str());
    return 2;
  }
  if (args.names) {
    for (const auto& d : *defs) {
      std::printf("%s\n", d.id.c_str());
      for (const auto& a : d.aliases) std::printf("%s\n", a.c_str());
    }
    return 0;
  }
  // The SNIA PTS tests first, then each group of the procedures that are not SNIA tests.
  auto group_of = [](const config::TestDefinition& d) {
    const config::ProcedureRow* row = config::find_procedure(d.procedure);
    return std::string(row && row->not_snia_group ? row->not_snia_group : "");
  };
  std::vector<std::string> groups = {""};
  for (const auto& d : *defs)
    if (std::find(groups.begin(), groups.end(), group_of(d)) == groups.end()) groups.push_back(group_of(d));
  auto print = [](const config::TestDefinition& d, bool snia) {
    std::string names = d.id;
    for (const auto& a : d.aliases) names += ", " + a;
    std::printf("  %-22s %s — %s\n", names.c_str(), d.title.c_str(), d.description.c_str());
    if (snia) {
      std::string variants;
      for (const auto& [edition, classes] : d.editions)
        for (const auto& [cls, _] : classes) variants += (variants.empty() ? "" : ", ") + edition + " " + cls;
      std::printf("  %-22s editions: %s\n", "", variants.c_str());
    }
    if (d.subtests.size() > 1) {
      std::string subs;
      for (const auto& s : d.subtests) subs += (subs.empty() ? "" : ", ") + s.id;
      std::printf("  %-22s sub-tests: %s\n", "", subs.c_str());
    }
  };
  std::printf("Tests (definitions in %s):\n\n", dir->c_str());
  for (const auto& group : groups) {
    if (!group.empty()) std::printf("\n%s:\n\n", group.c_str());
    for (const auto& d : *defs)
      if (group_of(d) == group) print(d, group.empty());
  }
  std::printf("\nShow a resolved plan: ptsuite plan TEST [TARGET] [--pts EDITION] [--class CLASS]\n");
  return 0;
}

}  // namespace pts::app
