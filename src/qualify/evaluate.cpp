// qualify/evaluate.cpp — see evaluate.h.
#include "qualify/evaluate.h"

#include <algorithm>

#include "core/units.h"
#include "report/record_view.h"

namespace pts::qualify {

namespace {

std::string at_line(const model::RequirementSheet& s, int line) { return s.file + ":" + std::to_string(line) + ": "; }

bool matches(const model::CellPlan& c, const model::TestPoint& p) {
  if (!c.applicable) return false;
  if (p.read_pct && c.spec.read_pct != *p.read_pct) return false;
  if (p.block_bytes && (!c.spec.bs_split.empty() || c.spec.block_bytes != *p.block_bytes)) return false;
  if (p.threads && c.spec.threads != *p.threads) return false;
  if (p.queue_depth && c.spec.queue_depth != *p.queue_depth) return false;
  return true;
}

std::string cell_text(const model::CellPlan& c) {
  return (c.label.empty() ? c.id : c.label) + ", TC " + std::to_string(c.spec.threads) + " × QD " +
         std::to_string(c.spec.queue_depth);
}

bool scaled(const model::RunRecord& r) {
  return r.plan.time_scale != 1.0 || r.plan.cell_seconds != r.plan.spec_cell_seconds;
}

}  // namespace

size_t DriveCheck::failed() const {
  return static_cast<size_t>(std::count_if(results.begin(), results.end(), [](const auto& r) { return !r.pass; }));
}

bool CheckOutcome::all_pass() const {
  return unanswered.empty() &&
         std::all_of(drives.begin(), drives.end(), [](const DriveCheck& d) { return d.failed() == 0; });
}

std::string point_text(const model::TestPoint& p) {
  std::string out = "test " + p.test;
  if (!p.subtest.empty()) out += " (" + p.subtest + ")";
  if (p.read_pct) out += ", R/W " + report::rw_mix_label(*p.read_pct);
  if (p.block_bytes) out += ", " + core::format_block_size(*p.block_bytes);
  if (p.threads || p.queue_depth)
    out += ", TC " + (p.threads ? std::to_string(*p.threads) : std::string("any")) + " × QD " +
           (p.queue_depth ? std::to_string(*p.queue_depth) : std::string("any"));
  return out;
}

std::optional<std::string> figure_problem(const std::string& figure) {
  const report::MetricInfo* m = report::find_metric(figure);
  if (m && m->in_window_results) return std::nullopt;
  return "is not one ptsuite records per Measurement Window (known: " + report::metric_names(true) + ")";
}

CheckOutcome evaluate(const model::RequirementSheet& sheet, const std::vector<CheckedRun>& runs) {
  CheckOutcome out;
  std::vector<std::vector<const CheckedRun*>> by_drive;
  for (const auto& r : runs) {
    const auto& d = r.record->device;
    auto it = std::find_if(out.drives.begin(), out.drives.end(),
                           [&](const DriveCheck& x) { return x.model == d.model && x.serial == d.serial; });
    if (it == out.drives.end()) {
      DriveCheck dc;
      dc.model = d.model;
      dc.serial = d.serial;
      dc.label = (d.manufacturer.empty() ? "" : d.manufacturer + " ") + d.model + " SN " + d.serial;
      out.drives.push_back(std::move(dc));
      by_drive.emplace_back();
      it = out.drives.end() - 1;
    }
    const size_t k = static_cast<size_t>(it - out.drives.begin());
    by_drive[k].push_back(&r);
    it->simulated = it->simulated || r.record->simulated_drive.has_value();
    it->scaled = it->scaled || scaled(*r.record);
  }
  for (size_t k = 0; k < out.drives.size(); ++k) {
    DriveCheck& drive = out.drives[k];
    for (const auto& q : sheet.requirements) {
      const auto found = std::find_if(sheet.points.begin(), sheet.points.end(),
                                      [&](const auto& p) { return p.name == q.point; });
      if (found == sheet.points.end()) {
        out.unanswered.push_back(at_line(sheet, q.source_line) + "[[requirement]] " + q.id + ": at = '" + q.point +
                                 "' names no test point");
        continue;
      }
      const model::TestPoint* point = &*found;
      const std::string where = at_line(sheet, q.source_line) + "[[requirement]] " + q.id + " (at '" + q.point + "', " +
                                point_text(*point) + ") on " + drive.label + ": ";
      std::vector<const CheckedRun*> of_test;
      for (const auto* r : by_drive[k])
        if (r->record->plan.test_id == point->test) of_test.push_back(r);
      if (of_test.empty()) {
        out.unanswered.push_back(where + "no run of test '" + point->test + "' among the run directories given");
        continue;
      }
      if (of_test.size() > 1) {
        std::string dirs;
        for (const auto* r : of_test) dirs += (dirs.empty() ? "" : ", ") + r->dir;
        out.unanswered.push_back(where + "several runs of test '" + point->test + "' (" + dirs + "); give one");
        continue;
      }
      const CheckedRun& run = *of_test.front();
      const model::CellPlan* cell = nullptr;
      const model::SubTestPlan* sub = nullptr;
      for (const auto& p : run.record->plan.subtests) {
        if (!point->subtest.empty() && p.id != point->subtest) continue;
        for (const auto& c : p.cells)
          if (matches(c, *point)) {
            cell = &c;
            sub = &p;
            break;
          }
        if (cell) break;
      }
      if (!cell) {
        out.unanswered.push_back(where + run.dir + " has no cell at this test point (the run's TC × QD: " +
                                 std::to_string(run.record->plan.threads) + " × " +
                                 std::to_string(run.record->plan.queue_depth) + ")");
        continue;
      }
      const auto* st = report::record_for(*run.record, *sub);
      const auto* w = st ? report::find_window_result(*st, cell->id) : nullptr;
      const auto v = w ? report::window_metric_value(*w, q.figure) : std::nullopt;
      if (!v) {
        out.unanswered.push_back(where + run.dir + " holds no " + q.figure + " for cell " + cell_text(*cell) +
                                 (w ? " (the cell had no I/O of that direction)" : " (no Measurement Window stored)"));
        continue;
      }
      RequirementResult res;
      res.requirement = &q;
      res.point = point;
      const report::MetricInfo* m = report::find_metric(q.figure);
      res.unit = m ? std::string(m->unit) : "";
      res.measured = *v;
      res.limit = q.limit;
      res.margin = q.kind == model::LimitKind::Floor ? *v - q.limit : q.limit - *v;
      res.margin_pct = q.limit != 0 ? res.margin / q.limit * 100.0 : 0;
      res.pass = res.margin >= 0;
      res.run_name = run.name;
      res.run_dir = run.dir;
      res.cell = cell_text(*cell);
      res.window = report::rounds_label(st->window_first_round, st->window_last_round);
      res.steady_state = st->steady_state_reached;
      drive.results.push_back(std::move(res));
    }
  }
  return out;
}

}  // namespace pts::qualify
