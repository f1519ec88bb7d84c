// config/operator_fields.h — the header fields an operator states for the report: `--meta
// key=value` (repeatable) and `--lab FILE.toml` (flat `key = "value"` lines). Keys are kept as
// given (tested_by, test_sponsor, nand_type, form_factor, notes, or any other); a --meta key
// overrides the same key from the lab file. May use: core, model, toml++ (in the .cpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "model/run_record.h"

namespace pts::config {

/// Collects --meta / --lab flags (in any order) and merges them: lab file first, --meta after.
struct OperatorFieldArgs {
  std::vector<std::string> meta;  ///< "key=value" as given
  std::string lab_file;           ///< empty = none

  /// True when `flag` is --meta or --lab (both take a value).
  static bool is_flag(std::string_view flag);
  /// Records one flag's value; a second --lab is an error message, else "".
  std::string take(std::string_view flag, const std::string& value);
};

/// The fields, in order (lab file keys in key order, then new --meta keys; a repeated key
/// keeps its first position and its last value). BadInput with every problem at once: "--meta 'x':
/// expected key=value", "FILE:LINE: …" for a lab file that is unreadable, not TOML, or holds a
/// table or array, keys that are not [A-Za-z0-9_.-]+.
core::Result<std::vector<model::OperatorField>> resolve_operator_fields(const OperatorFieldArgs& args);

/// Merges `update` into `fields` (same rule: existing keys keep their place, take the new value).
void merge_operator_fields(std::vector<model::OperatorField>& fields, const std::vector<model::OperatorField>& update);

}  // namespace pts::config
