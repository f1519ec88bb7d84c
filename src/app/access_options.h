// app/access_options.h — the access-spec CLI options shared by `ptsuite spec` and the
// overrides of `ptsuite run`: --rw, --read-pct, --bs, --bs-split, --threads, --oio,
// --seconds, --active-range, --zones, --rate-iops, --seed, --size. Parsing collects every problem at
// once; each message names the option. Options not given stay unset, so `run` applies only
// what the operator typed. May use: core, model.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "model/access_spec.h"

namespace pts::app {

/// Access-spec options as typed; nullopt = not given.
struct AccessOptions {
  std::optional<model::AccessPattern> pattern;      ///< from --rw
  std::optional<uint32_t> rw_read_pct;              ///< read share implied by --rw (100, 0, or none for rw mixes)
  bool trim = false;                                ///< --rw trim or randtrim
  std::optional<uint32_t> read_pct;                 ///< --read-pct
  std::optional<uint32_t> block_bytes;              ///< --bs
  std::vector<model::BlockSizeShare> bs_split;      ///< --bs-split (empty = not given)
  std::optional<uint32_t> threads;                  ///< --threads
  std::optional<uint32_t> queue_depth;              ///< --oio
  std::optional<double> seconds;                    ///< --seconds
  std::optional<uint64_t> bytes_limit;              ///< --bytes (stop after this many bytes)
  std::optional<double> active_range_pct;           ///< --active-range
  std::vector<model::AccessZone> zones;             ///< --zones (empty = not given)
  std::optional<uint64_t> rate_iops;                ///< --rate-iops
  std::optional<uint64_t> poll_budget_us;           ///< --poll-budget (µs)
  std::optional<uint64_t> seed;                     ///< --seed
  std::optional<uint64_t> size_bytes;               ///< --size (creates a file target)

  /// Writes the given options into `spec` (the rest of `spec` is kept). A mixed --rw
  /// without --read-pct means 50 % reads, as in fio.
  void apply_to(model::AccessSpec& spec) const;
};

/// What parse_access_options() recognised, everything else in order, and every problem.
struct ParsedAccessArgs {
  AccessOptions options;          ///< the options that parsed cleanly
  std::vector<std::string> rest;  ///< positional arguments and other options, untouched
  std::vector<std::string> errors;  ///< one message per problem, each naming its option
  bool ok() const { return errors.empty(); }
};

/// Limits enforced by the parser.
constexpr uint32_t kMinBlockBytes = 512;
constexpr uint32_t kMaxBlockBytes = 1024 * 1024;
constexpr uint32_t kMaxThreads = 256;
constexpr uint32_t kMaxQueueDepth = 4096;

/// Parses the access-spec options (both `--opt VALUE` and `--opt=VALUE`) out of `args`.
/// Every bad option adds a message to `errors` ("--bs 3000: block size must be a multiple
/// of 512 bytes ..."); other arguments go to `rest` either way, so the caller can add its
/// own problems and report them all at once.
ParsedAccessArgs parse_access_options(const std::vector<std::string>& args);

/// Checks a complete spec against a target's logical block size and size: block sizes a
/// multiple of the logical block, the ActiveRange (and each zone) holding a block. Messages
/// name the option.
std::vector<std::string> check_spec_for_target(const model::AccessSpec& spec, uint32_t logical_block_bytes,
                                               uint64_t target_bytes);

/// One line per option, for --help.
const char* access_options_help();

}  // namespace pts::app
