// app/cmd_report.cpp — `ptsuite report RUNDIR [--format xlsx,json,csv,pdf] [--pdf-raw] [--out DIR]
// [--meta K=V]... [--lab FILE]`: loads RUNDIR/run.json (schema-checked by results/) and renders it with report/ — offline, never
// touching a device. When the journal is ahead of run.json (killed between the last journal
// line and the save) run.json is rebuilt from the journal first — only in a directory this
// user owns that group/others cannot write, and not while a run holds the journal. Exit 0 on success, 2 on bad input (missing/newer run.json, bad flags,
// unwritable output); nothing half-written either way.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "app/commands.h"
#include "config/operator_fields.h"
#include "core/atomic_file.h"
#include "core/result.h"
#include "pts/window_results.h"
#include "report/header_block.h"
#include "report/pdf_render.h"
#include "report/report.h"
#include "results/codec.h"
#include "results/journal.h"
#include "results/run_dir.h"
#include "results/run_store.h"

namespace pts::app {

namespace {

int fail(const core::Error& e) {
  std::fprintf(stderr, "ptsuite report: %s\n", e.message().c_str());
  return core::exit_code(e.kind);
}

}  // namespace

int cmd_report(const ReportArgs& args) {
  std::vector<std::string> errors = args.errors;
  const std::string& run_dir = args.run_dir;
  const std::string out_dir = args.out.value_or("");
  const std::string formats_text = args.format.value_or("xlsx,json,csv");
  const config::OperatorFieldArgs& operator_args = args.operator_fields;
  if (args.out && args.out->empty()) errors.push_back("--out: '' is not a directory name");
  if (run_dir.empty()) errors.push_back("RUNDIR: missing (see ptsuite report --help)");
  auto formats = report::parse_report_formats(formats_text, "--format");
  if (!formats) errors.insert(errors.end(), formats.error().messages.begin(), formats.error().messages.end());
  std::string soffice;
  if (args.pdf_raw && formats && !formats->pdf)
    errors.push_back("--pdf-raw: prints the Raw sheet into the PDF, but --format " + formats_text + " asks for no pdf");
  if (formats && formats->pdf) {
    auto found = report::find_soffice();
    if (!found) errors.insert(errors.end(), found.error().messages.begin(), found.error().messages.end());
    else soffice = *found;
  }
  auto fields = config::resolve_operator_fields(operator_args);
  if (!fields) errors.insert(errors.end(), fields.error().messages.begin(), fields.error().messages.end());
  if (!errors.empty()) {
    for (const auto& e : errors) std::fprintf(stderr, "ptsuite report: %s\n", e.c_str());
    return 2;
  }
  if (!std::filesystem::is_directory(run_dir))
    return fail(core::bad_input("RUNDIR " + run_dir + " is not a directory"));
  const std::string json_path = run_dir + "/" + results::kRunJson;
  if (std::filesystem::exists(run_dir + "/" + results::kJournal)) {
    auto journal = results::load_journal_shared(run_dir);
    if (!journal) {
      std::fprintf(stderr, "ptsuite report: note: run.json is rendered as it is (%s)\n", journal.error().message().c_str());
    } else if (auto trusted = results::check_run_dir_trusted(run_dir); !trusted) {
      std::fprintf(stderr, "ptsuite report: note: run.json not checked against the journal (%s)\n",
                   trusted.error().message().c_str());
    } else {
      auto rebuilt = results::rebuild_run_json_if_behind(run_dir, journal->record);
      if (!rebuilt) return fail(rebuilt.error());
      if (*rebuilt)
        std::fprintf(stderr, "ptsuite report: run.json was behind the journal; rebuilt it from %s (%zu events)\n",
                     results::kJournal, journal->events);
    }
  }
  if (!std::filesystem::exists(json_path))
    return fail(core::bad_input(run_dir + " holds no " + results::kRunJson + " (not a ptsuite run directory?)"));
  auto text = core::read_file(json_path);
  if (!text) return fail(text.error());
  auto record = results::parse_run_json(*text, json_path);
  if (!record) return fail(record.error());

  // One source for window numbers: a record written before pts stored window results gets
  // them from pts' own function (documented in docs/report.md), never from report/.
  bool upgraded = false;
  for (size_t i = 0; i < record->subtests.size() && i < record->plan.subtests.size(); ++i) {
    auto& st = record->subtests[i];
    if (st.complete && st.window_results.empty() && st.window_last_round > 0 && !st.rounds.empty()) {
      st.window_results = runner::window_results(record->plan.subtests[i], st.rounds, st.window_first_round,
                                                 st.window_last_round);
      upgraded = true;
    }
  }
  if (upgraded)
    std::fprintf(stderr, "ptsuite report: note: %s has no stored window results (an older record); computed "
                         "them from its stored Rounds with pts' window_results()\n", json_path.c_str());
  report::ReportOptions options;
  options.formats = *formats;
  options.soffice = soffice;
  options.pdf_raw = args.pdf_raw;
  if (fields->empty() && !upgraded) {
    options.record_json = std::move(*text);
  } else {  // the JSON report is then the record with the operator's fields / window results added
    config::merge_operator_fields(record->operator_fields, *fields);
    options.record_json = results::run_record_to_json_text(*record);
  }
  auto written = report::write_reports(*record, out_dir.empty() ? run_dir : out_dir, options);
  if (!written) return fail(written.error());
  for (const auto& path : *written) std::printf("wrote %s\n", path.c_str());
  std::vector<size_t> all;
  for (size_t i = 0; i < record->plan.subtests.size(); ++i) all.push_back(i);
  for (const auto& line : report::status_banners(*record, all)) std::printf("%s\n", line.text.c_str());
  return 0;
}

}  // namespace pts::app
