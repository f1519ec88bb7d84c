// config/catalog.cpp — see catalog.h.
#include "config/catalog.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace pts::config {
namespace fs = std::filesystem;

namespace {

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

fs::path executable_dir() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return {};
  buf[n] = '\0';
  return fs::path(buf).parent_path();
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

core::Result<std::string> find_tests_dir() {
  std::vector<std::string> tried;
  if (const char* env = std::getenv("PTSUITE_TESTS_DIR"); env && *env) {
    if (is_dir(env)) return std::string(env);
    return core::bad_input("PTSUITE_TESTS_DIR=" + std::string(env) + " is not a directory");
  }
  std::vector<fs::path> candidates;
  if (fs::path exe = executable_dir(); !exe.empty()) {
    candidates.push_back(exe / ".." / "tests-pts");
    candidates.push_back(exe / ".." / ".." / "tests-pts");
    candidates.push_back(exe / ".." / "share" / "ptsuite" / "tests-pts");
  }
#ifdef PTS_SOURCE_TESTS_DIR
  candidates.push_back(PTS_SOURCE_TESTS_DIR);
#endif
  for (const auto& c : candidates) {
    if (is_dir(c)) return fs::weakly_canonical(c).string();
    tried.push_back(c.lexically_normal().string());
  }
  std::string msg = "cannot find the tests-pts directory (set PTSUITE_TESTS_DIR); tried:";
  for (const auto& t : tried) msg += " " + t;
  return core::bad_input(msg);
}

std::vector<std::string> definition_files(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file(ec) && ends_with(name, ".toml") && name[0] != '_') out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

core::Result<std::vector<TestDefinition>> load_all_definitions(const std::string& dir) {
  std::vector<TestDefinition> defs;
  std::vector<std::string> errors;
  for (const auto& f : definition_files(dir)) {
    auto d = load_definition(f);
    if (d) defs.push_back(std::move(d.value()));
    else errors.insert(errors.end(), d.error().messages.begin(), d.error().messages.end());
  }
  if (!errors.empty()) return core::Error(core::ErrorKind::BadInput, errors);
  if (defs.empty()) return core::bad_input(dir + ": no test definitions (*.toml)");
  return defs;
}

core::Result<TestDefinition> find_definition(const std::string& test) {
  if (ends_with(lower(test), ".toml")) return load_definition(test);
  auto dir = find_tests_dir();
  if (!dir) return dir.error();
  const std::string want = lower(test);
  std::vector<std::string> errors, known;
  for (const auto& f : definition_files(*dir)) {
    auto d = load_definition(f);
    if (!d) {
      errors.insert(errors.end(), d.error().messages.begin(), d.error().messages.end());
      continue;
    }
    bool match = lower(d->id) == want;
    for (const auto& a : d->aliases) match = match || lower(a) == want;
    if (match) return std::move(d.value());
    std::string k = d->id;
    for (const auto& a : d->aliases) k += "/" + a;
    known.push_back(k);
  }
  std::string msg = "unknown test '" + test + "'";
  if (!known.empty()) {
    msg += " (known:";
    for (const auto& k : known) msg += " " + k;
    msg += ")";
  }
  errors.insert(errors.begin(), msg);
  return core::Error(core::ErrorKind::BadInput, errors);
}

}  // namespace pts::config
