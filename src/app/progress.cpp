// app/progress.cpp — see progress.h.
#include "app/progress.h"

#include <cmath>

#include "core/clock.h"
#include "core/units.h"

namespace pts::app {

std::string format_duration(double seconds) {
  if (!(seconds >= 0)) seconds = 0;
  const uint64_t s = static_cast<uint64_t>(std::llround(seconds));
  char buf[48];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%lluh%02llum", (unsigned long long)(s / 3600), (unsigned long long)(s % 3600 / 60));
  else if (s >= 60) std::snprintf(buf, sizeof buf, "%llum%02llus", (unsigned long long)(s / 60), (unsigned long long)(s % 60));
  else if (seconds >= 10 || seconds == 0) std::snprintf(buf, sizeof buf, "%llus", (unsigned long long)s);
  else std::snprintf(buf, sizeof buf, "%.1fs", seconds);
  return buf;
}

ProgressDisplay::ProgressDisplay(const model::TestPlan& plan, bool tty, bool quiet, FILE* out)
    : plan_(plan), tty_(tty), quiet_(quiet), out_(out) {}

ProgressDisplay::~ProgressDisplay() { clear_line(); }

void ProgressDisplay::clear_line() {
  if (line_open_) {
    std::fprintf(out_, "\r\033[K");
    std::fflush(out_);
    line_open_ = false;
  }
}

double ProgressDisplay::eta_seconds(const runner::CellPosition& pos, double elapsed_in_cell) const {
  if (pos.round == 0 || pos.subtest >= plan_.subtests.size()) return -1;
  auto cells_of = [&](size_t s) {
    size_t n = 0;
    for (const auto& c : plan_.subtests[s].cells) n += c.applicable ? 1 : 0;
    return n;
  };
  auto seconds_of = [&](size_t s) {
    double t = 0;
    for (const auto& c : plan_.subtests[s].cells)
      if (c.applicable) t += c.spec.seconds;
    return t;
  };
  const size_t cells = cells_of(pos.subtest);
  double left = std::max(0.0, pos.cell_seconds - elapsed_in_cell);
  const double per_cell = cells ? seconds_of(pos.subtest) / cells : 0;
  left += per_cell * static_cast<double>(cells - pos.cell_index - 1);
  if (pos.round < plan_.max_rounds) left += seconds_of(pos.subtest) * (plan_.max_rounds - pos.round);
  for (size_t s = pos.subtest + 1; s < plan_.subtests.size(); ++s) left += seconds_of(s) * plan_.max_rounds;
  return left;
}

void ProgressDisplay::draw(const runner::CellPosition& pos, double elapsed, double iops) {
  if (quiet_ || !tty_) return;
  const uint64_t now = core::monotonic_ns();
  if (now - last_draw_ns_ < 200'000'000ull && elapsed > 0) return;
  last_draw_ns_ = now;
  char line[256];
  const std::string sub = plan_.subtests.size() > 1 ? " [" + pos.subtest_id + "]" : "";
  if (pos.round == 0) {
    std::snprintf(line, sizeof line, "%s%s  %s  %.0f s  %.0f IOPS", plan_.title.c_str(), sub.c_str(),
                  pos.label.c_str(), elapsed, iops);
  } else {
    const double eta = eta_seconds(pos, elapsed);
    std::string rounds = pos.unbounded_rounds ? std::to_string(pos.round) + " (past cap " + std::to_string(pos.max_rounds) + ")"
                                              : std::to_string(pos.round) + "/" + std::to_string(pos.max_rounds);
    std::snprintf(line, sizeof line, "%s%s  round %s  cell %zu/%zu %s  %.0f IOPS  ETA %s%s", plan_.title.c_str(),
                  sub.c_str(), rounds.c_str(), pos.cell_index + 1, pos.cells_in_round, pos.label.c_str(), iops,
                  pos.unbounded_rounds ? "open-ended" : "<= ", pos.unbounded_rounds ? "" : format_duration(eta).c_str());
  }
  std::fprintf(out_, "\r\033[K%s", line);
  std::fflush(out_);
  line_open_ = true;
}

void ProgressDisplay::state(const model::Transition& t) {
  if (quiet_) return;
  if (tty_ && (t.state == "Round" || t.state == "SteadyCheck")) return;  // the line shows these
  clear_line();
  std::fprintf(out_, "[%s] %s%s%s%s\n", core::iso8601_utc(t.wall_ns).c_str() + 11, t.state.c_str(),
               t.subtest.empty() ? "" : (" " + t.subtest).c_str(), t.detail.empty() ? "" : ": ", t.detail.c_str());
  std::fflush(out_);
}

void ProgressDisplay::cell_started(const runner::CellPosition& pos) {
  last_draw_ns_ = 0;
  draw(pos, 0, 0);
}

void ProgressDisplay::cell_progress(const runner::CellPosition& pos, double elapsed, uint64_t ios_done) {
  draw(pos, elapsed, elapsed > 0 ? static_cast<double>(ios_done) / elapsed : 0);
}

void ProgressDisplay::cell_finished(const runner::CellPosition& pos, const model::CellResult& r) {
  last_draw_ns_ = 0;
  draw(pos, r.seconds, r.iops);
}

void ProgressDisplay::round_finished(size_t subtest, const model::RoundRecord& round) {
  if (quiet_) return;
  clear_line();
  std::string tracked;
  if (round.verdict)
    for (const auto& v : round.verdict->variables)
      if (!v.window.values.empty()) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "%s%s %.6g", tracked.empty() ? "" : ", ", v.variable.label.c_str(),
                      v.window.values.back());
        tracked += buf;
      }
  const std::string sub = subtest < plan_.subtests.size() && plan_.subtests.size() > 1 ? " [" + plan_.subtests[subtest].id + "]" : "";
  std::fprintf(out_, "%s%s round %u: %s%s; cell gap max %.3f ms%s\n", plan_.title.c_str(), sub.c_str(), round.round,
               tracked.c_str(),
               round.verdict && round.round >= plan_.window_rounds ? (round.verdict->steady ? " (steady)" : " (not steady)") : "",
               static_cast<double>(round.max_cell_gap_ns) / 1e6, "");
  std::fflush(out_);
}

}  // namespace pts::app
