// report/report.cpp — see report.h: template lookup, layout, then xlsx / JSON / CSV / PDF
// staged together and committed at once.
#include "report/report.h"

#include <cctype>
#include <filesystem>

#include "core/clock.h"
#include "core/option_text.h"
#include "report/csv_writer.h"
#include "report/layout.h"
#include "report/pdf_render.h"
#include "report/staged_output.h"
#include "report/tables.h"
#include "report/template_loader.h"
#include "report/xlsx_writer.h"

namespace pts::report {

namespace fs = std::filesystem;

namespace {

std::string base_name(const model::RunRecord& record) {
  std::string n = record.plan.test_id.empty() ? record.plan.template_name : record.plan.test_id;
  if (n.empty()) n = "report";
  for (char& c : n)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.')) c = '_';
  return n;
}

core::Status ensure_dir(const std::string& dir) {
  std::error_code ec;
  if (fs::is_directory(dir, ec)) return core::ok_status();
  fs::create_directories(dir, ec);
  if (ec) return core::bad_input("cannot create output directory " + dir + ": " + ec.message());
  return core::ok_status();
}

}  // namespace

core::Result<ReportFormats> parse_report_formats(std::string_view list, std::string_view flag) {
  ReportFormats f{false, false, false, false};
  std::vector<std::string> errors;
  size_t start = 0;
  bool any = false;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string_view::npos) end = list.size();
    std::string_view item = list.substr(start, end - start);
    if (item == "xlsx") f.xlsx = true;
    else if (item == "json") f.json = true;
    else if (item == "csv") f.csv = true;
    else if (item == "pdf") f.pdf = true;
    else
      errors.push_back(core::bad_option_value(flag, list, "names an unknown format '" + std::string(item) +
                                                              "' (choose from xlsx, json, csv, pdf, comma separated)"));
    any = true;
    start = end + 1;
  }
  if (!any || list.empty())
    errors = {core::bad_option_value(flag, list, "is not a list of report formats (choose from xlsx, json, csv, pdf)")};
  if (!errors.empty()) return core::Error(core::ErrorKind::BadInput, std::move(errors));
  return f;
}

core::Result<Document> render_document(const model::RunRecord& record, const ReportOptions& options,
                                       bool raw_pages) {
  const std::string name = record.plan.template_name.empty() ? record.plan.test_id : record.plan.template_name;
  core::Result<ReportTemplate> tmpl = [&]() -> core::Result<ReportTemplate> {
    if (options.templates_dir.empty()) return load_template(name);
    const std::string path = options.templates_dir + "/" + name + ".toml";
    if (!fs::is_regular_file(path)) return core::bad_input("no report template '" + name + "' (" + path + ")");
    return load_template_file(path);
  }();
  if (!tmpl) return tmpl.take_error();
  const uint64_t when = options.report_wall_ns ? options.report_wall_ns : core::wall_ns();
  return build_document(record, *tmpl, when, raw_pages);
}

core::Result<std::vector<std::string>> write_reports(const model::RunRecord& record, const std::string& out_dir,
                                                     const ReportOptions& options) {
  const ReportFormats& f = options.formats;
  if (f.json && options.record_json.empty())
    return core::Error(core::ErrorKind::Internal, "JSON report requested without the record's JSON text");
  std::string soffice = options.soffice;
  if (f.pdf && soffice.empty()) {
    auto found = find_soffice();
    if (!found) return found.take_error();
    soffice = *found;
  }
  auto dir_ok = ensure_dir(out_dir);
  if (!dir_ok) return dir_ok.take_error();
  const std::string base = out_dir + "/" + base_name(record);
  const uint64_t when = options.report_wall_ns ? options.report_wall_ns : core::wall_ns();
  StagedOutput out;
  StagedOutput scratch;  // the workbook a PDF is printed from when it differs from the xlsx; never committed
  ReportOptions o = options;
  o.report_wall_ns = when;
  // The workbook laid out with or without the Raw sheet, staged in `to`; its temporary path.
  auto workbook = [&](StagedOutput& to, bool raw_pages) -> core::Result<std::string> {
    auto doc = render_document(record, o, raw_pages);
    if (!doc) return doc.take_error();
    auto temp = to.reserve(base + ".xlsx");
    if (!temp) return temp.take_error();
    auto st = write_xlsx(*doc, *temp, when);
    if (!st) return st.take_error();
    return *temp;
  };
  std::string xlsx_path;  // the staged xlsx (with the Raw sheet)
  if (f.xlsx) {
    auto book = workbook(out, true);
    if (!book) return book.take_error();
    xlsx_path = *book;
  }
  if (f.pdf) {
    std::string book = options.pdf_raw ? xlsx_path : "";
    if (book.empty()) {  // the report pages only (or no xlsx was asked for): a workbook of its own
      auto own = workbook(scratch, options.pdf_raw);
      if (!own) return own.take_error();
      book = *own;
    }
    auto pdf = out.reserve(base + ".pdf");
    if (!pdf) return pdf.take_error();
    auto printed = xlsx_to_pdf(soffice, book, *pdf);
    if (!printed) return printed.take_error();
  }
  if (f.json) {
    auto st = out.stage_text(base + ".json", options.record_json);
    if (!st) return st.take_error();
  }
  if (f.csv) {
    const std::string csv_dir = out_dir + "/csv";
    auto d = ensure_dir(csv_dir);
    if (!d) return d.take_error();
    std::vector<size_t> all;
    for (size_t i = 0; i < record.plan.subtests.size(); ++i) all.push_back(i);
    auto st = out.stage_text(csv_dir + "/" + base_name(record) + ".csv", table_to_csv(raw_table(record, all)));
    if (!st) return st.take_error();
  }
  return out.commit();
}

core::Result<std::vector<std::string>> write_document_files(const Document& doc, const std::string& xlsx_path,
                                                            const std::vector<std::pair<std::string, std::string>>& texts,
                                                            uint64_t created_wall_ns) {
  StagedOutput out;
  auto temp = out.reserve(xlsx_path);
  if (!temp) return temp.take_error();
  auto st = write_xlsx(doc, *temp, created_wall_ns ? created_wall_ns : core::wall_ns());
  if (!st) return st.take_error();
  for (const auto& [path, text] : texts) {
    auto staged = out.stage_text(path, text);
    if (!staged) return staged.take_error();
  }
  return out.commit();
}

}  // namespace pts::report
