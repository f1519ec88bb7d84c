// unit-tests/fuzz/fuzz_journal.cpp — libFuzzer target for the journal loader
// (results::load_journal, which `resume` and `report` replay): the input is written as
// RUNDIR/journal.jsonl in a private temporary directory and loaded through the real entry
// point. No crash, hang or UB; an accepted journal replayed at least one event, its valid
// prefix ends at a newline inside the input, and the rebuilt record round-trips through
// run.json.
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz/fuzz_check.h"
#include "results/codec.h"
#include "results/journal.h"
#include "results/run_store.h"

namespace {

/// A private run directory for the whole fuzzing process, removed at exit.
struct TempRunDir {
  std::string dir;
  TempRunDir() {
    const char* tmp = std::getenv("TMPDIR");
    dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/ptsuite-fuzz-journal.XXXXXX";
    FUZZ_CHECK(::mkdtemp(dir.data()) != nullptr);
  }
  ~TempRunDir() {
    ::unlink((dir + "/" + pts::results::kJournal).c_str());
    ::rmdir(dir.c_str());
  }
};

const std::string& run_dir() {
  static const TempRunDir d;
  return d.dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = run_dir() + "/" + pts::results::kJournal;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  FUZZ_CHECK(fd >= 0);
  FUZZ_CHECK(::write(fd, data, size) == static_cast<ssize_t>(size));
  ::close(fd);

  auto loaded = pts::results::load_journal(run_dir());
  if (!loaded.ok()) {
    FUZZ_CHECK(!loaded.error().message().empty());
    return 0;
  }
  FUZZ_CHECK(loaded->events >= 1);
  FUZZ_CHECK(loaded->valid_bytes >= 1 && loaded->valid_bytes <= size);
  FUZZ_CHECK(data[loaded->valid_bytes - 1] == '\n');
  const std::string once = pts::results::run_record_to_json_text(loaded->record);
  auto again = pts::results::parse_run_json(once, "fuzz/run.json (from the journal)");
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(pts::results::run_record_to_json_text(*again) == once);
  return 0;
}
