// report/document.h — a rendered-format-independent report: pages (sheets) with the SNIA
// header block, tables of numbers and text, and charts that draw one table. layout.cpp builds
// it from a template and a RunRecord; xlsx_writer.cpp and csv_writer.cpp turn it into files.
// May use: std only.
#pragma once

#include <string>
#include <vector>

#include "report/template_spec.h"

namespace pts::report {

/// One table cell: empty, a number (full precision; the column's format rounds it for
/// display) or text.
struct TableCell {
  enum class Type { Empty, Number, Text };
  Type type = Type::Empty;
  double number = 0;
  std::string text;
  static TableCell num(double v) { return {Type::Number, v, {}}; }
  static TableCell str(std::string s) { return {Type::Text, 0, std::move(s)}; }
};

struct TableColumn {
  std::string key;            ///< stable key: chart styles and checkers refer to it
  std::string header;
  std::string number_format;  ///< xlsx number format; empty = General
  int span = 1;               ///< sheet columns the column occupies (merged), for long labels
};

/// A table: column 0 holds the row keys (categories / x values); charts draw columns 1…n as
/// series. `notes` are plain-words lines printed under it.
struct Table {
  std::string id;
  int order = 0;  ///< placement on the page relative to charts (template line)
  std::string caption;
  std::vector<TableColumn> columns;
  std::vector<std::vector<TableCell>> rows;
  std::vector<std::string> notes;
};

/// A chart over one table of the same page.
struct Chart {
  ChartSpec spec;       ///< titles already expanded
  size_t table_index = 0;
};

struct HeaderField {
  std::string label;
  std::string value;
};

/// A status line under the title: `alert` ones (incomplete run, steady state not achieved)
/// are drawn in red on yellow, the others in green.
struct Banner {
  std::string text;
  bool alert = false;
};

struct HeaderSection {
  std::string title;  ///< "Device Under Test", "Test Platform", ...
  std::vector<HeaderField> fields;
};

/// The SNIA header block every page opens with.
struct PageHeader {
  std::string organisation;  ///< "SNIA SSS TWG — Solid State Storage Performance Test Specification"
  std::string revision;      ///< "Rev. PTS-E 1.1 (Enterprise)"
  std::string test_page;     ///< "IOPS Report Page"
  std::string subtitle;      ///< "IOPS – Block Size x RW Mix Matrix"
  std::string page_label;    ///< "Page 3 of 9"
  std::vector<Banner> banners;        ///< INCOMPLETE RUN, steady state NOT achieved, ...
  std::vector<HeaderSection> sections;
  std::vector<std::string> deviations;  ///< every deviation in plain words
};

struct Page {
  std::string sheet_name;  ///< unique, ≤ 31 chars, no []:*?/\ characters
  PageHeader header;
  std::vector<Table> tables;
  std::vector<Chart> charts;
};

struct Document {
  std::string title;    ///< workbook title property
  std::string subject;
  std::vector<Page> pages;
};

}  // namespace pts::report
