// report/header_block.cpp — see header_block.h.
#include "report/header_block.h"

#include <set>
#include <variant>

#include "core/clock.h"
#include "core/units.h"
#include "report/record_view.h"

namespace pts::report {

namespace {

std::string time_or_dash(uint64_t wall_ns) { return wall_ns ? core::iso8601_utc(wall_ns) : "—"; }

std::string or_unknown(const std::string& s) { return s.empty() ? "not reported" : s; }

std::string subtest_name(const model::SubTestPlan& p) { return p.title.empty() ? p.id : p.title; }

std::string purge_result(const model::PurgeRecord& p) {
  std::string s = p.success ? "completed" : "FAILED";
  if (!p.status_text.empty()) s += " (" + p.status_text + ")";
  if (p.duration_ns) s += ", " + trimmed_number(static_cast<double>(p.duration_ns) / 1e9, 1) + " s";
  const auto& v = p.verification;
  if (v.performed) {
    // Named for what it is: a pattern written at sampled LBAs before the purge, read back after.
    s += v.passed ? "; verified by " + v.method : "; " + v.method + " FAILED";
    s += " (" + std::to_string(v.sampled_blocks) + " LBAs sampled";
    if (!v.expectation.empty()) s += ", expected " + v.expectation;
    if (!v.passed) s += ", " + std::to_string(v.blocks_still_holding_pattern) + " still held the pattern";
    s += ")";
  } else {
    s += "; not verified (no " + v.method + ")";
  }
  if (p.accepted_by_operator) s += "; accepted by the operator";
  return s;
}

std::string spec_access(const model::AccessSpec& a) {
  std::string s = a.pattern == model::AccessPattern::Random ? "RND " : "SEQ ";
  s += model::block_size_text(a) + " ";
  s += a.read_pct == 0 ? "W" : a.read_pct == 100 ? "R" : rw_mix_label(a.read_pct);
  return s;
}

std::string tc_qd(uint32_t tc, uint32_t qd) {
  return "TC " + std::to_string(tc) + " / QD " + std::to_string(qd) + " (OIO " + std::to_string(tc * qd) + ")";
}

std::string wipc_line(const model::TestPlan& plan, const model::SubTestPlan& p, const model::SubTestRecord* st) {
  if (!p.wipc_enabled) return "none (not part of this test)";
  std::string s = spec_access(p.wipc) + ", " + trimmed_number(plan.wipc_capacity_multiple, 2) + "× user capacity";
  if (st && st->wipc) {
    const auto& w = *st->wipc;
    s += ": " + core::format_bytes(w.bytes_written) + " of " + core::format_bytes(w.target_bytes) + " written";
    s += w.completed ? " (complete)" : " (NOT complete)";
  } else {
    s += ": not run";
  }
  return s + ", " + tc_qd(p.wipc.threads, p.wipc.queue_depth);
}

/// "RND; R/W mix (outer) 100/0, 65/35, 0/100; block size (inner) 8 KiB, 4 KiB, 0.5 KiB"; a
/// block-size mix is shown as its shares ("4 KiB 67 %, 8 KiB 10 %, …") and a zoned
/// distribution as its I/O % / ActiveRange % per zone (ECW).
std::string stimulus(const model::SubTestPlan& p) {
  std::vector<std::string> mixes, sizes;
  std::set<std::string> seen_mix, seen_size;
  bool random = true;
  for (const auto& c : p.cells) {
    random = c.spec.pattern == model::AccessPattern::Random;
    std::string m = rw_mix_label(c.spec.read_pct);
    std::string b = model::block_size_text(c.spec);
    if (!c.spec.zones.empty()) b += "; LBA zones (I/O % / AR %) " + model::zones_text(c.spec.zones);
    if (seen_mix.insert(m).second) mixes.push_back(m);
    if (seen_size.insert(b).second) sizes.push_back(b);
  }
  auto join = [](const std::vector<std::string>& v) {
    std::string out;
    for (const auto& x : v) out += (out.empty() ? "" : ", ") + x;
    return out;
  };
  return std::string(random ? "RND" : "SEQ") + "; R/W mix (outer) " + join(mixes) + "; block size (inner) " +
         join(sizes);
}

/// A plan of the review-lab procedures (it states where its profile comes from): not a SNIA PTS
/// test. Its source, and whether it is an approximation; nullptr for the PTS's own tests.
const model::ProfileSource* review_profile(const model::TestPlan& plan) {
  return std::visit(
      [](const auto& p) -> const model::ProfileSource* {
        if constexpr (requires { p.profile.source; }) return &p.profile;
        else return nullptr;
      },
      plan.procedure_plan);
}

/// The review preconditioning's steps as run, for the set-up lines ("like WIPC").
std::string review_precondition_line(const model::RunRecord& rec) {
  for (const auto& p : rec.plan.subtests) {
    if (p.role != model::SubTestRole::ReviewPrecondition) continue;
    const auto* st = record_for(rec, p);
    std::string s = "review (the lab's, not the PTS's): ";
    if (!st || st->rounds.empty()) return s + "not run";
    std::string steps;
    for (const auto& c : st->rounds.back().cells)
      steps += (steps.empty() ? "" : "; ") + c.cell_id + " " + core::format_bytes(c.write_bytes) + " in " +
               trimmed_number(c.seconds, 1) + " s";
    return s + steps + (st->complete ? "" : " (NOT complete)");
  }
  return "none beyond the purge";
}

}  // namespace

std::vector<Banner> status_banners(const model::RunRecord& record, const std::vector<size_t>& subtests) {
  std::vector<Banner> out;
  if (record.state != model::RunState::Complete) {
    std::string b = "INCOMPLETE RUN — partial results (run " + run_state_label(record.state) + ")";
    if (!record.failure.empty()) b += ": " + record.failure;
    out.push_back({b, true});
  }
  const bool many = subtests.size() > 1;
  size_t own_rule_done = 0;  // sub-tests with no steady-state rule, run to their own stop rule
  for (size_t si : subtests) {
    const auto& p = record.plan.subtests[si];
    const std::string prefix = many ? subtest_name(p) + ": " : "";
    const auto* st = record_for(record, p);
    const bool own_rule = p.role != model::SubTestRole::SteadyRounds && p.tracking.empty();
    if (own_rule && st && st->complete) {
      ++own_rule_done;
      continue;
    }
    if (!st || st->rounds.empty()) {
      out.push_back({prefix + "not run — no Round recorded", true});
      continue;
    }
    if (own_rule) {
      out.push_back({prefix + "not finished — partial (" + std::to_string(st->rounds.size()) + " Rounds recorded)", true});
      continue;
    }
    const ReportedRounds rr = reported_rounds(record.plan, *st);
    const std::string window = std::to_string(rr.first) + "\u2013" + std::to_string(rr.last);
    if (st->steady_state_reached)
      out.push_back({prefix + "Steady state achieved (Measurement Window rounds " + window + ")", false});
    else if (rr.from_record)
      out.push_back({prefix + "Steady state NOT achieved (rounds " + window + " reported)", true});
    else
      out.push_back({prefix + "Steady state NOT determined — partial (rounds " + window + " reported)", true});
  }
  if (own_rule_done)
    out.push_back({(own_rule_done == 1 && !many ? std::string("Complete") : std::to_string(own_rule_done) +
                                                                               " sub-test(s) complete") +
                       ": run to the procedure's own stop rule (no steady-state determination applies)",
                   false});
  return out;
}

std::vector<HeaderField> operator_header_fields(const model::RunRecord& rec) {
  std::vector<HeaderField> out;
  std::set<std::string> used;
  for (const auto& [key, label] : required_operator_fields()) {
    std::string value;
    for (const auto& f : rec.operator_fields)
      if (f.key == key) value = f.value;
    used.insert(key);
    out.push_back({label, value.empty() ? "not stated" : value});
  }
  for (const auto& f : rec.operator_fields)
    if (used.insert(f.key).second) out.push_back({f.key, f.value.empty() ? "(empty)" : f.value});
  return out;
}

const std::vector<std::pair<std::string, std::string>>& required_operator_fields() {
  static const std::vector<std::pair<std::string, std::string>> kFields = {{"tested_by", "Tested by"},
                                                                          {"test_sponsor", "Test sponsor"},
                                                                          {"nand_type", "NAND type"},
                                                                          {"form_factor", "Form factor"},
                                                                          {"notes", "Notes"}};
  return kFields;
}

std::string dut_line(const model::DeviceIdentity& d) {
  std::string s = d.manufacturer.empty() ? "" : d.manufacturer + " ";
  s += or_unknown(d.model) + " · SN " + or_unknown(d.serial) + " · FW " + or_unknown(d.firmware) + " · " +
       core::format_bytes(d.capacity_bytes) + " · " + model::pcie_link_label(d.pcie_link);
  return s;
}

PageHeader build_header(const model::RunRecord& rec, const std::string& test_name, const Scope& scope,
                        uint64_t report_wall_ns) {
  const model::TestPlan& plan = rec.plan;
  PageHeader h;
  h.organisation = "SNIA SSS TWG";
  h.spec = "Solid State Storage Performance Test Specification";
  h.revision = edition_label(plan.pts_edition) + (plan.device_class.empty() ? "" : " (" + plan.device_class + ")");
  h.test_page = test_name + " Test – Report Page";
  h.run_start = time_or_dash(rec.started_wall_ns);
  h.run_end = time_or_dash(rec.ended_wall_ns);
  h.report_date = time_or_dash(report_wall_ns);
  h.dut_line = dut_line(rec.device);
  h.operator_fields = operator_header_fields(rec);
  h.banners = status_banners(rec, scope.subtests);
  const model::ProfileSource* review = review_profile(plan);
  if (review) {
    h.organisation = "ptsuite";
    h.spec = "Not a SNIA PTS test: a workload review labs run beside the PTS";
    h.revision = "not a SNIA PTS test";
    h.banners.insert(h.banners.begin(), Banner{"NOT A SNIA PTS TEST — source: " + review->source, false});
    if (review->approximation)
      h.banners.insert(h.banners.begin() + 1, Banner{"APPROXIMATION — built from a description of the profile, not the "
                                               "lab's own definition (which is not public)", true});
  }

  const auto& host = rec.host;
  HeaderSection platform{"Test Platform", {}};
  platform.fields = {{"Host", or_unknown(host.hostname)},
                     {"CPU", or_unknown(host.cpu_model) + (host.cpu_count ? " × " + std::to_string(host.cpu_count) : "")},
                     {"Memory", host.memory_bytes ? core::format_bytes(host.memory_bytes) : "not reported"},
                     {"OS", or_unknown(host.os)},
                     {"Kernel", or_unknown(host.kernel)},
                     {"Test SW", "ptsuite " + or_unknown(rec.tool_version)},
                     {"Git revision", or_unknown(rec.git_revision)},
                     {"Run ID", or_unknown(rec.run_id)}};

  const auto& d = rec.device;
  HeaderSection dut{"Device Under Test", {}};
  std::string lba = std::to_string(d.lba_size) + " B";
  if (d.lba_metadata_bytes) lba += " + " + std::to_string(d.lba_metadata_bytes) + " B md";
  lba += " (LBA format " + std::to_string(d.lba_format_index) + ")";
  dut.fields = {{"Manufacturer", or_unknown(d.manufacturer)},
                {"Model", or_unknown(d.model)},
                {"Serial No.", or_unknown(d.serial)},
                {"Firmware", or_unknown(d.firmware)},
                {"Capacity", core::format_bytes(d.capacity_bytes) + " (" + std::to_string(d.capacity_bytes) + " B)"},
                {"Interface", or_unknown(d.interface) + (d.nvme_version.empty() ? "" : " (NVMe " + d.nvme_version + ")")},
                {"PCIe link", model::pcie_link_label(d.pcie_link)},
                {"LBA format", lba},
                {"Target", or_unknown(d.path)}};
  if (!d.wwid.empty()) dut.fields.push_back({"WWID", d.wwid});
  if (!rec.consent.method.empty())  // what the operator confirmed (records from schema 5 on)
    dut.fields.push_back({"Confirmed with", rec.consent.method == "created-by-ptsuite"
                                                ? "nothing needed: a file this run created"
                                                : rec.consent.method + " " + rec.consent.value});

  HeaderSection setup{"Set-up Parameters", {}};
  const bool many = scope.subtests.size() > 1;
  for (size_t si : scope.subtests) {
    const auto& p = plan.subtests[si];
    const auto* st = record_for(rec, p);
    const std::string pre = many ? subtest_name(p) + ": " : "";
    if (!p.purge) {
      setup.fields.push_back({"Purge", pre + "not part of this sub-test"});
    } else if (st && st->purge) {
      setup.fields.push_back({"Purge", pre + purge_method_label(st->purge->method) +
                                           (st->purge->chosen_automatically ? " (automatic)" : " (operator)")});
      setup.fields.push_back({"Purge result", pre + purge_result(*st->purge)});
    } else {
      setup.fields.push_back({"Purge", pre + purge_method_label(plan.purge_method) + " planned; not run"});
    }
    setup.fields.push_back({"WIPC", pre + wipc_line(plan, p, st)});
  }
  if (review) setup.fields.push_back({"Preconditioning", review_precondition_line(rec)});
  else setup.fields.push_back({"WDPC", "test stimulus, Round by Round"});
  setup.fields.push_back({"Write cache", write_cache_label(rec.write_cache) + " (required: " +
                                             (plan.write_cache_enabled ? "enabled" : "disabled") + ")"});
  setup.fields.push_back({"AR", trimmed_number(plan.active_range_pct, 2) + " %"});
  setup.fields.push_back({"Data pattern", or_unknown(plan.data_pattern)});
  setup.fields.push_back({"TOIO", tc_qd(plan.threads, plan.queue_depth)});

  HeaderSection params{"Test Parameters", {}};
  params.fields.push_back({"Test", (plan.title.empty() ? plan.test_id : plan.title) + ", " +
                                       or_unknown(plan.device_class) + " settings"});
  for (size_t si : scope.subtests) {
    const auto& p = plan.subtests[si];
    const auto* st = record_for(rec, p);
    const std::string pre = many ? subtest_name(p) + ": " : "";
    params.fields.push_back({"Stimulus", pre + stimulus(p)});
    const uint32_t run_rounds = st && !st->rounds.empty() ? st->rounds.back().round : 0;
    if (p.tracking.empty()) {  // run to its own stop rule: no window, no steady state to state
      params.fields.push_back({"Rounds", pre + std::to_string(run_rounds) +
                                             " run (the procedure's own stop rule; no steady-state determination)"});
      params.fields.push_back({"Tracking", pre + "none"});
      continue;
    }
    std::string window;
    if (!st || st->rounds.empty()) {
      window = "no Round recorded";
    } else {
      const ReportedRounds rr = reported_rounds(plan, *st);
      const std::string r = rounds_label(rr.first, rr.last);
      window = st->steady_state_reached ? r + ", steady"
               : rr.from_record          ? r + ", NOT steady"
                                         : r + " reported, partial";
    }
    const std::string cap = p.role == model::SubTestRole::WsatSamples  // samples: stopped by WSAT's own rule
                                ? ""
                                : " (max " + std::to_string(plan.max_rounds) + ")";
    params.fields.push_back({"Rounds", pre + std::to_string(run_rounds) + " run" + cap + "; window " + window});
    std::string tracking;
    for (const auto& tv : p.tracking) tracking += (tracking.empty() ? "" : "; ") + tv.label;
    params.fields.push_back({"Tracking", pre + (tracking.empty() ? "none" : tracking)});
  }
  params.fields.push_back({"Cell duration", trimmed_number(plan.cell_seconds, 3) + " s per cell (spec: " +
                                                trimmed_number(plan.spec_cell_seconds, 3) + " s)"});
  bool tracked = false;
  for (size_t si : scope.subtests) tracked = tracked || !plan.subtests[si].tracking.empty();
  if (tracked)
    params.fields.push_back({"SS criteria", "data exc. ≤ " + trimmed_number(plan.data_excursion_limit * 100, 2) +
                                              " %, slope exc. ≤ " + trimmed_number(plan.slope_excursion_limit * 100, 2) +
                                              " %, " + std::to_string(plan.window_rounds) + " Rounds"});
  params.fields.push_back({"Run state", run_state_label(rec.state)});

  h.sections = {platform, dut, setup, params};
  return h;
}

std::vector<std::string> deviation_texts(const model::RunRecord& rec) {
  std::vector<std::string> out;
  for (const auto& dev : rec.deviations) out.push_back(dev.text + (dev.code.empty() ? "" : " [" + dev.code + "]"));
  return out;
}

}  // namespace pts::report
