// Round-trip and compatibility tests for the run-record codec and run.json store.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "results/codec.h"
#include "results/run_store.h"

using namespace pts;

namespace {

model::RunRecord sample_record() {
  model::RunRecord r;
  r.tool_version = "0.1.0";
  r.git_revision = "abc";
  r.device.kind = model::TargetKind::NvmeNamespace;
  r.device.serial = "deadbeef";
  r.device.capacity_bytes = 256ull << 20;
  r.device.health.temperature_c = 50;
  r.write_cache = model::WriteCacheState::Disabled;
  r.plan.test_id = "iops";
  r.plan.subtests.push_back({});
  r.plan.subtests[0].cells.push_back({"rw0-bs4096", "4 KiB 0/100", {}, true, ""});
  r.plan.subtests[0].tracking.push_back({"rw0-bs4096", model::Metric::Iops, "RND 4 KiB 0/100 IOPS"});
  model::SubTestRecord st;
  st.id = "main";
  model::PurgeRecord p;
  p.method = model::PurgeMethod::FormatUser;
  p.cdw = {0x200, 0, 0, 0, 0, 0};
  p.status_sct = 0;
  p.status_sc = 0;
  st.purge = p;
  model::RoundRecord round;
  round.round = 1;
  model::CellResult c;
  c.cell_id = "rw0-bs4096";
  c.iops = 12345.678901234;
  c.latency.mean_ns = 81.25;
  c.ios_per_second = {1, 2, 3};
  round.cells.push_back(c);
  model::SteadyStateVerdict v;
  v.round = 1;
  v.variables.push_back({r.plan.subtests[0].tracking[0], {}});
  v.variables[0].window.values = {1.5, 2.5};
  round.verdict = v;
  st.rounds.push_back(round);
  r.subtests.push_back(st);
  r.deviations.push_back({"cell-seconds", "cells ran 1 s instead of 60 s"});
  return r;
}

}  // namespace

TEST(Codec, RoundTripKeepsEveryValue) {
  const auto r = sample_record();
  auto back = results::parse_run_json(results::run_record_to_json_text(r), "mem");
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(results::run_record_to_json_text(*back), results::run_record_to_json_text(r));
  EXPECT_DOUBLE_EQ(back->subtests[0].rounds[0].cells[0].iops, 12345.678901234);
  ASSERT_TRUE(back->subtests[0].purge.has_value());
  EXPECT_EQ(back->subtests[0].purge->method, model::PurgeMethod::FormatUser);
  EXPECT_EQ(*back->device.health.temperature_c, 50);
  EXPECT_FALSE(back->device.health.media_errors.has_value());
}

TEST(Codec, ConfirmedIdentityAndConsentRoundTrip) {
  auto r = sample_record();
  r.device.wwid = "eui.0011223344556677";
  r.device.eui64 = "0011223344556677";
  r.device.serial_made_up = true;
  r.device.subsystem_namespaces = 2;
  r.device.subsystem_controllers = 1;
  r.consent = {"backing-file", "/var/tmp/x.img", "O_RDWR|O_EXCL|O_DIRECT descriptor on /dev/loop3 (7:3)"};
  auto back = results::parse_run_json(results::run_record_to_json_text(r), "mem");
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(back->device.wwid, "eui.0011223344556677");
  EXPECT_EQ(back->device.eui64, "0011223344556677");
  EXPECT_TRUE(back->device.serial_made_up);
  EXPECT_EQ(back->device.subsystem_namespaces, 2u);
  EXPECT_EQ(back->consent.method, "backing-file");
  EXPECT_EQ(back->consent.value, "/var/tmp/x.img");
  EXPECT_EQ(back->consent.exclusivity, r.consent.exclusivity);
  // a record from before these fields loads with them empty
  auto old = results::parse_run_json(R"({"schema_version":3,"device":{"serial":"S"}})", "mem");
  ASSERT_TRUE(old.ok()) << old.error().message();
  EXPECT_EQ(old->consent.method, "");
  EXPECT_EQ(old->device.wwid, "");
}

TEST(Codec, EnumsAreReadableStrings) {
  nlohmann::json j = sample_record();
  EXPECT_EQ(j["write_cache"], "disabled");
  EXPECT_EQ(j["device"]["kind"], "nvme-namespace");
  EXPECT_EQ(j["subtests"][0]["purge"]["method"], "format-user");
  EXPECT_EQ(j["plan"]["subtests"][0]["tracking"][0]["metric"], "iops");
}

TEST(Codec, ProcedurePlansRoundTrip) {
  auto r = sample_record();
  r.plan.procedure = "hir";
  r.plan.time_scale = 0.01;
  r.plan.interpretations = {"HIR baseline: the preconditioning's window average"};
  model::HirPlan h;
  h.wait_seconds = {0.05, 0.1};
  h.spec_wait_seconds = {5, 10};
  h.repetitions = 3;
  r.plan.procedure_plan = h;
  r.plan.subtests[0].role = model::SubTestRole::HirWaitState;
  r.plan.subtests[0].role_index = 1;
  model::IdleRecord idle;
  idle.requested_ns = 5'000'000'000;
  idle.measured_ns = 5'000'123'000;
  idle.completed = true;
  idle.engine_ios_before = 77;
  idle.engine_ios_after = 77;
  r.subtests[0].rounds[0].idle_after = idle;
  r.subtests[0].findings.push_back({"recovery_ratio", "Recovery", 1.25, "ratio", ""});
  r.subtests[0].findings.push_back({"cliff_sample", "Write cliff", std::nullopt, "sample", "none"});
  const auto text = results::run_record_to_json_text(r);
  auto back = results::parse_run_json(text, "mem");
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(results::run_record_to_json_text(*back), text);
  ASSERT_TRUE(back->plan.params<model::HirPlan>());
  EXPECT_EQ(back->plan.params<model::HirPlan>()->wait_seconds, (std::vector<double>{0.05, 0.1}));
  EXPECT_EQ(back->plan.subtests[0].role_index, 1u);
  const auto& i = *back->subtests[0].rounds[0].idle_after;
  EXPECT_EQ(*i.engine_ios_after, 77u);
  EXPECT_FALSE(i.kernel_ios_before);
  EXPECT_FALSE(back->subtests[0].findings[1].value);
  EXPECT_EQ(*back->subtests[0].findings[0].value, 1.25);
  // A record from before the procedure parameters loads with no procedure parameters.
  auto old = results::parse_run_json(R"({"schema_version":1,"plan":{"test_id":"iops"}})", "mem");
  ASSERT_TRUE(old.ok());
  EXPECT_TRUE(old->plan.procedure.empty());
  EXPECT_TRUE(old->plan.params<model::SteadyRoundsPlan>());
  // A DIRTH plan holds the DIRTH parameters and no other procedure's.
  auto dr = sample_record();
  dr.plan.procedure = "dirth";
  model::DirthPlan d;
  d.thread_counts = {2, 1};
  d.queue_depths = {4, 1};
  d.art_ceiling_ns = 2.5e6;
  dr.plan.procedure_plan = d;
  dr.plan.subtests[0].role = model::SubTestRole::DirthSweep;
  const auto dtext = results::run_record_to_json_text(dr);
  auto dback = results::parse_run_json(dtext, "mem");
  ASSERT_TRUE(dback.ok()) << dback.error().message();
  EXPECT_EQ(results::run_record_to_json_text(*dback), dtext);
  ASSERT_TRUE(dback->plan.params<model::DirthPlan>());
  EXPECT_EQ(dback->plan.params<model::DirthPlan>()->art_ceiling_ns, 2.5e6);
  EXPECT_FALSE(dback->plan.params<model::HirPlan>());
  EXPECT_EQ(dback->plan.subtests[0].role, model::SubTestRole::DirthSweep);
}

TEST(Codec, MissingKeysTakeDefaults) {
  auto r = results::parse_run_json(R"({"schema_version":1,"plan":{"test_id":"iops"}})", "mem");
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(r->plan.window_rounds, 5u);
  EXPECT_EQ(r->plan.max_rounds, 25u);
  EXPECT_EQ(r->state, model::RunState::Running);
}

// Found by unit-tests/fuzz/fuzz_run_json: an out-of-range number in an integer field was
// wrapped (-5 -> 4294967291) or, as a float, undefined behaviour.
TEST(Codec, IntegersOutOfRangeOrFractionalAreMalformed) {
  for (const char* bad : {"-5", "1e20", "2.5", "4294967296", "\"7\"", "true"}) {
    const std::string text = std::string(R"({"schema_version":1,"plan":{"max_rounds":)") + bad + "}}";
    auto r = results::parse_run_json(text, "mem");
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().kind, core::ErrorKind::BadInput) << bad;
    EXPECT_NE(r.error().message().find("malformed run record"), std::string::npos) << r.error().message();
  }
  auto whole = results::parse_run_json(R"({"schema_version":1,"started_wall_ns":18446744073709551615,"plan":{"max_rounds":30.0}})", "mem");
  ASSERT_TRUE(whole.ok()) << whole.error().message();
  EXPECT_EQ(whole->plan.max_rounds, 30u);
  EXPECT_EQ(whole->started_wall_ns, UINT64_MAX);
}

TEST(RunStore, RejectsNewerSchemaAndGarbage) {
  auto newer = results::parse_run_json(R"({"schema_version":999})", "x/run.json");
  ASSERT_FALSE(newer.ok());
  EXPECT_EQ(newer.error().kind, core::ErrorKind::BadInput);
  EXPECT_NE(newer.error().message().find("newer"), std::string::npos);
  auto garbage = results::parse_run_json("{nope", "x/run.json");
  ASSERT_FALSE(garbage.ok());
  EXPECT_NE(garbage.error().message().find("x/run.json"), std::string::npos);
  auto not_record = results::parse_run_json("[1,2]", "x/run.json");
  EXPECT_FALSE(not_record.ok());
  // Found by unit-tests/fuzz/fuzz_run_json: 1e999 threw out_of_range past the catch.
  auto overflow = results::parse_run_json(R"({"schema_version":1,"seconds":1e999})", "x/run.json");
  ASSERT_FALSE(overflow.ok());
  EXPECT_NE(overflow.error().message().find("x/run.json: not valid JSON"), std::string::npos);
}

TEST(RunStore, SaveThenLoadAndMissingDirectory) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("pts-runstore-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  ASSERT_TRUE(results::save_run_json(sample_record(), dir.string()).ok());
  EXPECT_FALSE(fs::exists(dir / "run.json.tmp"));
  auto back = results::load_run_json(dir.string());
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(back->device.serial, "deadbeef");
  fs::remove_all(dir);
  auto missing = results::load_run_json(dir.string());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().kind, core::ErrorKind::BadInput);
}

TEST(Codec, PurgeMethodNamesMatchTheModelTable) {
  for (auto m : model::kAllPurgeMethods) {
    nlohmann::json j = m;
    EXPECT_EQ(j.get<std::string>(), model::purge_method_name(m));
    EXPECT_EQ(model::purge_method_from_name(model::purge_method_name(m)), m);
  }
  EXPECT_FALSE(model::purge_method_from_name("auto").has_value());
}

TEST(Codec, HistogramsAreCompactPairsAndZonesRoundTrip) {
  auto r = sample_record();
  auto& c = r.subtests[0].rounds[0].cells[0];
  c.read_histogram.sub_bucket_bits = 7;
  c.read_histogram.max_bit = 47;
  c.read_histogram.samples = 5;
  c.read_histogram.buckets = {{300, 2}, {1400, 3}};
  c.spec.zones = {{50, 5}, {30, 15}, {20, 80}};
  nlohmann::json j = r;
  const auto& h = j["subtests"][0]["rounds"][0]["cells"][0]["read_histogram"];
  EXPECT_EQ(h["buckets"], nlohmann::json::parse("[[300,2],[1400,3]]"));
  EXPECT_EQ(h["sub_bucket_bits"], 7);
  EXPECT_EQ(j["subtests"][0]["rounds"][0]["cells"][0]["spec"]["zones"][2]["range_pct"], 80.0);
  auto back = results::parse_run_json(results::run_record_to_json_text(r), "mem");
  ASSERT_TRUE(back.ok()) << back.error().message();
  const auto& bc = back->subtests[0].rounds[0].cells[0];
  ASSERT_EQ(bc.read_histogram.buckets.size(), 2u);
  EXPECT_EQ(bc.read_histogram.buckets[1].index, 1400u);
  EXPECT_EQ(bc.read_histogram.buckets[1].count, 3u);
  EXPECT_EQ(bc.spec.zones[1].io_pct, 30u);
  // A schema-1 record (no histograms, no zones, no pooled window percentiles) still loads.
  auto old = results::parse_run_json(
      R"({"schema_version":1,"subtests":[{"id":"main","window_results":[{"cell_id":"x","p99_999_latency_ns":5.0}]}]})",
      "old");
  ASSERT_TRUE(old.ok()) << old.error().message();
  EXPECT_FALSE(old->subtests[0].window_results[0].percentiles_pooled);
}
