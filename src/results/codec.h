// results/codec.h — RunRecord and every model record <-> JSON (nlohmann). Field names in
// JSON are the C++ member names (documented in docs/run-record.md); missing keys take the
// member's default, so older records load into newer code. Enums are lower-case strings.
// May use: core, model, nlohmann_json.
#pragma once

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

#include "model/access_spec.h"
#include "model/cell.h"
#include "model/device.h"
#include "model/plan.h"
#include "model/purge.h"
#include "model/run_record.h"
#include "model/verdict.h"

// std::optional<T> <-> null or value.
namespace nlohmann {
template <typename T>
struct adl_serializer<std::optional<T>> {
  static void to_json(json& j, const std::optional<T>& v) {
    if (v) j = *v;
    else j = nullptr;
  }
  static void from_json(const json& j, std::optional<T>& v) {
    if (j.is_null()) v.reset();
    else v = j.get<T>();
  }
};

// Integers are read strictly: a value outside the member's range (-5 or 1e20 for a uint32_t),
// a fraction (2.5) or a non-number is a json type_error, i.e. a malformed record, never a
// silently wrapped value (nlohmann's default wraps negatives and makes out-of-range floats
// undefined behaviour; found by unit-tests/fuzz). Writing is nlohmann's own.
template <typename T>
struct adl_serializer<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  template <typename Json>
  static void to_json(Json& j, T v) {
    ::nlohmann::to_json(j, v);
  }
  template <typename Json>
  static void from_json(const Json& j, T& v) {
    using Limits = std::numeric_limits<T>;
    bool fits = false;
    if (const auto* u = j.template get_ptr<const typename Json::number_unsigned_t*>()) {
      fits = std::in_range<T>(*u);
      if (fits) v = static_cast<T>(*u);
    } else if (const auto* i = j.template get_ptr<const typename Json::number_integer_t*>()) {
      fits = std::in_range<T>(*i);
      if (fits) v = static_cast<T>(*i);
    } else if (const auto* d = j.template get_ptr<const typename Json::number_float_t*>()) {
      const double lo = Limits::is_signed ? -std::ldexp(1.0, Limits::digits) : 0.0;
      fits = std::isfinite(*d) && *d == std::trunc(*d) && *d >= lo && *d < std::ldexp(1.0, Limits::digits);
      if (fits) v = static_cast<T>(*d);
    } else {
      throw detail::type_error::create(302, std::string("type must be number, but is ") + j.type_name(), &j);
    }
    if (!fits)
      throw detail::type_error::create(302, "number " + j.dump() + " is not an integer in [" +
                                                std::to_string(Limits::min()) + ", " +
                                                std::to_string(Limits::max()) + "]", &j);
  }
};
}  // namespace nlohmann

namespace pts::model {

NLOHMANN_JSON_SERIALIZE_ENUM(AccessPattern, {{AccessPattern::Random, "random"},
                                             {AccessPattern::Sequential, "sequential"}})
NLOHMANN_JSON_SERIALIZE_ENUM(TargetKind, {{TargetKind::NvmeNamespace, "nvme-namespace"},
                                          {TargetKind::BlockDevice, "block-device"},
                                          {TargetKind::File, "file"}})
NLOHMANN_JSON_SERIALIZE_ENUM(WriteCacheState, {{WriteCacheState::Unknown, "unknown"},
                                               {WriteCacheState::NotPresent, "no-volatile-cache"},
                                               {WriteCacheState::Enabled, "enabled"},
                                               {WriteCacheState::Disabled, "disabled"}})
NLOHMANN_JSON_SERIALIZE_ENUM(PurgeMethod, {{PurgeMethod::None, "none"},
                                           {PurgeMethod::SanitizeCrypto, "sanitize-crypto"},
                                           {PurgeMethod::SanitizeBlock, "sanitize-block"},
                                           {PurgeMethod::FormatCrypto, "format-crypto"},
                                           {PurgeMethod::FormatUser, "format-user"},
                                           {PurgeMethod::Discard, "discard"},
                                           {PurgeMethod::Recreate, "recreate"}})
NLOHMANN_JSON_SERIALIZE_ENUM(Metric, {{Metric::Iops, "iops"},
                                      {Metric::Mbps, "mbps"},
                                      {Metric::MeanLatencyNs, "mean_latency_ns"},
                                      {Metric::MaxLatencyNs, "max_latency_ns"}})
NLOHMANN_JSON_SERIALIZE_ENUM(RunState, {{RunState::Running, "running"},
                                        {RunState::Complete, "complete"},
                                        {RunState::Interrupted, "interrupted"},
                                        {RunState::Failed, "failed"}})

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(BlockSizeShare, bytes, percent)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(AccessZone, io_pct, range_pct)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ArSegmentation, count, segment_bytes, align_bytes, seed)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(AccessSpec, pattern, read_pct, block_bytes, bs_split,
                                                threads, queue_depth, seconds, bytes_limit,
                                                active_range_pct, zones, ar_segments, stream_start_bytes,
                                                rate_iops, poll_budget_ns, seed)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(LatencySummary, samples, mean_ns, min_ns, max_ns, p50_ns,
                                                p99_ns, p99_9_ns, p99_99_ns, p99_999_ns,
                                                percentile_rel_error)
// A histogram bucket is stored as a pair [index, count] to keep the record compact.
inline void to_json(nlohmann::json& j, const HistogramBucket& b) { j = nlohmann::json::array({b.index, b.count}); }
inline void from_json(const nlohmann::json& j, HistogramBucket& b) {
  b.index = j.at(0).get<uint32_t>();
  b.count = j.at(1).get<uint64_t>();
}
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(LatencyHistogramRecord, sub_bucket_bits, max_bit, samples,
                                                sum_ns, min_ns, max_ns, buckets)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(SimulatedCell, virtual_time, sim_cpu_seconds, sim_wall_seconds,
                                                host_pages_written, nand_pages_written, gc_pages_copied, erases,
                                                write_amplification, free_superblocks)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(KernelCounters, device, read_ios, write_ios, read_merges,
                                                write_merges, read_bytes, write_bytes, host_ios, ticks_ms,
                                                weighted_ms, busy_ms, wall_ns, avg_in_flight,
                                                mean_device_time_ns, utilization, in_flight_limit, saturated)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CompletionStats, wait_min, reaps, completions_per_reap,
                                                poll_busy_ns, poll_expired)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CellResult, cell_id, spec, started_wall_ns, seconds,
                                                read_ios, write_ios, read_bytes, write_bytes, read_iops,
                                                write_iops, iops, mbps, read_mbps, write_mbps, latency,
                                                read_latency, write_latency, read_histogram,
                                                write_histogram, cpu_usr_pct, cpu_sys_pct,
                                                littles_law_oio, completion_poll_ns, completion,
                                                latency_from, submission_latency, kernel, fidelity_flags,
                                                fidelity_not_judged,
                                                ios_per_second, stream_end_bytes, io_errors, error,
                                                simulated)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DeviceCapabilities, format_nvm, namespace_management,
                                                crypto_erase_in_format, format_applies_to_all_namespaces,
                                                sanitize_crypto_erase, sanitize_block_erase,
                                                sanitize_overwrite, volatile_write_cache_present,
                                                deallocated_reads_zeroes, discard)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(HealthSummary, temperature_c, percentage_used,
                                                media_errors, data_units_written, data_units_read,
                                                power_on_hours, critical_warning)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PcieLink, source, current_gt_s, current_width, max_gt_s,
                                                max_width)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DeviceIdentity, kind, path, manufacturer, model, serial,
                                                firmware, interface, nvme_version, namespace_id,
                                                capacity_bytes, lba_size, lba_metadata_bytes,
                                                lba_format_index, physical_block_bytes, capabilities,
                                                health, pcie_link, wwid, nguid, eui64, serial_made_up,
                                                subsystem_namespaces, subsystem_controllers)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Consent, method, value, exclusivity)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(WriteCacheSetting, current, saved, saveable)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PurgeVerification, method, performed, passed, sampled_blocks,
                                                blocks_still_holding_pattern, expectation, detail)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PurgeRecord, method, chosen_automatically, reason, opcode,
                                                nsid, cdw, success, status_sct, status_sc, sys_errno,
                                                status_text, started_wall_ns, duration_ns, progress_polls,
                                                verification, is_snia_purge, accepted_by_operator)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TrackingVariable, cell_id, metric, label)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CellPlan, id, label, spec, applicable,
                                                not_applicable_reason)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(SubTestPlan, id, title, purge, wipc_enabled, wipc, cells,
                                                tracking, role, role_index)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(WsatPlan, workload, workload_title, max_seconds,
                                                spec_max_seconds, capacity_multiple, stop_bytes,
                                                stop_at_steady, fob_samples, cliff_fraction,
                                                plateau_samples)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(HirPlan, access_a_seconds, spec_access_a_seconds,
                                                repetitions, access_c_seconds, spec_access_c_seconds,
                                                wait_seconds, spec_wait_seconds, baseline)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(XsrGroup, cell_id, seconds, spec_seconds)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(XsrPlan, groups, recovery_reference, recovery_tolerance)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DirthPlan, thread_counts, queue_depths, sweep_order,
                                                art_ceiling_ns, round_prewrite_seconds,
                                                spec_round_prewrite_seconds, histogram_prewrite_seconds,
                                                spec_histogram_prewrite_seconds, histogram_seconds,
                                                spec_histogram_seconds, mid_rule)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Finding, key, label, value, unit, detail)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(IdleRecord, requested_ns, measured_ns, started_wall_ns,
                                                ended_wall_ns, completed, engine_ios_before,
                                                engine_ios_after, kernel_ios_before, kernel_ios_after,
                                                kernel_in_flight_before)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TestPlan, test_id, title, pts_edition, device_class,
                                                template_name, definition_file, write_cache_enabled,
                                                active_range_pct, ar_segments, ar_amount_bytes,
                                                ar_segment_starts_bytes, threads, queue_depth, wipc_threads,
                                                wipc_queue_depth, poll_budget_ns, cell_seconds,
                                                spec_cell_seconds, window_rounds, max_rounds,
                                                continue_past_max, wipc_capacity_multiple,
                                                data_excursion_limit, slope_excursion_limit,
                                                purge_method, purge_auto, accept_purge_failure, data_pattern,
                                                subtests, procedure, time_scale, interpretations, wsat,
                                                hir, xsr, dirth)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(WindowAssessment, first_round, last_round, values,
                                                average, slope, intercept, data_excursion,
                                                slope_excursion, allowed_data_excursion,
                                                allowed_slope_excursion, data_ok, slope_ok, steady)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TrackingVerdict, variable, window)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(SteadyStateVerdict, round, steady, variables)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PreconditionRecord, kind, target_bytes, bytes_written,
                                                completed, result)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(RoundRecord, round, started_wall_ns, ended_wall_ns, cells,
                                                max_cell_gap_ns, mean_cell_gap_ns, cell_gaps_ns, verdict,
                                                idle_after)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CellWindowResult, cell_id, rounds, iops, read_iops,
                                                write_iops, mbps, read_mbps, write_mbps,
                                                mean_latency_ns, max_latency_ns, p99_999_latency_ns,
                                                latency, read_latency, write_latency, percentiles_pooled,
                                                cpu_pct)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FailedCell, round, cell)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(SubTestRecord, id, purge, failed_purges, failed_cells, wipc,
                                                rounds, complete,
                                                steady_state_reached, window_first_round,
                                                window_last_round, final_verdict, window_results,
                                                findings)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Deviation, code, text)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(OperatorField, key, value)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Transition, state, subtest, round, wall_ns, detail)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(HostInfo, hostname, cpu_model, cpu_count, memory_bytes,
                                                os, kernel)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(SimulatedDriveInfo, target, profile, parameters, state_file,
                                                state_format, note)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(RunRecord, schema_version, tool_version, git_revision,
                                                run_id, command_line, host, started_wall_ns,
                                                ended_wall_ns, state, failure, device, consent, write_cache,
                                                write_cache_original, plan, subtests, deviations, transitions, operator_fields,
                                                virtual_time, simulated_drive)

}  // namespace pts::model

namespace pts::results {

/// Serialises a record as run.json text (pretty-printed, stable key order).
std::string run_record_to_json_text(const model::RunRecord& record);

}  // namespace pts::results
