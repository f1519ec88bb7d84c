// config/operator_fields.cpp — see operator_fields.h.
#include "config/operator_fields.h"

#include <toml++/toml.h>

#include "core/option_text.h"

#include <cctype>
#include <filesystem>
#include <sstream>

namespace pts::config {

namespace {

bool valid_key(std::string_view k) {
  if (k.empty() || k.size() > 64) return false;
  for (char c : k)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) return false;
  return true;
}

void put(std::vector<model::OperatorField>& fields, const std::string& key, const std::string& value) {
  for (auto& f : fields)
    if (f.key == key) {
      f.value = value;
      return;
    }
  fields.push_back({key, value});
}

/// A plain TOML value as text; nullopt for tables and arrays.
std::optional<std::string> plain_text(const toml::node& n) {
  if (auto s = n.value_exact<std::string>()) return *s;
  if (auto i = n.value_exact<int64_t>()) return std::to_string(*i);
  if (auto b = n.value_exact<bool>()) return std::string(*b ? "true" : "false");
  if (auto d = n.value_exact<double>()) {
    std::ostringstream o;
    o << *d;
    return o.str();
  }
  return std::nullopt;
}

}  // namespace

bool OperatorFieldArgs::is_flag(std::string_view flag) { return flag == "--meta" || flag == "--lab"; }

std::string OperatorFieldArgs::take(std::string_view flag, const std::string& value) {
  if (flag == "--meta") {
    meta.push_back(value);
    return "";
  }
  if (!lab_file.empty()) return "--lab: given twice ('" + lab_file + "' and '" + value + "'); use one lab file";
  if (value.empty()) return core::bad_option_value("--lab", value, "is not a file name");
  lab_file = value;
  return "";
}

core::Result<std::vector<model::OperatorField>> resolve_operator_fields(const OperatorFieldArgs& args) {
  std::vector<model::OperatorField> fields;
  std::vector<std::string> errors;
  if (!args.lab_file.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(args.lab_file, ec)) {
      errors.push_back(core::bad_option_value("--lab", args.lab_file, "is not a file"));
    } else {
      try {
        const toml::table root = toml::parse_file(args.lab_file);
        for (auto&& [k, v] : root) {
          const std::string key(k.str());
          const std::string at = args.lab_file + ":" + std::to_string(v.source().begin.line) + ": ";
          if (!valid_key(key)) {
            errors.push_back(at + "key '" + key + "' must be letters, digits, '_', '-' or '.' (at most 64)");
            continue;
          }
          auto text = plain_text(v);
          if (!text) {
            errors.push_back(at + "'" + key + "' must be a plain value (a string, number or true/false), "
                                  "not a table or an array");
            continue;
          }
          put(fields, key, *text);
        }
      } catch (const toml::parse_error& e) {
        errors.push_back(args.lab_file + ":" + std::to_string(e.source().begin.line) + ": " +
                         std::string(e.description()));
      }
    }
  }
  for (const auto& m : args.meta) {
    const size_t eq = m.find('=');
    if (eq == std::string::npos) {
      errors.push_back(core::bad_option_value("--meta", m, "is not KEY=VALUE (e.g. --meta tested_by=\"Acme Labs\")"));
      continue;
    }
    const std::string key = m.substr(0, eq);
    if (!valid_key(key)) {
      errors.push_back(core::bad_option_value("--meta", m, "has the key '" + key +
                                                               "': a key is letters, digits, '_', '-' or '.' (at most 64)"));
      continue;
    }
    put(fields, key, m.substr(eq + 1));
  }
  if (!errors.empty()) return core::Error(core::ErrorKind::BadInput, std::move(errors));
  return fields;
}

void merge_operator_fields(std::vector<model::OperatorField>& fields, const std::vector<model::OperatorField>& update) {
  for (const auto& f : update) put(fields, f.key, f.value);
}

}  // namespace pts::config
