// report/csv_writer.h — a Table as RFC 4180 CSV text (numbers in shortest exact decimal,
// locale independent). May use: std only.
#pragma once

#include <string>

#include "report/document.h"

namespace pts::report {

/// Header row of column keys, then one line per table row.
std::string table_to_csv(const Table& table);

}  // namespace pts::report
