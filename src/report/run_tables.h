// report/run_tables.h — the "runs" table of the procedures that run each of their cells once
// (the review-lab curve and sweep, not SNIA PTS tests): one row per measured run of the sub-tests
// in scope, warm-ups and ramps left out, with run metrics of their own (offered and achieved
// rate, response and service time, Little's law, the point's label). May use: core, model.
#pragma once

#include <string>

#include "report/tables.h"
#include "report/template_spec.h"

namespace pts::report {

/// True for a metric a "runs" table may show; run_metric_names() lists them for messages.
bool is_run_metric(const std::string& name);
std::string run_metric_names();

/// Rows = measured runs in record order; column 0 = `x_metric`, then `metrics` in order.
Table runs_table(const TableSpec& spec, const Scope& scope);

}  // namespace pts::report
