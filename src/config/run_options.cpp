// config/run_options.cpp — see run_options.h.
#include "config/run_options.h"

#include <algorithm>

#include "config/definition.h"
#include "config/text_parse.h"
#include "core/option_text.h"
#include "core/units.h"

namespace pts::config {

using detail::parse_decimal;
using detail::parse_unsigned;

const std::vector<RunOptionHelp>& run_option_flags() {
  static const std::vector<RunOptionHelp> flags = {
      {"--pts", "EDITION", "the spec's edition: pts-e-1.1 | pts-2.0.2", "pts-2.0.2"},
      {"--class", "CLASS", "the device class: enterprise | client", "enterprise"},
      {"--cell-seconds", "S", "seconds per cell (anything but the spec's 60 is a deviation)", "60, the spec's"},
      {"--max-rounds", "N", "maximum Rounds (anything but the spec's 25 is a deviation)", "25, the spec's"},
      {"--continue-past-max", "", "keep running Rounds past the maximum until steady state", ""},
      {"--threads", "TC", "thread count", "the definition's TC for the edition and class"},
      {"--oio", "QD", "outstanding I/Os per thread", "the definition's QD"},
      {"--wipc-threads", "TC", "WIPC thread count", "the definition's, 1"},
      {"--wipc-oio", "QD", "WIPC outstanding I/Os per thread", "the definition's, 32"},
      {"--poll-budget", "US",
       "at TC x QD <= 4 poll for each completion up to US microseconds before sleeping (0: never; "
       "auto: measured before each low-depth cell)",
       "the definition's, else auto"},
      {"--active-range", "PCT", "ActiveRange in % of the LBAs", "the spec's: 100 enterprise, 75 client"},
      {"--ar-amount", "SIZE", "AR Amount covered by the client ActiveRange segments", "the definition's, 16g"},
      {"--purge", "METHOD",
       "auto | sanitize-crypto | sanitize-block | format-crypto | format-user | discard | none", "auto"},
      {"--seed", "N", "random seed for offsets and data", "a fresh seed per run, recorded"},
      {"--accept-purge-failure", "", "go on after a failed or unverifiable purge (recorded as a deviation)", ""},
      {"--time-scale", "F",
       "tests with phases of their own: multiply every phase length by F (0 < F <= 1; a deviation)", "1"},
      {"--workload", "ID", "the stimulus workload of a test that has one (ptsuite plan TEST lists them)",
       "the one the definition names for the edition and class"},
      {"--art-ceiling", "MS", "DIRTH, ECW: ART ceiling for MaxIOPS in ms", "the definition's, 5"},
  };
  return flags;
}

bool is_run_option(std::string_view flag, bool* takes_value) {
  for (const auto& f : run_option_flags()) {
    if (flag == f.flag) {
      if (takes_value) *takes_value = f.value[0] != '\0';
      return true;
    }
  }
  return false;
}

bool parse_purge_method(std::string_view name, std::optional<model::PurgeMethod>& out) {
  if (name == "auto") { out.reset(); return true; }
  // "recreate" is what auto picks for a file; the operator cannot ask for it by name.
  auto m = model::purge_method_from_name(name);
  if (!m || *m == model::PurgeMethod::Recreate) return false;
  out = m;
  return true;
}


namespace {

std::string bad(std::string_view flag, std::string_view value, const std::string& what) {
  return core::bad_option_value(flag, value, what);
}

std::string list_of(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : " | ") + s;
  return out;
}

}  // namespace

std::string set_run_option(RunOptions& o, std::string_view flag, std::string_view value) {
  if (flag == "--pts") {
    const auto& e = known_editions();
    if (std::find(e.begin(), e.end(), value) == e.end()) return bad(flag, value, "is not an edition (" + list_of(e) + ")");
    o.pts_edition = std::string(value);
  } else if (flag == "--class") {
    const auto& c = known_classes();
    if (std::find(c.begin(), c.end(), value) == c.end()) return bad(flag, value, "is not a class (" + list_of(c) + ")");
    o.device_class = std::string(value);
  } else if (flag == "--cell-seconds") {
    auto v = parse_decimal(value);
    if (!v || !(*v > 0) || *v > 86400) return bad(flag, value, "is not a positive number of seconds (at most 86400)");
    o.cell_seconds = *v;
  } else if (flag == "--max-rounds") {
    auto v = parse_unsigned(value);
    if (!v || *v < 1 || *v > 100000) return bad(flag, value, "is not a round count (1…100000)");
    o.max_rounds = static_cast<uint32_t>(*v);
  } else if (flag == "--continue-past-max") {
    o.continue_past_max = true;
  } else if (flag == "--accept-purge-failure") {
    o.accept_purge_failure = true;
  } else if (flag == "--threads") {
    auto v = parse_unsigned(value);
    if (!v || *v < 1 || *v > 1024) return bad(flag, value, "is not a thread count (1…1024)");
    o.threads = static_cast<uint32_t>(*v);
  } else if (flag == "--oio") {
    auto v = parse_unsigned(value);
    if (!v || *v < 1 || *v > 65536) return bad(flag, value, "is not a queue depth per thread (1…65536)");
    o.queue_depth = static_cast<uint32_t>(*v);
  } else if (flag == "--wipc-threads") {
    auto v = parse_unsigned(value);
    if (!v || *v < 1 || *v > 1024) return bad(flag, value, "is not a WIPC thread count (1…1024)");
    o.wipc_threads = static_cast<uint32_t>(*v);
  } else if (flag == "--wipc-oio") {
    auto v = parse_unsigned(value);
    if (!v || *v < 1 || *v > 65536) return bad(flag, value, "is not a WIPC queue depth per thread (1…65536)");
    o.wipc_queue_depth = static_cast<uint32_t>(*v);
  } else if (flag == "--poll-budget" && value == "auto") {
    o.poll_budget_us = model::kPollBudgetAuto;
  } else if (flag == "--poll-budget") {
    auto v = parse_unsigned(value);
    if (!v || *v > model::kMaxPollBudgetUs)
      return bad(flag, value, "is not a poll budget in microseconds (0…" + std::to_string(model::kMaxPollBudgetUs) + ") or auto");
    o.poll_budget_us = *v;
  } else if (flag == "--active-range") {
    auto v = parse_decimal(value);
    if (!v || !(*v > 0) || *v > 100) return bad(flag, value, "is not a percentage above 0 and at most 100");
    o.active_range_pct = *v;
  } else if (flag == "--ar-amount") {
    auto v = core::parse_size_bytes(value);
    if (!v || *v == 0) return bad(flag, value, "is not a size (e.g. 16g, 512m)");
    o.ar_amount_bytes = *v;
  } else if (flag == "--purge") {
    if (!parse_purge_method(value, o.purge))
      return bad(flag, value,
                 "is not a purge method (auto | sanitize-crypto | sanitize-block | format-crypto | format-user | "
                 "discard | none)");
  } else if (flag == "--time-scale") {
    auto v = parse_decimal(value);
    if (!v || !(*v > 0) || *v > 1) return bad(flag, value, "is not a scale factor above 0 and at most 1");
    o.time_scale = *v;
  } else if (flag == "--workload") {
    if (value.empty()) return bad(flag, value, "is not a workload id (see ptsuite plan TEST)");
    o.workload = std::string(value);
  } else if (flag == "--art-ceiling") {
    auto v = parse_decimal(value);
    if (!v || !(*v > 0) || *v > 60000) return bad(flag, value, "is not an ART ceiling in ms (above 0, at most 60000)");
    o.art_ceiling_ms = *v;
  } else if (flag == "--seed") {
    auto v = parse_unsigned(value);
    if (!v) return bad(flag, value, "is not a non-negative integer");
    o.seed = *v;
  } else {
    return std::string(flag) + ": not a run option";
  }
  return {};
}

std::vector<std::string> set_run_options(RunOptions& options,
                                         const std::vector<std::pair<std::string, std::string>>& given) {
  std::vector<std::string> errors;
  for (const auto& [flag, value] : given)
    if (auto m = set_run_option(options, flag, value); !m.empty()) errors.push_back(m);
  return errors;
}

}  // namespace pts::config
