// report/pdf_render.h — the PDF report: the workbook printed by LibreOffice headless
// (`soffice --convert-to pdf`), which honours the print set-up of docs/report.md (one printed
// page per report sheet). Runs soffice in a private work directory with its own profile and a
// time limit. May use: core, POSIX.
#pragma once

#include <string>

#include "core/result.h"

namespace pts::report {

/// The soffice executable: $PTSUITE_SOFFICE when set (must be executable), else `soffice` or
/// `libreoffice` on PATH. BadInput naming `flag` and what to install when there is none.
core::Result<std::string> find_soffice(const std::string& flag = "--format pdf");

/// Prints workbook `xlsx` to `pdf_out` (overwritten) with `soffice`. The work directory is
/// created beside `pdf_out` (so the result is renamed, never copied) and removed afterwards.
/// Internal error with soffice's output when it fails, hangs past `timeout_s` or writes nothing.
core::Status xlsx_to_pdf(const std::string& soffice, const std::string& xlsx, const std::string& pdf_out,
                         int timeout_s = 600);

}  // namespace pts::report
