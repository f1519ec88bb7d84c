// report/report.h — the report module's public entry: render a RunRecord (never a device,
// never recomputing steady state) as a SNIA-format xlsx workbook laid out by templates/, the
// JSON record, a CSV of every Round × cell and the PDF, written all-or-nothing. May use: core, model.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"
#include "model/run_record.h"
#include "report/document.h"

namespace pts::report {

/// Which files `write_reports` produces.
struct ReportFormats {
  bool xlsx = true;
  bool json = true;
  bool csv = true;
  bool pdf = false;  ///< the workbook printed by LibreOffice (pdf_render.h)
};

/// Parses "xlsx,json,csv,pdf" (any non-empty subset, any order). BadInput naming `flag` and
/// the unknown entry otherwise. Does not look for LibreOffice (find_soffice does).
core::Result<ReportFormats> parse_report_formats(std::string_view list, std::string_view flag = "--format");

struct ReportOptions {
  ReportFormats formats;
  /// The record as JSON text, written as the JSON report: the bytes of run.json as loaded, or
  /// results::run_record_to_json_text(record). Required when formats.json is set.
  std::string record_json;
  uint64_t report_wall_ns = 0;  ///< report date; 0 = now
  std::string templates_dir;    ///< empty = find_templates_dir()
  std::string soffice;          ///< for formats.pdf; empty = find_soffice()
  /// The PDF prints the Raw sheet too (landscape, fit to the page width). Off: the PDF holds
  /// the report pages only; the xlsx and the CSV keep every raw row either way.
  bool pdf_raw = false;
};

/// Lays the record out with its plan's template (TestPlan::template_name, else test_id), with
/// or without the Raw sheet. BadInput when the template is missing or invalid.
core::Result<Document> render_document(const model::RunRecord& record, const ReportOptions& options,
                                       bool raw_pages = true);

/// Writes, into `out_dir` (created if missing): <name>.xlsx, <name>.json, csv/<name>.csv and
/// <name>.pdf (as `formats` asks; the PDF without the Raw sheet unless options.pdf_raw), where <name> is the plan's test_id. Every file goes to a temporary name first and is
/// renamed only when all are complete, so a failure leaves nothing half-written. Returns the
/// paths written. BadInput when out_dir cannot be created or written, the template is bad or
/// the PDF is asked for without LibreOffice (checked before anything is written).
core::Result<std::vector<std::string>> write_reports(const model::RunRecord& record, const std::string& out_dir,
                                                     const ReportOptions& options);

/// Writes a Document laid out elsewhere (`compare`, `check`) to `xlsx_path`, and each (path,
/// text) of `texts` beside it, all or nothing (every file to a temporary name first). Returns
/// the paths written; BadInput when a directory is missing or cannot be written.
core::Result<std::vector<std::string>> write_document_files(const Document& doc, const std::string& xlsx_path,
                                                            const std::vector<std::pair<std::string, std::string>>& texts,
                                                            uint64_t created_wall_ns);

}  // namespace pts::report
