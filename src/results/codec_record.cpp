// results/codec_record.cpp — see codec.h: the plans', rounds', verdicts' and run record's JSON.
#include "results/codec.h"

#include "results/codec_define.h"

namespace pts::model {

void to_json(nlohmann::json& j, const SubTestRole& role) { j = role_name(role); }

void from_json(const nlohmann::json& j, SubTestRole& role) {
  const auto name = j.get<std::string>();
  const auto r = role_from_name(name);
  if (!r)
    throw nlohmann::detail::type_error::create(302, "unknown sub-test role \"" + name + "\" (known: " + role_names() + ")",
                                               &j);
  role = *r;
}

PTS_JSON_DEFINE(TrackingVariable, cell_id, metric, label)
PTS_JSON_DEFINE(CellPlan, id, label, spec, applicable,
                not_applicable_reason)
PTS_JSON_DEFINE(SubTestPlan, id, title, purge, wipc_enabled, wipc, cells,
                tracking, role, role_index)
PTS_JSON_DEFINE(WsatPlan, workload, workload_title, max_seconds,
                spec_max_seconds, capacity_multiple, stop_bytes,
                stop_at_steady, ss_interval_samples, fob_samples,
                cliff_fraction, plateau_samples)
PTS_JSON_DEFINE(HirPlan, access_a_seconds, spec_access_a_seconds,
                repetitions, access_c_sample_seconds,
                spec_access_c_sample_seconds, access_c_samples,
                wait_seconds, spec_wait_seconds, baseline)
PTS_JSON_DEFINE(XsrGroup, cell_id, seconds, spec_seconds)
PTS_JSON_DEFINE(XsrPlan, groups, recovery_reference)
PTS_JSON_DEFINE(DirthPlan, thread_counts, queue_depths, sweep_order,
                art_ceiling_ns, round_prewrite_seconds,
                spec_round_prewrite_seconds, histogram_prewrite_seconds,
                spec_histogram_prewrite_seconds, histogram_seconds,
                spec_histogram_seconds, mid_rule)
PTS_JSON_DEFINE(ReviewPreconditionPlan, enabled, seq_seconds, spec_seq_seconds, random_seconds,
                spec_random_seconds)
PTS_JSON_DEFINE(ProfileSource, source, approximation, threads_meaning)
PTS_JSON_DEFINE(CurvePlan, workload, workload_title, fractions_pct, arrival, warmup_seconds,
                spec_warmup_seconds, interval_seconds, spec_interval_seconds, stop_response_ms,
                qd1_reference, profile, review)
PTS_JSON_DEFINE(SweepPlan, workload, workload_title, ramp_seconds, spec_ramp_seconds,
                interval_seconds, spec_interval_seconds, climb_gain_pct,
                littles_law_tolerance_pct, profile, review)
PTS_JSON_DEFINE(Finding, key, label, value, unit, detail)
PTS_JSON_DEFINE(JobSpec, id, target, offset_bytes, size_bytes, spec)
PTS_JSON_DEFINE(QosStep, id, label, write_mbps_target, jobs)
PTS_JSON_DEFINE(QosPlan, kind, namespaces, steps, read_jobs, write_jobs, cap_fraction, write_latency_floor_us,
                preconditioning, allow_overlap, profile)
PTS_JSON_DEFINE(IdleRecord, requested_ns, measured_ns, started_wall_ns,
                ended_wall_ns, completed, engine_ios_before,
                engine_ios_after, kernel_ios_before, kernel_ios_after,
                kernel_in_flight_before)
namespace {

PTS_JSON_DEFINE_AS(TestPlan, common_to_json, common_from_json, test_id, title, pts_edition, device_class,
                   template_name, definition_file, write_cache_enabled,
                   active_range_pct, ar_segments, ar_amount_bytes,
                   ar_segment_starts_bytes, threads, queue_depth, wipc_threads,
                   wipc_queue_depth, poll_budget_ns, cell_seconds,
                   spec_cell_seconds, window_rounds, max_rounds,
                   continue_past_max, wipc_capacity_multiple,
                   data_excursion_limit, slope_excursion_limit,
                   purge_method, purge_auto, accept_purge_failure, data_pattern,
                   subtests, procedure, time_scale, interpretations)

/// The JSON key of each procedure plan type (TestPlan::procedure_plan): the plan holds one, the
/// others are written as null. SteadyRoundsPlan has none (it holds nothing).
template <typename P>
struct PlanKey;
template <> struct PlanKey<SteadyRoundsPlan> { static constexpr const char* key = nullptr; };
template <> struct PlanKey<WsatPlan> { static constexpr const char* key = "wsat"; };
template <> struct PlanKey<HirPlan> { static constexpr const char* key = "hir"; };
template <> struct PlanKey<XsrPlan> { static constexpr const char* key = "xsr"; };
template <> struct PlanKey<DirthPlan> { static constexpr const char* key = "dirth"; };
template <> struct PlanKey<CurvePlan> { static constexpr const char* key = "curve"; };
template <> struct PlanKey<SweepPlan> { static constexpr const char* key = "sweep"; };
template <> struct PlanKey<QosPlan> { static constexpr const char* key = "qos"; };
/// The plans added after the SNIA tests' are written only when held, so the other tests'
/// run.json reads as before.
template <typename P> constexpr bool kNullWhenAbsent = true;
template <> constexpr bool kNullWhenAbsent<CurvePlan> = false;
template <> constexpr bool kNullWhenAbsent<SweepPlan> = false;
template <> constexpr bool kNullWhenAbsent<QosPlan> = false;

template <size_t... I>
void plans_to_json(nlohmann::json& j, const ProcedurePlan& v, std::index_sequence<I...>) {
  auto one = [&](auto index) {
    using P = std::variant_alternative_t<decltype(index)::value, ProcedurePlan>;
    if constexpr (PlanKey<P>::key != nullptr) {
      if (const P* p = std::get_if<P>(&v)) j[PlanKey<P>::key] = *p;
      else if (kNullWhenAbsent<P>) j[PlanKey<P>::key] = nullptr;
    }
  };
  (one(std::integral_constant<size_t, I>{}), ...);
}

template <size_t... I>
void plans_from_json(const nlohmann::json& j, ProcedurePlan& v, std::index_sequence<I...>) {
  auto one = [&](auto index) {
    using P = std::variant_alternative_t<decltype(index)::value, ProcedurePlan>;
    if constexpr (PlanKey<P>::key != nullptr) {
      const auto it = j.find(PlanKey<P>::key);
      if (it != j.end() && !it->is_null()) v = it->template get<P>();
    }
  };
  (one(std::integral_constant<size_t, I>{}), ...);
}

constexpr auto kPlanTypes = std::make_index_sequence<std::variant_size_v<ProcedurePlan>>{};

}  // namespace

void to_json(nlohmann::json& j, const TestPlan& t) {
  common_to_json(j, t);
  plans_to_json(j, t.procedure_plan, kPlanTypes);
}

void from_json(const nlohmann::json& j, TestPlan& t) {
  common_from_json(j, t);
  plans_from_json(j, t.procedure_plan, kPlanTypes);
}
PTS_JSON_DEFINE(WindowAssessment, first_round, last_round, values,
                average, slope, intercept, data_excursion,
                slope_excursion, allowed_data_excursion,
                allowed_slope_excursion, data_ok, slope_ok, steady)
PTS_JSON_DEFINE(TrackingVerdict, variable, window)
PTS_JSON_DEFINE(SteadyStateVerdict, round, steady, variables)
PTS_JSON_DEFINE(PreconditionRecord, kind, target_bytes, bytes_written,
                completed, result)
PTS_JSON_DEFINE(RoundRecord, round, started_wall_ns, ended_wall_ns, cells,
                max_cell_gap_ns, mean_cell_gap_ns, cell_gaps_ns, verdict,
                idle_after)
PTS_JSON_DEFINE(CellWindowResult, cell_id, rounds, iops, read_iops,
                write_iops, mbps, read_mbps, write_mbps,
                mean_latency_ns, max_latency_ns, p99_999_latency_ns,
                latency, read_latency, write_latency, percentiles_pooled,
                cpu_pct, system_cpu_pct)
PTS_JSON_DEFINE(FailedCell, round, cell)
PTS_JSON_DEFINE(SubTestRecord, id, purge, failed_purges, failed_cells, wipc,
                rounds, complete,
                steady_state_reached, window_first_round,
                window_last_round, final_verdict, window_results,
                findings)
PTS_JSON_DEFINE(Deviation, code, text)
PTS_JSON_DEFINE(OperatorField, key, value)
PTS_JSON_DEFINE(Transition, state, subtest, round, wall_ns, detail)
PTS_JSON_DEFINE(HostInfo, hostname, cpu_model, cpu_count, memory_bytes,
                os, kernel)
PTS_JSON_DEFINE(SimulatedDriveInfo, target, profile, parameters, state_file,
                state_format, note)
PTS_JSON_DEFINE(LockstepDrive, label, target, serial, job_target)
PTS_JSON_DEFINE(LockstepInfo, run_root, label, drives, rule)
PTS_JSON_DEFINE(RunRecord, schema_version, tool_version, git_revision,
                run_id, command_line, host, started_wall_ns,
                ended_wall_ns, state, failure, device, consent, write_cache,
                write_cache_original, plan, subtests, deviations, transitions, operator_fields,
                virtual_time, simulated_drive, lockstep)

}  // namespace pts::model
