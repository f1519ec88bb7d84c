// model/requirement.h — a buyer's or a lab's requirement sheet as plain data: named test points
// (a cell of a PTS test, selected by its stimulus) and requirements on them (a floor on a
// figure, a ceiling on a latency percentile), each with the line of the file it came from.
// config/requirements.cpp reads it from TOML; `ptsuite check` holds runs against it.
// May use: core.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pts::model {

/// A test point: one cell of one PTS test, named in the sheet ("rnd4k-read-qd128"). Every set
/// field must match the cell's stimulus; the first applicable cell in plan order that matches
/// answers it.
struct TestPoint {
  std::string name;
  std::string test;                    ///< the test's id as run.json stores it ("iops", "latency")
  std::string subtest;                 ///< a plan sub-test id ("bs128k"); "" = any
  std::optional<uint32_t> read_pct;    ///< R/W mix: share of reads
  std::optional<uint32_t> block_bytes;
  std::optional<uint32_t> threads;     ///< TC
  std::optional<uint32_t> queue_depth; ///< QD per thread
  std::string load;                    ///< plain words for the report ("4 KiB random read, TC 4 × QD 32")
  int source_line = 0;
};

/// Which side of the limit passes.
enum class LimitKind {
  Floor,   ///< measured ≥ limit passes (IOPS, MB/s)
  Ceiling  ///< measured ≤ limit passes (latency percentiles, ART, MRT)
};

/// One requirement: `figure` at test point `point` against `limit`.
struct Requirement {
  std::string id;       ///< the sheet's own id ("PERF-1", "LAT-3")
  std::string text;     ///< what it asks, in the sheet's words
  std::string point;    ///< a TestPoint's name
  std::string figure;   ///< a Measurement Window figure ptsuite records ("iops", "read_p99_99_ms")
  LimitKind kind = LimitKind::Floor;
  double limit = 0;     ///< in the figure's display unit (IOPS, MB/s, ms)
  int source_line = 0;
};

/// A requirement sheet (tests-pts/requirements/*.toml).
struct RequirementSheet {
  std::string file;                  ///< the path it was read from
  std::string title;
  std::string source;                ///< what it is shaped on, with its citation
  std::vector<std::string> notes;
  std::vector<TestPoint> points;
  std::vector<Requirement> requirements;
};

}  // namespace pts::model
