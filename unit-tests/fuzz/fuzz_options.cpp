// unit-tests/fuzz/fuzz_options.cpp — libFuzzer target for option parsing: the command line
// (app::parse_command_line, CLI11) of `ptsuite spec` and `ptsuite run` on the same words, then
// the checks those commands make of what it took: the access-spec options
// (app::parse_access_options) and the run options (config::set_run_options). The input is an
// argument vector, arguments separated by NUL bytes. No crash, exception, hang or UB; options
// it accepts are within the documented limits, and the resulting spec can be checked against
// a target.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "app/access_options.h"
#include "app/command_args.h"
#include "config/run_options.h"
#include "fuzz/fuzz_check.h"
#include "model/access_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args(1);
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == '\0') args.emplace_back();
    else args.back() += static_cast<char>(data[i]);
  }
  args.insert(args.begin(), "spec");
  const auto spec_line = pts::app::parse_command_line(args);
  args[0] = "run";
  const auto run_line = pts::app::parse_command_line(args);
  const auto parsed = pts::app::parse_access_options(spec_line->args.spec.access);
  const auto& o = parsed.options;
  if (o.block_bytes)
    FUZZ_CHECK(*o.block_bytes >= pts::app::kMinBlockBytes && *o.block_bytes <= pts::app::kMaxBlockBytes &&
               *o.block_bytes % 512 == 0);
  if (o.threads) FUZZ_CHECK(*o.threads >= 1 && *o.threads <= pts::app::kMaxThreads);
  if (o.queue_depth) FUZZ_CHECK(*o.queue_depth >= 1 && *o.queue_depth <= pts::app::kMaxQueueDepth);
  if (o.seconds) FUZZ_CHECK(std::isfinite(*o.seconds) && *o.seconds > 0);
  if (o.active_range_pct) FUZZ_CHECK(*o.active_range_pct > 0 && *o.active_range_pct <= 100);
  if (o.read_pct) FUZZ_CHECK(*o.read_pct <= 100);
  uint32_t split_total = 0;
  for (const auto& s : o.bs_split) split_total += s.percent;
  FUZZ_CHECK(o.bs_split.empty() || split_total == 100);
  FUZZ_CHECK(pts::model::zone_problems(o.zones).empty());

  pts::config::RunOptions run;
  (void)pts::config::set_run_options(run, run_line->args.run.run_options);
  for (const auto& [flag, value] : run_line->args.run.run_options) FUZZ_CHECK(pts::config::is_run_option(flag));
  if (run.cell_seconds) FUZZ_CHECK(std::isfinite(*run.cell_seconds) && *run.cell_seconds > 0);
  if (run.active_range_pct) FUZZ_CHECK(*run.active_range_pct > 0 && *run.active_range_pct <= 100);

  if (parsed.ok()) {
    pts::model::AccessSpec spec;
    o.apply_to(spec);
    FUZZ_CHECK(spec.read_pct <= 100);
    const uint64_t target = o.size_bytes ? *o.size_bytes : uint64_t{1} << 30;
    (void)pts::app::check_spec_for_target(spec, 512, target);
    (void)pts::app::check_spec_for_target(spec, 4096, target);
  }
  return 0;
}
