// unit-tests/pts/write_cache_test.cpp — the operator's write-cache setting around a run, on
// the fake device: recorded before the run changes it; the test's setting saved (SV = 1) only
// where the drive can save it; set back — current and saved — when the run completes, fails
// or is interrupted, and when a resume after a kill ends.
#include <gtest/gtest.h>

#include <fstream>

#include "support.h"

namespace pts::testing {
namespace {

using model::WriteCacheScope;
using model::WriteCacheState;

const model::Transition* find_transition(const model::RunRecord& r, const std::string& state) {
  const model::Transition* found = nullptr;
  for (const auto& t : r.transitions)
    if (t.state == state) found = &t;  // the last one
  return found;
}

size_t sets_with(const fakes::FakeDevice& d, WriteCacheScope scope) {
  size_t n = 0;
  for (const auto& s : d.cache_sets) n += s.scope == scope;
  return n;
}

TEST(WriteCache, TheTestsSettingIsSavedOnlyWhereTheDriveCanSaveIt) {
  for (bool saveable : {false, true}) {
    SCOPED_TRACE(saveable ? "saveable" : "current-only");
    Rig rig(steady_at_8);
    rig.device.cache = WriteCacheState::Enabled;  // the operator's; PTS-E wants it disabled
    rig.device.saveable = saveable;
    rig.device.saved = WriteCacheState::Enabled;
    WriteCacheState during = WriteCacheState::Unknown, saved_during = WriteCacheState::Unknown;
    rig.engine->on_run = [&](size_t, const model::AccessSpec&) {
      during = rig.device.cache;
      saved_during = rig.device.saved;
    };
    auto res = rig.start(temp_run_dir("wc-save"), make_plan());
    ASSERT_FALSE(res.error) << res.error->message();
    EXPECT_EQ(during, WriteCacheState::Disabled);
    ASSERT_FALSE(rig.device.cache_sets.empty());
    EXPECT_FALSE(rig.device.cache_sets.front().enabled);
    EXPECT_EQ(rig.device.cache_sets.front().scope,
              saveable ? WriteCacheScope::CurrentAndSaved : WriteCacheScope::CurrentOnly);
    if (!saveable) {
      EXPECT_EQ(sets_with(rig.device, WriteCacheScope::CurrentAndSaved), 0u) << "SV = 1 without ONCS bit 4";
    }
    // A controller reset mid-run: saved, the test's setting survives it.
    EXPECT_EQ(saved_during, saveable ? WriteCacheState::Disabled : WriteCacheState::Enabled);
    // The record: the operator's setting, and which way the test's was set (printed).
    EXPECT_EQ(res.record.write_cache_original.current, WriteCacheState::Enabled);
    EXPECT_EQ(res.record.write_cache_original.saveable, saveable);
    EXPECT_EQ(res.record.write_cache_original.saved, saveable ? WriteCacheState::Enabled : WriteCacheState::Unknown);
    const auto* wc = find_transition(res.record, "WriteCache");
    ASSERT_TRUE(wc);
    EXPECT_NE(wc->detail.find(saveable ? "set and saved (SV = 1" : "set current-only (SV = 0"), std::string::npos)
        << wc->detail;
  }
}

/// The run ends in `how`; the drive's cache must be the operator's again, current and saved.
void expect_restored_after(const std::string& how, bool saveable, WriteCacheState cur, WriteCacheState saved) {
  SCOPED_TRACE(how + (saveable ? ", saveable" : ", current-only"));
  Rig rig(steady_at_8);
  rig.device.cache = cur;
  rig.device.saveable = saveable;
  rig.device.saved = saved;
  model::TestPlan plan = make_plan();
  plan.write_cache_enabled = cur != WriteCacheState::Enabled;  // the test needs the other state
  const WriteCacheState want = plan.write_cache_enabled ? WriteCacheState::Enabled : WriteCacheState::Disabled;
  if (how == "failed") rig.engine->on_run = [&](size_t call, const model::AccessSpec&) {
    if (call == 5) rig.device.purge_fails = true;
  };
  if (how == "interrupted") rig.engine->on_run = [&](size_t call, const model::AccessSpec&) {
    if (call == 5) rig.stop = true;
  };
  WriteCacheState during = WriteCacheState::Unknown;
  auto inner = rig.engine->on_run;
  rig.engine->on_run = [&, inner](size_t call, const model::AccessSpec& s) {
    during = rig.device.cache;
    if (inner) inner(call, s);
  };
  model::TestPlan p = plan;
  if (how == "failed") p.subtests = make_plan(2).subtests;  // the second sub-test's purge fails
  auto res = rig.start(temp_run_dir("wc-restore"), p);
  EXPECT_EQ(during, want) << "the test ran with the plan's setting";
  if (how == "complete") { EXPECT_EQ(res.record.state, model::RunState::Complete); }
  if (how == "failed") { EXPECT_EQ(res.record.state, model::RunState::Failed); }
  if (how == "interrupted") { EXPECT_EQ(res.record.state, model::RunState::Interrupted); }
  EXPECT_EQ(rig.device.cache, cur) << "current value not restored";
  EXPECT_EQ(rig.device.saved, saved) << "saved value not restored";
  if (!saveable) { EXPECT_EQ(sets_with(rig.device, WriteCacheScope::CurrentAndSaved), 0u); }
  const auto* r = find_transition(res.record, "WriteCacheRestored");
  ASSERT_TRUE(r) << "the restore is journaled";
  EXPECT_EQ(r->detail.find("FAILED"), std::string::npos) << r->detail;
  EXPECT_NE(r->detail.find("back to the operator's setting"), std::string::npos) << r->detail;
}

TEST(WriteCache, TheOperatorsSettingIsBackWhenTheRunEnds) {
  for (const char* how : {"complete", "failed", "interrupted"}) {
    expect_restored_after(how, false, WriteCacheState::Enabled, WriteCacheState::Enabled);
    expect_restored_after(how, true, WriteCacheState::Enabled, WriteCacheState::Enabled);
    // current and saved differ (the operator switched it for now): both come back as they were
    expect_restored_after(how, true, WriteCacheState::Enabled, WriteCacheState::Disabled);
    expect_restored_after(how, true, WriteCacheState::Disabled, WriteCacheState::Enabled);
  }
}

TEST(WriteCache, AFailedRestoreIsSaidAndTheResultsStand) {
  Rig rig(steady_at_8);
  rig.device.cache = WriteCacheState::Enabled;
  rig.engine->on_run = [&](size_t, const model::AccessSpec&) { rig.device.set_fails = true; };
  auto res = rig.start(temp_run_dir("wc-restore-fails"), make_plan());
  ASSERT_FALSE(res.error) << res.error->message();
  EXPECT_EQ(res.record.state, model::RunState::Complete);
  EXPECT_EQ(rig.device.cache, WriteCacheState::Disabled);
  const auto* r = find_transition(res.record, "WriteCacheRestored");
  ASSERT_TRUE(r);
  EXPECT_NE(r->detail.find("FAILED to set the write cache back to the operator's setting (enabled"), std::string::npos)
      << r->detail;
}

TEST(WriteCache, AResumeAfterAKillRestoresTheOperatorsSetting) {
  // The first process dies (kill -9) mid-run: its journal ends there and the drive keeps the
  // test's setting (saved too, where it can). The resume restores the setting recorded at the
  // start, not the one it finds.
  for (bool saveable : {false, true}) {
    SCOPED_TRACE(saveable ? "saveable" : "current-only");
    Rig ref(steady_at_8);
    ref.device.cache = WriteCacheState::Enabled;
    ref.device.saveable = saveable;
    ref.device.saved = WriteCacheState::Enabled;
    const auto ref_dir = temp_run_dir("wc-kill-ref");
    ASSERT_FALSE(ref.start(ref_dir, make_plan()).error);
    const std::string journal = read_text(ref_dir + "/journal.jsonl");
    size_t cut = 0;
    for (int line = 0; line < 20; ++line) cut = journal.find('\n', cut) + 1;
    const auto dir = temp_run_dir("wc-kill");
    { std::ofstream(dir + "/journal.jsonl", std::ios::binary) << journal.substr(0, cut); }

    Rig again(steady_at_8);
    again.device.cache = WriteCacheState::Disabled;  // as the killed run left it
    again.device.saveable = saveable;
    again.device.saved = saveable ? WriteCacheState::Disabled : WriteCacheState::Enabled;
    WriteCacheState during = WriteCacheState::Unknown;
    again.engine->on_run = [&](size_t, const model::AccessSpec&) { during = again.device.cache; };
    auto resumed = again.resume(dir);
    ASSERT_FALSE(resumed.error) << resumed.error->message();
    EXPECT_EQ(resumed.record.state, model::RunState::Complete);
    EXPECT_EQ(during, WriteCacheState::Disabled);
    EXPECT_EQ(again.device.cache, WriteCacheState::Enabled);
    EXPECT_EQ(again.device.saved, WriteCacheState::Enabled);
    const auto* r = find_transition(resumed.record, "WriteCacheRestored");
    ASSERT_TRUE(r);
    EXPECT_NE(r->detail.find("back to the operator's setting from before the run: enabled"), std::string::npos)
        << r->detail;
  }
}

}  // namespace
}  // namespace pts::testing
