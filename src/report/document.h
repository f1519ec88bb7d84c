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
  bool printed = true;  ///< false: chart data only, written below the printed page
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
  std::string title;  ///< "Test Platform", "Device Under Test", "Set-up Parameters", "Test Parameters"
  std::vector<HeaderField> fields;
};

/// The compact SNIA header block every page opens with (docs/report.md "Page layout"): the
/// title rows (repeated on every printed page of a sheet that spans several) and, on report
/// pages, the four columns and the first few deviations.
struct PageHeader {
  // Title rows.
  std::string organisation;  ///< "SNIA SSS TWG"
  std::string spec;          ///< "Solid State Storage Performance Test Specification"
  std::string revision;      ///< "PTS-E 1.1 (enterprise)"
  std::string test_page;     ///< "IOPS Test – Report Page"
  std::string subtitle;      ///< "IOPS – Block Size x RW Mix Matrix"
  std::string page_label;    ///< "Page 3 of 9"
  std::string run_start, run_end, report_date;
  std::string dut_line;      ///< "Fixture Storage Inc. FX-9000 3.84TB · SN FX12345678 · FW 1.2.3A · PCIe Gen4 x4"
  std::vector<HeaderField> operator_fields;  ///< Tested by, Test sponsor, … ("not stated" when empty)
  std::vector<Banner> banners;               ///< INCOMPLETE RUN, steady state NOT achieved, ...
  // Below the title rows (report pages only).
  std::vector<HeaderSection> sections;       ///< the four columns, left to right
  std::vector<std::string> deviation_lines;  ///< the first few deviations, then "… see the Deviations page"
};

/// What a page is, which decides its print set-up.
enum class PageKind {
  Report,      ///< a SNIA report page: exactly one printed page (portrait, fit to 1 × 1)
  Summary,     ///< the first page: drive, verdicts, headline numbers, deviations (one printed page)
  Deviations,  ///< every deviation, when there are more than the header shows (one printed page)
  Raw          ///< every Round's every cell: spans printed pages, title and table header repeated
};

struct Page {
  std::string sheet_name;  ///< unique, ≤ 31 chars, no []:*?/\ characters
  PageKind kind = PageKind::Report;
  PageHeader header;
  std::string title;    ///< the page's own title (caption bar above the content)
  std::string caption;  ///< "Plot 1.3 – IOPS Steady State Measurement Window – …" (under the content)
  std::vector<Table> tables;
  std::vector<Chart> charts;
};

struct Document {
  std::string title;    ///< workbook title property
  std::string subject;
  std::vector<Page> pages;
};

}  // namespace pts::report
