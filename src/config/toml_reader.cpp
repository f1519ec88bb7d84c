// config/toml_reader.cpp — see toml_reader.h.
#include "config/toml_reader.h"

#include <algorithm>
#include <cmath>

#include "core/units.h"

namespace pts::config::detail {
namespace {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

}  // namespace

const char* type_name(const toml::node& n) {
  if (n.is_string()) return "a string";
  if (n.is_integer()) return "an integer";
  if (n.is_floating_point()) return "a number";
  if (n.is_boolean()) return "a boolean";
  if (n.is_array()) return "an array";
  if (n.is_table()) return "a table";
  return "a date/time";
}

std::string number_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

void Problems::add(int line, const std::string& message) {
  line = line > 0 ? line : 1;
  items_.emplace_back(line, file_ + ":" + std::to_string(line) + ": " + message);
}

std::vector<std::string> Problems::list() const {
  auto sorted = items_;
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (auto& [line, text] : sorted) out.push_back(std::move(text));
  return out;
}

std::optional<toml::table> parse_toml(const std::string& text, Problems& p) {
  try {
    return toml::parse(text, p.file());
  } catch (const toml::parse_error& e) {
    p.add(static_cast<int>(e.source().begin.line), "TOML syntax: " + std::string(e.description()));
    return std::nullopt;
  }
}

int line_of(const toml::node& node) {
  const auto line = node.source().begin.line;
  return line > 0 ? static_cast<int>(line) : 1;
}

int TableReader::line(std::string_view key) const {
  if (const toml::node* n = table_.get(key)) return line_of(*n);
  return line();
}

void TableReader::only_keys(std::initializer_list<std::string_view> allowed) {
  only_keys(std::vector<std::string_view>(allowed));
}

void TableReader::only_keys(const std::vector<std::string_view>& allowed) {
  for (auto&& [key, node] : table_) {
    const std::string_view k = key.str();
    if (std::find(allowed.begin(), allowed.end(), k) != allowed.end()) continue;
    std::string msg = "unknown key " + quoted(k) + " in " + where_;
    std::string_view best;
    size_t best_d = 3;
    for (auto a : allowed) {
      size_t d = edit_distance(k, a);
      if (d < best_d) best_d = d, best = a;
    }
    if (!best.empty()) msg += " (did you mean " + quoted(best) + "?)";
    else {
      msg += " (allowed:";
      for (auto a : allowed) msg += " " + std::string(a);
      msg += ")";
    }
    const int line = key.source().begin.line > 0 ? static_cast<int>(key.source().begin.line) : line_of(node);
    p_.add(line, msg);
  }
}

const toml::node* TableReader::find(std::string_view key, bool required) {
  const toml::node* n = table_.get(key);
  if (!n && required) p_.add(line(), where_ + " needs " + quoted(key));
  return n;
}

std::optional<std::string> TableReader::string(std::string_view key, bool required) {
  const toml::node* n = find(key, required);
  if (!n) return std::nullopt;
  if (auto v = n->value<std::string>(); v && n->is_string()) return *v;
  p_.add(line_of(*n), where_ + " " + std::string(key) + " must be a string, not " + type_name(*n));
  return std::nullopt;
}

std::optional<bool> TableReader::boolean(std::string_view key, bool required) {
  const toml::node* n = find(key, required);
  if (!n) return std::nullopt;
  if (n->is_boolean()) return n->value<bool>();
  p_.add(line_of(*n), where_ + " " + std::string(key) + " must be true or false, not " + type_name(*n));
  return std::nullopt;
}

std::optional<double> TableReader::number(std::string_view key, double lo, bool lo_exclusive, double hi,
                                          bool required) {
  const toml::node* n = find(key, required);
  if (!n) return std::nullopt;
  if (!n->is_number()) {
    p_.add(line_of(*n), where_ + " " + std::string(key) + " must be a number, not " + type_name(*n));
    return std::nullopt;
  }
  const double v = *n->value<double>();
  const bool low = lo_exclusive ? !(v > lo) : !(v >= lo);
  if (!std::isfinite(v) || low || v > hi) {
    std::string range = lo_exclusive ? "greater than " + number_text(lo) : "at least " + number_text(lo);
    if (std::isfinite(hi)) range += " and at most " + number_text(hi);
    p_.add(line_of(*n), where_ + " " + std::string(key) + " = " + number_text(v) + " must be " + range);
    return std::nullopt;
  }
  return v;
}

std::optional<int64_t> TableReader::integer(std::string_view key, int64_t lo, int64_t hi, bool required) {
  const toml::node* n = find(key, required);
  if (!n) return std::nullopt;
  if (!n->is_integer()) {
    p_.add(line_of(*n), where_ + " " + std::string(key) + " must be an integer, not " + type_name(*n));
    return std::nullopt;
  }
  const int64_t v = *n->value<int64_t>();
  if (v < lo || v > hi) {
    p_.add(line_of(*n), where_ + " " + std::string(key) + " = " + std::to_string(v) + " must be between " +
                            std::to_string(lo) + " and " + std::to_string(hi));
    return std::nullopt;
  }
  return v;
}

std::optional<uint32_t> block_size_of(const toml::node& n, const std::string& what, Problems& p) {
  std::optional<uint64_t> bytes;
  std::string text;
  if (n.is_string()) {
    text = *n.value<std::string>();
    bytes = core::parse_size_bytes(text);
  } else if (n.is_integer() && *n.value<int64_t>() > 0) {
    bytes = static_cast<uint64_t>(*n.value<int64_t>());
    text = std::to_string(*bytes);
  } else {
    p.add(line_of(n), what + " must be a block size such as \"4k\" or \"0.5k\", not " + type_name(n));
    return std::nullopt;
  }
  if (!bytes || *bytes == 0) {
    p.add(line_of(n), what + " " + quoted(text) + " is not a block size (use e.g. \"4k\", \"0.5k\", \"1024k\")");
    return std::nullopt;
  }
  if (*bytes % 512 != 0 || *bytes > 64 * core::MiB) {
    p.add(line_of(n), what + " " + quoted(text) + " must be a multiple of 512 bytes and at most 64 MiB");
    return std::nullopt;
  }
  return static_cast<uint32_t>(*bytes);
}

std::optional<uint32_t> TableReader::block_size(std::string_view key, bool required) {
  const toml::node* n = find(key, required);
  if (!n) return std::nullopt;
  return block_size_of(*n, where_ + " " + std::string(key), p_);
}

std::optional<std::vector<uint32_t>> TableReader::block_sizes(std::string_view key, bool required) {
  const toml::array* a = array(key, required);
  if (!a) return std::nullopt;
  std::vector<uint32_t> out;
  bool good = true;
  for (const auto& e : *a) {
    auto bs = block_size_of(e, where_ + " " + std::string(key), p_);
    if (!bs) { good = false; continue; }
    if (std::find(out.begin(), out.end(), *bs) != out.end()) {
      p_.add(line_of(e), where_ + " " + std::string(key) + " lists " + core::format_block_size(*bs) + " twice");
      good = false;
    }
    out.push_back(*bs);
  }
  if (good && out.empty()) {
    p_.add(line_of(*a), where_ + " " + std::string(key) + " is empty");
    good = false;
  }
  if (!good) return std::nullopt;
  return out;
}

std::optional<std::vector<std::string>> TableReader::strings(std::string_view key, bool required) {
  const toml::array* a = array(key, required);
  if (!a) return std::nullopt;
  std::vector<std::string> out;
  for (const auto& e : *a) {
    if (!e.is_string()) {
      p_.add(line_of(e), where_ + " " + std::string(key) + " must hold strings, not " + type_name(e));
      return std::nullopt;
    }
    out.push_back(*e.value<std::string>());
  }
  return out;
}

std::optional<std::string> TableReader::choice(std::string_view key, std::initializer_list<const char*> allowed) {
  auto v = string(key);
  if (!v) return v;
  std::string all;
  for (const char* a : allowed) {
    if (*v == a) return v;
    all += (all.empty() ? "" : ", ") + std::string(a);
  }
  p_.add(line(key), where_ + " " + std::string(key) + " '" + *v + "' must be one of " + all);
  return std::nullopt;
}

std::optional<std::vector<uint32_t>> TableReader::counts(std::string_view key, int64_t lo, int64_t hi, bool required) {
  const toml::array* a = array(key, required);
  if (!a) return std::nullopt;
  std::vector<uint32_t> out;
  bool good = true;
  for (const auto& e : *a) {
    // value_exact: an integer node only; toml++'s value<int64_t>() casts a float (undefined past the range).
    const auto v = e.value_exact<int64_t>();
    if (!v || *v < lo || *v > hi) {
      p_.add(line_of(e), where_ + " " + std::string(key) + " values must be integers from " + std::to_string(lo) +
                             " to " + std::to_string(hi));
      good = false;
      continue;
    }
    if (std::find(out.begin(), out.end(), static_cast<uint32_t>(*v)) != out.end()) {
      p_.add(line_of(e), where_ + " " + std::string(key) + " lists " + std::to_string(*v) + " twice");
      good = false;
    }
    out.push_back(static_cast<uint32_t>(*v));
  }
  if (good && out.empty()) {
    p_.add(line_of(*a), where_ + " " + std::string(key) + " is empty");
    good = false;
  }
  if (!good) return std::nullopt;
  return out;
}

const toml::array* TableReader::array(std::string_view key, bool required) {
  const toml::node* n = find(key, required);
  if (!n) return nullptr;
  if (const toml::array* a = n->as_array()) return a;
  p_.add(line_of(*n), where_ + " " + std::string(key) + " must be an array, not " + type_name(*n));
  return nullptr;
}

const toml::table* TableReader::table(std::string_view key, bool required) {
  const toml::node* n = find(key, required);
  if (!n) return nullptr;
  if (const toml::table* t = n->as_table()) return t;
  p_.add(line_of(*n), where_ + " " + std::string(key) + " must be a table, not " + type_name(*n));
  return nullptr;
}

}  // namespace pts::config::detail
