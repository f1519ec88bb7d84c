// report/xlsx_writer.h — renders a Document into one .xlsx workbook with libxlsxwriter (the
// only file of ptsuite that includes it): header block, number formats, frozen title rows,
// column widths, native charts, landscape page set-up. May use: core, libxlsxwriter (.cpp).
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"
#include "report/document.h"

namespace pts::report {

/// Writes `doc` to `path` (overwriting it). `created_wall_ns` becomes the workbook's creation
/// date property. Io error (with libxlsxwriter's message) when the file cannot be written.
core::Status write_xlsx(const Document& doc, const std::string& path, uint64_t created_wall_ns);

}  // namespace pts::report
