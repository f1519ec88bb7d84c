// config/series_csv.cpp — see series_csv.h.
#include "config/series_csv.h"

#include <fstream>
#include <sstream>

#include "config/text_parse.h"

namespace pts::config {
namespace {

std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    if ((c == ',' || c == '\t' || c == ';') && !quoted) {
      out.push_back(detail::trimmed(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(detail::trimmed(cur));
  return out;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string shown(const std::string& s) { return "'" + (s.size() > 40 ? s.substr(0, 40) + "…" : s) + "'"; }

}  // namespace

core::Result<std::vector<double>> parse_series_csv(const std::string& text, const std::string& file) {
  std::vector<double> values;
  std::vector<std::string> errors;
  auto at = [&](int line) { return file + ":" + std::to_string(line) + ": "; };
  std::istringstream in(text);
  std::string raw;
  int line = 0;
  bool first = true;
  size_t column = 0;   // index of the value column
  size_t columns = 1;  // fields expected per row
  while (std::getline(in, raw)) {
    ++line;
    const std::string t = detail::trimmed(raw);
    if (t.empty() || t[0] == '#') continue;
    const auto fields = split_fields(raw);
    if (first) {
      first = false;
      if (fields.size() == 1 && detail::parse_decimal(fields[0])) {
        // no header: one value per line
      } else {
        bool found = false;
        for (size_t i = 0; i < fields.size(); ++i)
          if (lower(fields[i]) == "value") column = i, found = true;
        if (!found) {
          errors.push_back(at(line) + (fields.size() == 1 ? shown(fields[0]) + " is not a number"
                                                          : std::string("the header row has no column named 'value'")) +
                           " (a series is one number per line, or a CSV with a column named 'value')");
          break;
        }
        columns = fields.size();
        continue;
      }
    }
    if (fields.size() != columns) {
      errors.push_back(at(line) + std::to_string(fields.size()) + " field(s) where " + std::to_string(columns) +
                       " were expected" + (columns == 1 ? " (add a header row with a column named 'value')" : ""));
      continue;
    }
    if (auto v = detail::parse_decimal(fields[column])) values.push_back(*v);
    else errors.push_back(at(line) + shown(fields[column]) + " is not a number");
  }
  if (errors.empty() && values.empty()) errors.push_back(file + ": no values");
  if (!errors.empty()) return core::Error(core::ErrorKind::BadInput, errors);
  return values;
}

core::Result<std::vector<double>> load_series_csv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return core::bad_input(path + ": cannot read the series file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_series_csv(ss.str(), path);
}

}  // namespace pts::config
