// unit-tests/report/test_util.h — small helpers shared by the report tests: find a page, a
// table, a header field, a determination row in a rendered Document. May use: report.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "report/document.h"

namespace pts::report::testing {

inline const Page* page(const Document& d, const std::string& name) {
  for (const auto& p : d.pages)
    if (p.sheet_name == name) return &p;
  return nullptr;
}

inline const Table* table(const Page& p, const std::string& id) {
  for (const auto& t : p.tables)
    if (t.id == id) return &t;
  return nullptr;
}

/// The header value of `label` (first match) or "" when absent.
inline std::string field(const PageHeader& h, const std::string& label) {
  for (const auto& s : h.sections)
    for (const auto& f : s.fields)
      if (f.label == label) return f.value;
  return "";
}

inline bool has_banner(const PageHeader& h, const std::string& text) {
  for (const auto& b : h.banners)
    if (b.text.find(text) != std::string::npos) return true;
  return false;
}

/// Row of a two-column (item, value) table by item text.
inline const TableCell* item(const Table& t, const std::string& label) {
  for (const auto& r : t.rows)
    if (!r.empty() && r[0].type == TableCell::Type::Text && r[0].text == label) return &r[1];
  return nullptr;
}

/// Matrix cell by row key (block size in KiB) and column header (R/W mix).
inline const TableCell* matrix_cell(const Table& t, double kib, const std::string& mix) {
  size_t col = 0;
  for (size_t c = 0; c < t.columns.size(); ++c)
    if (t.columns[c].header == mix) col = c;
  if (col == 0) return nullptr;
  for (const auto& r : t.rows)
    if (r[0].type == TableCell::Type::Number && r[0].number == kib) return &r[col];
  return nullptr;
}

}  // namespace pts::report::testing
