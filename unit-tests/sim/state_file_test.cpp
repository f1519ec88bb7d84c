// The state file: a drive reopened in another session equals the one that wrote it (snapshot
// + replayed log), checkpoints are per command, a kill mid-command loses only that command,
// a torn last record is dropped, and every bad state file is refused untouched (exit 2).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "sim/session.h"
#include "sim/sim.h"
#include "sim/state_file.h"
#include "sim_support.h"

namespace pts::sim {
namespace {

using simtest::spec;

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_all(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

std::vector<uint8_t> drive_bytes(const Drive& d) {
  ByteWriter w;
  d.save(w);
  return w.bytes();
}

SimTarget tiny_target(const std::string& path, const std::string& extra = "") {
  auto t = parse_sim_target("sim:tiny" + extra + "@" + path);
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message());
  return *t;
}

core::Result<model::CellResult> run_cell(SimDevice& dev, const model::AccessSpec& s) {
  auto eng = make_sim_engine(dev.session, dev.clock);
  return eng->run(s, nullptr, {});
}

TEST(SimStateFile, ReopenedDriveEqualsTheOneThatWroteIt) {
  simtest::TempDir dir;
  const auto t = tiny_target(dir.file("d.simdrive"));
  std::vector<uint8_t> expect;
  std::string serial;
  {
    auto dev = open_sim_device(t, true);
    ASSERT_TRUE(dev.ok()) << dev.error().message();
    EXPECT_TRUE(dev->session->created());
    serial = dev->session->serial();
    EXPECT_EQ(serial.rfind("SIM-", 0), 0u);
    ASSERT_TRUE(run_cell(*dev, spec(0, 4096, 2, 16, 3)).ok());
    ASSERT_TRUE(run_cell(*dev, spec(50, 16384, 2, 8, 2)).ok());
    EXPECT_TRUE(dev->clock->idle_ns(2'000'000'000));
    EXPECT_TRUE(dev->clock->idle_ns(1'000'000'000));
    ASSERT_TRUE(dev->session->close().ok());
    expect = drive_bytes(dev->session->drive());
    EXPECT_EQ(dev->session->stats().checkpoints, 4u);
  }
  auto again = open_sim_device(t, false);
  ASSERT_TRUE(again.ok()) << again.error().message();
  EXPECT_FALSE(again->session->created());
  EXPECT_EQ(again->session->serial(), serial);
  EXPECT_EQ(drive_bytes(again->session->drive()), expect);
  EXPECT_EQ(again->session->drive().ftl().check_consistency(), "");
}

TEST(SimStateFile, EveryLaterWriterAppendsAtTheEnd) {
  // Writers in turn, each closing cleanly (no torn tail, no tentative Run to settle) and none
  // writing a snapshot: each one's records go after the last one's, never over the header.
  simtest::TempDir dir;
  const auto t = tiny_target(dir.file("w.simdrive"));
  std::vector<uint8_t> expect;
  for (int writer = 0; writer < 3; ++writer) {
    auto dev = open_sim_device(t, true);
    ASSERT_TRUE(dev.ok()) << "writer " << writer << ": " << dev.error().message();
    const auto before = std::filesystem::file_size(t.state_path);
    ASSERT_TRUE(run_cell(*dev, spec(0, 4096, 2, 16, 1, 40 + writer)).ok());
    ASSERT_TRUE(dev->session->close().ok());
    EXPECT_EQ(dev->session->stats().snapshots, 0u) << "writer " << writer;
    EXPECT_GT(std::filesystem::file_size(t.state_path), before) << "writer " << writer << " appended";
    expect = drive_bytes(dev->session->drive());
  }
  auto again = open_sim_device(t, false);
  ASSERT_TRUE(again.ok()) << again.error().message();
  EXPECT_EQ(drive_bytes(again->session->drive()), expect);
}

TEST(SimStateFile, SameSeedSameStateSameResultsBitForBit) {
  simtest::TempDir dir;
  const std::string a = dir.file("a.simdrive"), b = dir.file("b.simdrive");
  {
    auto dev = open_sim_device(tiny_target(a), true);
    ASSERT_TRUE(run_cell(*dev, spec(0, 4096, 4, 32, 20, 77)).ok());
  }
  std::filesystem::copy_file(a, b);
  model::CellResult r[2];
  for (int i = 0; i < 2; ++i) {
    auto dev = open_sim_device(tiny_target(i ? b : a), true);
    ASSERT_TRUE(dev.ok());
    auto res = run_cell(*dev, spec(35, 8192, 4, 32, 5, 1234));
    ASSERT_TRUE(res.ok());
    r[i] = *res;
  }
  EXPECT_EQ(r[0].read_ios, r[1].read_ios);
  EXPECT_EQ(r[0].write_ios, r[1].write_ios);
  EXPECT_EQ(r[0].ios_per_second, r[1].ios_per_second);
  EXPECT_EQ(r[0].latency.mean_ns, r[1].latency.mean_ns);
  EXPECT_EQ(r[0].latency.p99_999_ns, r[1].latency.p99_999_ns);
  EXPECT_EQ(r[0].latency.max_ns, r[1].latency.max_ns);
  EXPECT_EQ(r[0].simulated->nand_pages_written, r[1].simulated->nand_pages_written);
}

TEST(SimStateFile, ACellTheHostNeverRecordedIsRunAgainFromTheDriveBeforeIt) {
  // A cell is durable before its result is handed back. After kill -9 the writer never closed:
  // its last Run is tentative. Run again (same spec, same seed: the host never recorded it),
  // it is dropped and re-run; followed by anything else (the host did record it), it stands.
  simtest::TempDir dir;
  const auto t = tiny_target(dir.file("d.simdrive"));
  const auto first = spec(0, 4096, 2, 16, 3), second = spec(0, 4096, 2, 16, 3, 99), third = spec(30, 8192, 1, 8, 2, 5);
  std::vector<uint8_t> after_second, after_third;
  model::CellResult second_result;
  {
    auto dev = open_sim_device(t, true);
    ASSERT_TRUE(run_cell(*dev, first).ok());
    auto r = run_cell(*dev, second);
    ASSERT_TRUE(r.ok());
    second_result = *r;
    after_second = drive_bytes(dev->session->drive());
    std::filesystem::copy_file(t.state_path, dir.file("killed.simdrive"));  // kill -9: no close()
    ASSERT_TRUE(run_cell(*dev, third).ok());
    after_third = drive_bytes(dev->session->drive());
  }
  std::filesystem::copy_file(dir.file("killed.simdrive"), dir.file("killed2.simdrive"));
  {  // a read-only view shows everything written
    auto view = open_sim_device(tiny_target(dir.file("killed.simdrive")), false);
    ASSERT_TRUE(view.ok()) << view.error().message();
    EXPECT_EQ(drive_bytes(view->session->drive()), after_second);
  }
  {  // the host re-runs the cell it never recorded: same result, same drive
    auto dev = open_sim_device(tiny_target(dir.file("killed.simdrive")), true);
    ASSERT_TRUE(dev.ok());
    auto r = run_cell(*dev, second);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->write_ios, second_result.write_ios);
    EXPECT_EQ(r->latency.mean_ns, second_result.latency.mean_ns);
    EXPECT_EQ(drive_bytes(dev->session->drive()), after_second);
  }
  {  // the host recorded it and goes on with the next cell
    auto dev = open_sim_device(tiny_target(dir.file("killed2.simdrive")), true);
    ASSERT_TRUE(dev.ok());
    ASSERT_TRUE(run_cell(*dev, third).ok());
    EXPECT_EQ(drive_bytes(dev->session->drive()), after_third);
  }
}

TEST(SimStateFile, TornLastRecordIsDroppedAnythingElseIsRefusedUntouched) {
  simtest::TempDir dir;
  const auto t = tiny_target(dir.file("d.simdrive"));
  {
    auto dev = open_sim_device(t, true);
    ASSERT_TRUE(run_cell(*dev, spec(0, 4096, 2, 16, 1)).ok());
    ASSERT_TRUE(run_cell(*dev, spec(0, 4096, 2, 16, 1, 5)).ok());
  }
  const std::string good = read_all(t.state_path);
  // Torn tail: the last record cut short, as a kill during its append leaves it.
  write_all(t.state_path, good.substr(0, good.size() - 10));
  uint64_t records = 0;
  {
    auto dev = open_sim_device(t, true);
    ASSERT_TRUE(dev.ok()) << dev.error().message();
    EXPECT_TRUE(dev->session->stats().dropped_torn_tail);
    records = dev->session->stats().records_replayed;
  }
  EXPECT_LT(read_all(t.state_path).size(), good.size() - 10);  // the torn record is gone
  {
    auto dev = open_sim_device(t, false);
    ASSERT_TRUE(dev.ok());
    EXPECT_FALSE(dev->session->stats().dropped_torn_tail);
    EXPECT_EQ(dev->session->stats().records_replayed, records);
  }
  // Damage in the snapshot, a newer format, another profile, other parameters, not a state
  // file at all: BadInput, file untouched.
  auto refused = [&](const std::string& bytes, const SimTarget& target, const std::string& expect) {
    write_all(t.state_path, bytes);
    auto dev = open_sim_device(target, true);
    ASSERT_FALSE(dev.ok());
    EXPECT_EQ(dev.error().kind, core::ErrorKind::BadInput);
    EXPECT_NE(dev.error().message().find(expect), std::string::npos) << dev.error().message();
    EXPECT_EQ(read_all(t.state_path), bytes);
  };
  std::string damaged = good;
  damaged[damaged.size() / 3] ^= 0x5A;
  refused(damaged, t, "corrupted");
  std::string newer = good;
  newer[16] = static_cast<char>(kStateFormatVersion + 1);
  refused(newer, t, "newer");
  refused("hello, not a drive", t, "not a ptsuite simulated-drive state file");
  refused(good, tiny_target(t.state_path, ",op=28%"), "differs from the target");
  auto demo = parse_sim_target("sim:demo@" + t.state_path);
  ASSERT_TRUE(demo.ok());
  refused(good, *demo, "profile 'tiny'");
}

/// The log records of a state file, read by the layout state_file.cpp documents (not by its
/// reader): each one's offset and its length and checksum fields' offsets.
struct RecordAt {
  size_t start = 0, length_at = 0, checksum_at = 0, end = 0;
};
std::vector<RecordAt> log_records(const std::string& bytes) {
  auto u32 = [&](size_t at) { uint32_t v; std::memcpy(&v, bytes.data() + at, 4); return v; };
  auto u64 = [&](size_t at) { uint64_t v; std::memcpy(&v, bytes.data() + at, 8); return v; };
  size_t at = 16 + 4;                 // magic, format
  at += 4 + u32(at) + 8;              // header length, header, its checksum
  at += 8 + u64(at) + 8;              // snapshot length, snapshot, its checksum
  std::vector<RecordAt> out;
  while (at < bytes.size()) {
    RecordAt r;
    r.start = at;
    EXPECT_EQ(u32(at), 0x43455253u) << "record magic at " << at;
    r.length_at = at + 8;
    r.checksum_at = at + 24 + u64(at + 8);
    r.end = r.checksum_at + 8;
    out.push_back(r);
    at = r.end;
  }
  EXPECT_EQ(at, bytes.size());
  return out;
}

TEST(SimStateFile, EveryDamagedRecordIsRefusedUntouchedNamingItsOffset) {
  // The damage matrix: every record of a log (cells, host idle, Set Features, anchors, clean
  // closes), its length field (the high byte, as a flipped bit would; one more, as a miscount
  // would), its header checksum and its checksum: a writable open refuses each (BadInput:
  // exit 2) naming the record's byte offset, and the file's bytes stay as they were. The last
  // record too: it is complete by its length, so it is not a torn tail.
  simtest::TempDir dir;
  const auto t = tiny_target(dir.file("d.simdrive"), ",plp=0");
  for (int writer = 0; writer < 2; ++writer) {
    auto dev = open_sim_device(t, true);
    ASSERT_TRUE(dev.ok()) << dev.error().message();
    ASSERT_TRUE(run_cell(*dev, spec(0, 4096, 2, 16, 0.5, 3 + writer)).ok());
    EXPECT_TRUE(dev->clock->idle_ns(500'000'000));
    ASSERT_TRUE(dev->session->begin_change(RecordType::SetWriteCache).ok());
    dev->session->drive().set_vwc(writer == 0);
    dev->session->set_write_cache(writer == 0);
    ASSERT_TRUE(run_cell(*dev, spec(30, 8192, 1, 4, 0.5, 9 + writer)).ok());
    ASSERT_TRUE(dev->session->close().ok());
  }
  const std::string good = read_all(t.state_path);
  const auto records = log_records(good);
  ASSERT_GE(records.size(), 10u);
  struct Damage {
    const char* field;
    size_t at;
    uint8_t mask;
    int add;
  };
  int refused = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    const RecordAt& r = records[i];
    for (const Damage& d : {Damage{"length, high byte", r.length_at + 7, 0x40, 0},
                            Damage{"length, one more", r.length_at, 0, 1},
                            Damage{"header checksum", r.length_at + 8 + 2, 0x08, 0},
                            Damage{"checksum", r.checksum_at + 3, 0x01, 0}}) {
      std::string bytes = good;
      bytes[d.at] = static_cast<char>(d.mask ? uint8_t(bytes[d.at]) ^ d.mask : uint8_t(bytes[d.at]) + d.add);
      write_all(t.state_path, bytes);
      auto dev = open_sim_device(t, true);
      const std::string what = "record " + std::to_string(i + 1) + " of " + std::to_string(records.size()) +
                               " (byte " + std::to_string(r.start) + "), " + d.field;
      ASSERT_FALSE(dev.ok()) << what << ": opened";
      EXPECT_EQ(dev.error().kind, core::ErrorKind::BadInput) << what;
      EXPECT_NE(dev.error().message().find("at byte " + std::to_string(r.start) + " "), std::string::npos)
          << what << ": " << dev.error().message();
      EXPECT_EQ(read_all(t.state_path), bytes) << what << ": the file changed";
      ++refused;
    }
  }
  std::printf("damage matrix: %zu records x 4 damages, %d refused, file untouched\n", records.size(), refused);
  // Torn tails, and only those, are dropped: the last record cut anywhere (inside its header,
  // its payload or its checksum), or zero bytes after the last record (an append that never
  // reached the disk).
  const RecordAt& last = records.back();
  for (size_t cut = last.start + 1; cut < last.end; cut += std::max<size_t>(1, (last.end - last.start) / 7)) {
    write_all(t.state_path, good.substr(0, cut));
    {
      auto dev = open_sim_device(t, true);
      ASSERT_TRUE(dev.ok()) << "cut at " << cut << ": " << dev.error().message();
      EXPECT_TRUE(dev->session->stats().dropped_torn_tail) << cut;
      dev->session->abandon();
    }
    EXPECT_EQ(read_all(t.state_path), good.substr(0, last.start)) << "cut at " << cut;
  }
  write_all(t.state_path, good + std::string(300, '\0'));
  {
    auto dev = open_sim_device(t, true);
    ASSERT_TRUE(dev.ok()) << dev.error().message();
    EXPECT_TRUE(dev->session->stats().dropped_torn_tail);
    dev->session->abandon();
  }
  EXPECT_EQ(read_all(t.state_path), good);
}

TEST(SimStateFile, OneWriterAtATime) {
  simtest::TempDir dir;
  const auto t = tiny_target(dir.file("d.simdrive"));
  auto first = open_sim_device(t, true);
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE(first->guard().ok());
  auto second = open_sim_device(t, true);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().kind, core::ErrorKind::Refused);
  auto viewer = open_sim_device(t, false);  // read-only views need no lock, never write
  ASSERT_TRUE(viewer.ok());
  EXPECT_FALSE(viewer->guard().ok());
}

TEST(SimStateFile, SnapshotsBoundTheReplayAndPurgesDropTheLog) {
  simtest::TempDir dir;
  const auto t = tiny_target(dir.file("d.simdrive"));
  auto dev = open_sim_device(t, true);
  ASSERT_TRUE(run_cell(*dev, spec(0, 4096, 2, 16, 2)).ok());
  ASSERT_TRUE(dev->session->begin_change(RecordType::Format).ok());  // as the controller does
  dev->session->drive().format(1);
  dev->session->formatted(1);
  ASSERT_TRUE(run_cell(*dev, spec(0, 4096, 2, 16, 1)).ok());  // commits the format: snapshot of a FOB drive
  EXPECT_EQ(dev->session->stats().snapshots, 1u);
  EXPECT_LT(read_all(t.state_path).size(), 200000u);  // an empty drive's state compresses to almost nothing
}

/// Resident kilobytes of the mapping that starts at `addr` (/proc/self/smaps), or -1.
long mapping_rss_kib(const void* addr) {
  std::ifstream in("/proc/self/smaps");
  char want[32];
  std::snprintf(want, sizeof want, "%lx-", reinterpret_cast<unsigned long>(addr));
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.find('-') != std::string::npos && line.find(' ') > line.find('-') && std::isxdigit(line[0]))
      inside = line.rfind(want, 0) == 0;
    else if (inside && line.rfind("Rss:", 0) == 0)
      return std::stol(line.substr(4));
  }
  return -1;
}

TEST(SimStateFile, BigPiecesStreamUnbufferedAndReadPagesLeaveMemory) {
  // Writing: a piece of 8 MiB or more (a full table's literal run) goes to the sink as it is.
  std::vector<uint8_t> big(24u << 20);
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<uint8_t>(i * 2654435761u >> 13);
  struct Seen {
    std::vector<uint8_t> bytes;
    size_t largest_call = 0;
  } seen;
  ByteWriter w;
  w.set_sink([](void* ctx, const uint8_t* d, size_t n) {
    auto* s = static_cast<Seen*>(ctx);
    s->bytes.insert(s->bytes.end(), d, d + n);
    s->largest_call = std::max(s->largest_call, n);
    return true;
  }, &seen);
  w.u32(7);
  w.raw(big.data(), big.size());
  w.u32(9);
  EXPECT_LT(w.bytes().capacity(), big.size()) << "the writer copied the piece into its buffer";
  ASSERT_TRUE(w.flush());
  EXPECT_EQ(seen.largest_call, big.size());
  ASSERT_EQ(seen.bytes.size(), big.size() + 8);
  EXPECT_EQ(0, std::memcmp(seen.bytes.data() + 4, big.data(), big.size()));

  // Reading: over a file mapping, release_behind() drops the pages already read, and the
  // bytes read are the file's (a page read again faults back in from the page cache).
  simtest::TempDir dir;
  const std::string path = dir.file("pieces");
  write_all(path, std::string(seen.bytes.begin(), seen.bytes.end()));
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  void* m = ::mmap(nullptr, seen.bytes.size(), PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  ASSERT_NE(m, MAP_FAILED);
  ByteReader r(static_cast<const uint8_t*>(m) + 1, seen.bytes.size() - 1);  // not page-aligned
  r.release_behind();
  std::vector<uint8_t> back(big.size());
  r.skip(3);
  r.raw(back.data(), back.size());
  EXPECT_EQ(r.u32(), 9u);
  EXPECT_TRUE(r.done());
  EXPECT_EQ(0, std::memcmp(back.data(), big.data(), big.size()));
  const long rss = mapping_rss_kib(m);
  EXPECT_GE(rss, 0);
  EXPECT_LE(rss, 9 * 1024) << "KiB of the 24 MiB file still resident after it was read";
  ByteReader again(static_cast<const uint8_t*>(m) + 4, big.size());
  std::vector<uint8_t> second(big.size());
  again.raw(second.data(), second.size());
  EXPECT_EQ(second, big);
  ::munmap(m, seen.bytes.size());
}

}  // namespace
}  // namespace pts::sim
