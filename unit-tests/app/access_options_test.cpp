// unit-tests/app/access_options_test.cpp — access-spec options as `ptsuite spec` takes them
// from its command line: good values land in the spec, every bad option is reported at once
// with its name, the target and the other options go to their own fields.
#include <gtest/gtest.h>

#include "app/access_options.h"
#include "app/command_args.h"

using namespace pts;

namespace {

/// `ptsuite spec ARGS...` through the command line, then the access options' check; the
/// parser's own problems (unknown options, a missing value) come first.
app::ParsedAccessArgs parse_access_options(std::vector<std::string> args) {
  args.insert(args.begin(), "spec");
  auto line = app::parse_command_line(args);
  auto parsed = app::parse_access_options(line->args.spec.access);
  auto problems = line->args.spec.errors;
  parsed.errors.insert(parsed.errors.begin(), problems.begin(), problems.end());
  return parsed;
}

bool mentions(const std::vector<std::string>& errors, const std::string& what) {
  for (const auto& e : errors)
    if (e.find(what) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(AccessOptions, GoodOptionsFillTheSpec) {
  auto p = parse_access_options({"/dev/x", "--rw", "randrw", "--read-pct=65", "--bs", "8k", "--threads", "4", "--oio",
                                 "32", "--seconds", "2.5", "--active-range", "75", "--rate-iops", "1000", "--seed", "42",
                                 "--json"});
  ASSERT_TRUE(p.ok()) << p.errors.front();
  model::AccessSpec s;
  p.options.apply_to(s);
  EXPECT_EQ(s.pattern, model::AccessPattern::Random);
  EXPECT_EQ(s.read_pct, 65u);
  EXPECT_EQ(s.block_bytes, 8192u);
  EXPECT_EQ(s.threads, 4u);
  EXPECT_EQ(s.queue_depth, 32u);
  EXPECT_DOUBLE_EQ(s.seconds, 2.5);
  EXPECT_DOUBLE_EQ(s.active_range_pct, 75);
  EXPECT_EQ(s.rate_iops, 1000u);
  EXPECT_EQ(s.seed, 42u);
}

TEST(AccessOptions, RwNamesSetPatternAndMix) {
  struct Case {
    const char* rw;
    model::AccessPattern pattern;
    uint32_t read_pct;
  };
  for (const Case& c : {Case{"read", model::AccessPattern::Sequential, 100}, Case{"write", model::AccessPattern::Sequential, 0},
                        Case{"randread", model::AccessPattern::Random, 100}, Case{"randwrite", model::AccessPattern::Random, 0},
                        Case{"randrw", model::AccessPattern::Random, 50}, Case{"rw", model::AccessPattern::Sequential, 50}}) {
    auto p = parse_access_options({"--rw", c.rw});
    ASSERT_TRUE(p.ok()) << c.rw;
    model::AccessSpec s;
    p.options.apply_to(s);
    EXPECT_EQ(s.pattern, c.pattern) << c.rw;
    EXPECT_EQ(s.read_pct, c.read_pct) << c.rw;
    EXPECT_EQ(model::rw_name(s), c.read_pct == 50 ? (c.pattern == model::AccessPattern::Random ? "randrw" : "rw") : c.rw);
  }
}

TEST(AccessOptions, BsSplitParses) {
  auto p = parse_access_options({"--bs-split", "4k:67,8k:10,64k:23"});
  ASSERT_TRUE(p.ok());
  ASSERT_EQ(p.options.bs_split.size(), 3u);
  EXPECT_EQ(p.options.bs_split[2].bytes, 65536u);
  EXPECT_EQ(p.options.bs_split[2].percent, 23u);
}

TEST(AccessOptions, EveryBadOptionIsReportedAtOnceByName) {
  auto p = parse_access_options({"--bs", "3000", "--oio", "0", "--seconds", "-1", "--active-range", "150", "--rw", "randfoo",
                                 "--threads", "x", "--rate-iops", "-5", "--size", "1000", "--seed", "1e3"});
  EXPECT_EQ(p.errors.size(), 9u);
  for (const char* opt : {"--bs: '3000'", "--oio: '0'", "--seconds: '-1'", "--active-range: '150'", "--rw: 'randfoo'",
                          "--threads: 'x'", "--rate-iops: '-5'", "--size: '1000'", "--seed: '1e3'"})
    EXPECT_TRUE(mentions(p.errors, opt)) << opt;
}

TEST(AccessOptions, BlockSizeLimits) {
  for (const char* bad : {"256", "3000", "2m", "1m1", "4q", "", "0"})
    EXPECT_FALSE(parse_access_options({"--bs", bad}).ok()) << bad;
  for (const char* good : {"512", "0.5k", "4k", "4KiB", "1m", "1048576"})
    EXPECT_TRUE(parse_access_options({"--bs", good}).ok()) << good;
}

TEST(AccessOptions, ContradictionsAndMissingValues) {
  EXPECT_TRUE(mentions(parse_access_options({"--rw", "randread", "--read-pct", "30"}).errors, "--read-pct 30"));
  EXPECT_TRUE(mentions(parse_access_options({"--bs", "4k", "--bs-split", "4k:100"}).errors, "--bs and --bs-split"));
  EXPECT_TRUE(mentions(parse_access_options({"--bs-split", "4k:60,8k:30"}).errors, "sum to 90"));
  EXPECT_TRUE(mentions(parse_access_options({"--bs-split", "4k"}).errors, "SIZE:PERCENT"));
  EXPECT_TRUE(mentions(parse_access_options({"--oio"}).errors, "--oio: needs a value"));
  EXPECT_TRUE(mentions(parse_access_options({"--oio", "4", "--oio", "8"}).errors, "more than once"));
  EXPECT_TRUE(mentions(parse_access_options({"--oio", "2048", "--bs", "1m"}).errors, "1 GiB"));
}

TEST(AccessOptions, UnsetOptionsLeaveTheSpecAlone) {
  model::AccessSpec s;
  s.read_pct = 65;
  s.block_bytes = 65536;
  s.queue_depth = 32;
  auto p = parse_access_options({"--threads", "2"});
  ASSERT_TRUE(p.ok());
  p.options.apply_to(s);
  EXPECT_EQ(s.read_pct, 65u);
  EXPECT_EQ(s.block_bytes, 65536u);
  EXPECT_EQ(s.queue_depth, 32u);
  EXPECT_EQ(s.threads, 2u);
}

TEST(AccessOptions, TargetChecksNameTheOption) {
  model::AccessSpec s;
  s.block_bytes = 512;
  auto e = app::check_spec_for_target(s, 4096, 1ull << 30);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NE(e[0].find("--bs: '512' is not a multiple"), std::string::npos);
  s.block_bytes = 1 << 20;
  s.active_range_pct = 0.01;
  e = app::check_spec_for_target(s, 512, 1ull << 30);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NE(e[0].find("--active-range"), std::string::npos);
}

TEST(AccessOptions, ZonesParseAndAreChecked) {
  auto p = parse_access_options({"--zones", "50/5:30/15:20/80", "--rw", "randrw", "--read-pct", "40"});
  ASSERT_TRUE(p.ok()) << testing::PrintToString(p.errors);
  model::AccessSpec s;
  p.options.apply_to(s);
  ASSERT_EQ(s.zones.size(), 3u);
  EXPECT_EQ(s.zones[2].io_pct, 20u);
  EXPECT_TRUE(mentions(parse_access_options({"--zones", "50/5:30/15:10/80"}).errors, "--zones: '50/5:30/15:10/80'"));
  EXPECT_TRUE(mentions(parse_access_options({"--zones", "50/5:30/15:10/80"}).errors, "sum to 90 %"));
  EXPECT_TRUE(mentions(parse_access_options({"--zones", "50"}).errors, "IO_PCT/RANGE_PCT"));
  EXPECT_TRUE(mentions(parse_access_options({"--zones", "100/100", "--rw", "write"}).errors, "random access"));
  // Each zone must hold a block of the largest size on the target.
  s.block_bytes = 1 << 20;
  s.zones = {{50, 0.01}, {50, 99.99}};
  EXPECT_TRUE(mentions(app::check_spec_for_target(s, 512, 1ull << 30), "gives zone 1 "));
  s.zones = {{50, 5}, {50, 95}};
  EXPECT_TRUE(app::check_spec_for_target(s, 512, 1ull << 30).empty());
}

TEST(SpecCommandLine, TargetAndOtherOptionsGoToTheirFields) {
  auto line = app::parse_command_line({"spec", "/dev/x", "--bs=8k", "--json", "--confirm", "SER1", "--force-signatures"});
  ASSERT_EQ(line->parsed.kind, app::cli::Parsed::Kind::Command);
  const auto& a = line->args.spec;
  EXPECT_TRUE(a.errors.empty());
  EXPECT_EQ(a.target, "/dev/x");
  EXPECT_TRUE(a.json);
  EXPECT_TRUE(a.force_signatures);
  EXPECT_EQ(a.confirm.value_or(""), "SER1");
  EXPECT_EQ(a.access, (app::AccessArgs{{"--bs", "8k"}}));
}

TEST(SpecCommandLine, ParserProblemsNameTheWord) {
  auto line = app::parse_command_line({"spec", "/dev/x", "/dev/y", "--bogus=1", "--json=yes", "--oio"});
  ASSERT_EQ(line->parsed.kind, app::cli::Parsed::Kind::Command);
  const auto& e = line->args.spec.errors;
  // A further target is a job of a multi-job cell, not a problem of the parser.
  EXPECT_EQ(line->args.spec.more_targets, (std::vector<std::string>{"/dev/y"})) << testing::PrintToString(e);
  EXPECT_TRUE(mentions(e, "--bogus: unknown option (see ptsuite spec --help)"));
  EXPECT_TRUE(mentions(e, "--json: a switch, takes no value (got 'yes')"));
  EXPECT_TRUE(mentions(e, "--oio: needs a value (QD)"));
  EXPECT_EQ(e.size(), 3u);
}

TEST(CommandLine, UnknownCommandAndHelp) {
  auto bad = app::parse_command_line({"nonsense"});
  EXPECT_EQ(bad->parsed.kind, app::cli::Parsed::Kind::Bad);
  ASSERT_EQ(bad->parsed.errors.size(), 1u);
  EXPECT_EQ(bad->parsed.errors[0], "nonsense: unknown command (see ptsuite --help)");
  auto help = app::parse_command_line({"run", "iops", "--bogus", "--help"});
  EXPECT_EQ(help->parsed.kind, app::cli::Parsed::Kind::Help);
  ASSERT_NE(help->parsed.command, nullptr);
  EXPECT_EQ(help->parsed.command->get_name(), "run");
  EXPECT_EQ(app::parse_command_line({"--version"})->parsed.kind, app::cli::Parsed::Kind::Version);
}

TEST(CommandLine, EveryOptionHasHelpAndEveryValueADefault) {
  auto line = app::parse_command_line({});
  for (const auto& t : app::command_texts()) {
    const CLI::App* c = line->root.get_subcommand(t.name);
    ASSERT_NE(c, nullptr) << t.name;
    const std::string help = app::cli::command_help(*c, t);
    for (const auto& [group, opts] : app::cli::option_groups(*c))
      for (const CLI::Option* o : opts) {
        EXPECT_FALSE(o->get_description().empty()) << t.name << " " << o->get_name();
        if (!app::cli::is_switch(*o)) {
          EXPECT_FALSE(o->get_default_str().empty()) << t.name << " " << o->get_name();
        }
        EXPECT_NE(help.find(app::cli::name_and_value(*o)), std::string::npos) << t.name << " " << o->get_name();
      }
  }
}
