// unit-tests/results/run_dir_test.cpp — a run directory that steers a resume must be this
// user's own: another owner, group/other write or a symlinked journal is refused; the journal
// lock is taken before the journal is read; a newer journal schema is refused on replay; and
// run.json is rebuilt from a journal that is ahead of it.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/atomic_file.h"
#include "core/utf8.h"
#include "results/codec.h"
#include "results/journal.h"
#include "results/run_dir.h"
#include "results/run_store.h"

namespace {

using namespace pts;
namespace fs = std::filesystem;

std::string scratch(const std::string& name) {
  const fs::path d = fs::path(::testing::TempDir()) / ("pts-rundir-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  ::chmod(d.c_str(), 0755);
  return d.string();
}

model::RunRecord header() {
  model::RunRecord r;
  r.tool_version = "test";
  r.device.serial = "SN";
  r.plan.test_id = "iops";
  model::SubTestPlan s;
  s.id = "main";
  r.plan.subtests.push_back(s);
  return r;
}

std::string slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(RunDir, OwnPrivateDirectoryIsTrusted) {
  auto d = scratch("own");
  { auto sink = results::JournalSink::create(d); ASSERT_TRUE(sink.ok()); ASSERT_TRUE((*sink)->begin(header()).ok()); }
  EXPECT_TRUE(results::check_run_dir_trusted(d).ok()) << results::check_run_dir_trusted(d).error().message();
}

TEST(RunDir, GroupOrOtherWritableIsRefused) {
  auto d = scratch("writable");
  { auto sink = results::JournalSink::create(d); ASSERT_TRUE(sink.ok()); ASSERT_TRUE((*sink)->begin(header()).ok()); }
  ::chmod(d.c_str(), 0775);
  auto st = results::check_run_dir_trusted(d);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, core::ErrorKind::Refused);
  EXPECT_NE(st.error().message().find("writable by group or others (mode 0775)"), std::string::npos) << st.error().message();
  ::chmod(d.c_str(), 0755);
  ::chmod((d + "/journal.jsonl").c_str(), 0666);
  EXPECT_FALSE(results::check_run_dir_trusted(d).ok());
}

TEST(RunDir, AnotherOwnerOrASymlinkedJournalIsRefused) {
  auto d = scratch("owner");
  { auto sink = results::JournalSink::create(d); ASSERT_TRUE(sink.ok()); ASSERT_TRUE((*sink)->begin(header()).ok()); }
  if (::geteuid() == 0) {  // only root can give a file away
    ASSERT_EQ(::chown((d + "/journal.jsonl").c_str(), 4242, 4242), 0);
    auto st = results::check_run_dir_trusted(d);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message().find("belongs to uid 4242"), std::string::npos) << st.error().message();
    ASSERT_EQ(::chown((d + "/journal.jsonl").c_str(), 0, 0), 0);
  }
  auto other = scratch("owner-elsewhere");
  fs::rename(d + "/journal.jsonl", other + "/journal.jsonl");
  fs::create_symlink(other + "/journal.jsonl", d + "/journal.jsonl");
  auto st = results::check_run_dir_trusted(d);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message().find("symbolic link"), std::string::npos);
  auto taken = results::JournalSink::resume(d);  // never opened through the link either
  EXPECT_FALSE(taken.ok());
}

TEST(RunDir, ResumeTakesTheLockBeforeReading) {
  auto d = scratch("lock");
  auto writer = results::JournalSink::create(d);
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->begin(header()).ok());
  auto taken = results::JournalSink::resume(d);  // a live run holds it
  ASSERT_FALSE(taken.ok());
  EXPECT_NE(taken.error().message().find("another ptsuite process is writing this run"), std::string::npos);
  EXPECT_FALSE(results::load_journal_shared(d).ok());
  writer->reset();
  auto again = results::JournalSink::resume(d);
  ASSERT_TRUE(again.ok()) << again.error().message();
  EXPECT_EQ(again->loaded.events, 1u);
  EXPECT_FALSE(results::load_journal_shared(d).ok());  // and holds it while it lives
}

TEST(RunDir, ANewerJournalSchemaIsRefusedOnReplay) {
  auto d = scratch("schema");
  model::RunRecord h = header();
  h.schema_version = model::kRunRecordSchemaVersion + 1;
  nlohmann::json j{{"event", "header"}, {"record", h}};
  const std::string next = nlohmann::json{{"event", "transition"}, {"transition", model::Transition{}}}.dump() + "\n";
  { std::ofstream(d + "/journal.jsonl") << j.dump() << "\n" << next; }  // not a torn last line
  auto loaded = results::load_journal(d);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().message().find("newer than this ptsuite understands"), std::string::npos)
      << loaded.error().message();
  h.schema_version = 1;  // an older journal still replays
  { std::ofstream(d + "/journal.jsonl") << nlohmann::json{{"event", "header"}, {"record", h}}.dump() << "\n" << next; }
  EXPECT_TRUE(results::load_journal(d).ok());
}

TEST(RunDir, RunJsonIsRebuiltWhenTheJournalIsAhead) {
  auto d = scratch("rebuild");
  {
    auto sink = results::JournalSink::create(d);
    ASSERT_TRUE(sink.ok());
    ASSERT_TRUE((*sink)->begin(header()).ok());
    model::Transition t;
    t.state = "Purge";
    ASSERT_TRUE((*sink)->transition(t).ok());  // journaled; run.json is only rewritten later
  }
  const std::string stale = slurp(d + "/run.json");
  auto loaded = results::load_journal(d);
  ASSERT_TRUE(loaded.ok());
  EXPECT_NE(stale, results::run_record_to_json_text(loaded->record));
  auto rebuilt = results::rebuild_run_json_if_behind(d, loaded->record);
  ASSERT_TRUE(rebuilt.ok());
  EXPECT_TRUE(*rebuilt);
  EXPECT_EQ(slurp(d + "/run.json"), results::run_record_to_json_text(loaded->record));
  auto again = results::rebuild_run_json_if_behind(d, loaded->record);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(*again);  // up to date: left alone
  for (const auto& e : fs::directory_iterator(d))  // no temporary left behind
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
}

TEST(RunDir, BytesThatAreNotUtf8NeverBreakARecord) {
  const std::string raw = std::string("SN\xff\xfe-1 \xc3\x28 ok \xe2\x82\xac");
  const std::string clean = core::valid_utf8(raw);
  EXPECT_EQ(clean, "SN\xEF\xBF\xBD\xEF\xBF\xBD-1 \xEF\xBF\xBD( ok \xe2\x82\xac");
  EXPECT_EQ(core::valid_utf8(clean), clean);
  EXPECT_EQ(core::valid_utf8("\xed\xa0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
  EXPECT_EQ(core::valid_utf8("\xc0\xaf"), "\xEF\xBF\xBD\xEF\xBF\xBD");                   // an overlong
  model::RunRecord r = header();
  r.device.serial = raw;  // even unsanitised, writing the record never throws
  auto d = scratch("utf8");
  EXPECT_TRUE(results::save_run_json(r, d).ok());
  auto back = results::load_run_json(d);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(core::valid_utf8(back->device.serial), back->device.serial);  // valid UTF-8 on disk
}

}  // namespace
