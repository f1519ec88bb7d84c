// config/toml_reader.h — internal to config/: typed reads from a toml++ table that collect
// every problem as "file:line: message" instead of stopping at the first, and reject
// unknown keys (with a "did you mean" hint). The only header of ptsuite that includes
// toml++; included by config/*.cpp only.
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pts::config::detail {

/// Collects messages for one file.
class Problems {
 public:
  explicit Problems(std::string file) : file_(std::move(file)) {}
  void add(int line, const std::string& message);
  bool empty() const { return items_.empty(); }
  size_t size() const { return items_.size(); }
  /// "file:line: message", ordered by line (stable).
  std::vector<std::string> list() const;
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  std::vector<std::pair<int, std::string>> items_;
};

/// Parses `text` as TOML, named p.file() in messages; nullopt after adding the syntax error (with
/// its line) to `p`.
std::optional<toml::table> parse_toml(const std::string& text, Problems& p);

/// Source line of a node (1 when toml++ does not know it).
int line_of(const toml::node& node);

/// Typed reads of `key` from `table`, named `where` (e.g. "[matrix]") in messages. Missing
/// keys return nullopt (and, when `required`, add a problem at `table`'s line).
class TableReader {
 public:
  TableReader(const toml::table& table, std::string where, Problems& problems)
      : table_(table), where_(std::move(where)), p_(problems) {}

  /// Adds a problem for every key of the table not in `allowed`.
  void only_keys(std::initializer_list<std::string_view> allowed);
  void only_keys(const std::vector<std::string_view>& allowed);

  std::optional<std::string> string(std::string_view key, bool required = false);
  std::optional<bool> boolean(std::string_view key, bool required = false);
  /// Integer or float; must satisfy lo ≤ v (or lo < v when `lo_exclusive`) and v ≤ hi.
  std::optional<double> number(std::string_view key, double lo, bool lo_exclusive, double hi,
                               bool required = false);
  /// Integer in [lo, hi].
  std::optional<int64_t> integer(std::string_view key, int64_t lo, int64_t hi, bool required = false);
  /// Block size: "4k", "0.5k", "1024KiB" or an integer byte count; > 0 and a multiple of 512.
  std::optional<uint32_t> block_size(std::string_view key, bool required = false);
  std::optional<std::vector<uint32_t>> block_sizes(std::string_view key, bool required = false);
  std::optional<std::vector<std::string>> strings(std::string_view key, bool required = false);
  /// A string that must be one of `allowed` ("'x' must be one of a, b").
  std::optional<std::string> choice(std::string_view key, std::initializer_list<const char*> allowed);
  /// An array of integers in [lo, hi], none twice, not empty; nullopt after a problem.
  std::optional<std::vector<uint32_t>> counts(std::string_view key, int64_t lo, int64_t hi, bool required = false);
  const toml::array* array(std::string_view key, bool required = false);
  const toml::table* table(std::string_view key, bool required = false);

  /// The raw node of `key` (nullptr when missing), for a key that takes more than one type.
  const toml::node* node(std::string_view key) const { return table_.get(key); }
  int line() const { return line_of(table_); }
  int line(std::string_view key) const;
  const std::string& where() const { return where_; }
  Problems& problems() { return p_; }

 private:
  const toml::node* find(std::string_view key, bool required);
  const toml::table& table_;
  std::string where_;
  Problems& p_;
};

/// "a string", "an integer", ... for messages.
const char* type_name(const toml::node& node);
/// A number as written in messages ("%g").
std::string number_text(double v);

/// Parses one block-size node (string or integer) — shared by TableReader and inline tables.
std::optional<uint32_t> block_size_of(const toml::node& node, const std::string& what, Problems& p);

}  // namespace pts::config::detail
