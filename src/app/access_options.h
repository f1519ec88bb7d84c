// app/access_options.h — the access-spec options of `ptsuite spec` (--rw, --read-pct, --bs,
// --bs-split, --threads, --oio, --seconds, --bytes, --active-range, --zones, --rate-iops,
// --poll-budget, --seed, --size): their definitions for the command line (one table: flag,
// value name, help, default) and the check of the values as typed. The check collects every
// problem at once, each message naming the option; options not given stay unset.
// May use: core, model.
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

/// One access-spec option as the command line defines it (help, man page, completion).
struct AccessOptionHelp {
  const char* flag;
  const char* value;         ///< the value's name in help ("SIZE")
  const char* help;
  const char* default_text;  ///< what applies when the flag is not given
};

/// The access-spec options, in help order.
const std::vector<AccessOptionHelp>& access_option_flags();

/// Access-spec options as typed on the command line: (flag, value), in the order given.
using AccessArgs = std::vector<std::pair<std::string, std::string>>;

/// What parse_access_options() made of the values, and every problem.
struct ParsedAccessArgs {
  AccessOptions options;            ///< the options that parsed cleanly
  std::vector<std::string> errors;  ///< one message per problem, each naming its option
  bool ok() const { return errors.empty(); }
};

/// Limits enforced by the parser.
constexpr uint32_t kMinBlockBytes = 512;
constexpr uint32_t kMaxBlockBytes = 1024 * 1024;
constexpr uint32_t kMaxThreads = 256;
constexpr uint32_t kMaxQueueDepth = 4096;

/// Checks the values of the access-spec options given. Every bad value adds a message
/// ("--bs: '3000' is not a block size ..."), and so does a flag given twice or one that is
/// not an access-spec option; the caller adds its own problems and reports them all at once.
ParsedAccessArgs parse_access_options(const AccessArgs& given);

/// Checks a complete spec against a target's logical block size and size: block sizes a
/// multiple of the logical block, the ActiveRange (and each zone) holding a block. Messages
/// name the option.
std::vector<std::string> check_spec_for_target(const model::AccessSpec& spec, uint32_t logical_block_bytes,
                                               uint64_t target_bytes);

}  // namespace pts::app
