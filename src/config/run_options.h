// config/run_options.h — the run overrides an operator may give (`ptsuite run` and
// `ptsuite plan` share them): edition, class, cell seconds, rounds, TC/QD, ActiveRange,
// purge method. Parsing helpers collect messages instead of failing at the first.
// May use: core, model.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/purge.h"

namespace pts::config {

/// Operator overrides; an unset optional means "as the definition / spec says".
struct RunOptions {
  std::string pts_edition = "pts-2.0.2";  ///< --pts pts-e-1.1|pts-2.0.2
  std::string device_class = "enterprise";///< --class enterprise|client
  std::optional<double> cell_seconds;     ///< --cell-seconds S (fractional, > 0)
  std::optional<uint32_t> max_rounds;     ///< --max-rounds N (≥ window)
  bool continue_past_max = false;         ///< --continue-past-max: keep going until steady
  std::optional<uint32_t> threads;        ///< --threads TC
  std::optional<uint32_t> queue_depth;    ///< --oio QD (per thread)
  std::optional<uint32_t> wipc_threads;   ///< --wipc-threads TC (WIPC only)
  std::optional<uint32_t> wipc_queue_depth;///< --wipc-oio QD (WIPC only, per thread)
  std::optional<uint64_t> poll_budget_us; ///< --poll-budget US (low-depth completion polling)
  std::optional<double> active_range_pct; ///< --active-range PCT (0 < PCT ≤ 100)
  std::optional<uint64_t> ar_amount_bytes;///< --ar-amount SIZE (client AR segmentation)
  std::optional<model::PurgeMethod> purge;///< --purge METHOD; nullopt = auto
  std::optional<uint64_t> seed;           ///< --seed N; nullopt = a fresh seed per run
  bool accept_purge_failure = false;      ///< --accept-purge-failure: go on after a failed purge (deviation)
  std::optional<double> time_scale;       ///< --time-scale F (0 < F <= 1): every phase length × F
  std::optional<std::string> workload;    ///< --workload ID: the stimulus of WSAT, HIR or DIRTH/ECW
  std::optional<double> art_ceiling_ms;   ///< --art-ceiling MS: DIRTH/ECW MaxIOPS ceiling (> 0)
};

/// One run option flag as the command line defines it (help, man page, completion).
struct RunOptionHelp {
  const char* flag;
  const char* value;      ///< the value's name in help ("EDITION"); "" for a switch
  const char* help;
  const char* default_text;  ///< what applies when the flag is not given ("" for a switch)
};

/// The run option flags, in help order (`run` and `plan` define their options from it).
const std::vector<RunOptionHelp>& run_option_flags();

/// True when `flag` (e.g. "--cell-seconds") is a run option; `takes_value` tells whether it
/// needs a value (every option except --continue-past-max).
bool is_run_option(std::string_view flag, bool* takes_value = nullptr);

/// Applies one run option. Returns an empty string on success, else a message naming the
/// flag and the bad value (e.g. "--cell-seconds: '-5' is not a positive number of seconds").
std::string set_run_option(RunOptions& options, std::string_view flag, std::string_view value);

/// Applies every (flag, value) as given on the command line, in order; one message per
/// problem (a flag given twice: the last value wins, as typed last).
std::vector<std::string> set_run_options(RunOptions& options,
                                         const std::vector<std::pair<std::string, std::string>>& given);

/// "auto" → nullopt; "sanitize-crypto", "sanitize-block", "format-crypto", "format-user",
/// "discard", "none" → the method. Unknown names: returns false.
bool parse_purge_method(std::string_view name, std::optional<model::PurgeMethod>& out);


}  // namespace pts::config
