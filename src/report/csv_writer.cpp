// report/csv_writer.cpp — see csv_writer.h.
#include "report/csv_writer.h"

#include "report/record_view.h"

namespace pts::report {

namespace {

void field(std::string& out, const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) {
    out += s;
    return;
  }
  out += '"';
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

}  // namespace

std::string table_to_csv(const Table& table) {
  std::string out;
  for (size_t c = 0; c < table.columns.size(); ++c) {
    if (c) out += ',';
    field(out, table.columns[c].key);
  }
  out += "\r\n";
  for (const auto& row : table.rows) {
    for (size_t c = 0; c < row.size(); ++c) {
      if (c) out += ',';
      switch (row[c].type) {
        case TableCell::Type::Number: out += exact_number(row[c].number); break;
        case TableCell::Type::Text: field(out, row[c].text); break;
        case TableCell::Type::Empty: break;
      }
    }
    out += "\r\n";
  }
  return out;
}

}  // namespace pts::report
