// report/template_loader.h — finds templates/ and reads one layout description (TOML, via
// toml++) into a ReportTemplate, reporting every problem at once as file:line. May use:
// core, toml++ (inside the .cpp only).
#pragma once

#include <string>

#include "core/result.h"
#include "report/template_spec.h"

namespace pts::report {

/// The templates directory, first match of: $PTSUITE_TEMPLATES_DIR; <exe dir>/../templates;
/// <exe dir>/../../templates; <exe dir>/templates; the source tree's templates/ (compile time).
/// BadInput naming every place tried when none exists.
core::Result<std::string> find_templates_dir();

/// Reads and validates one template file. BadInput with "file:line: problem" lines.
core::Result<ReportTemplate> load_template_file(const std::string& path);

/// Reads <templates dir>/<name>.toml.
core::Result<ReportTemplate> load_template(const std::string& name);

}  // namespace pts::report
