// results/codec.cpp — see codec.h: the device, cell and purge records' JSON (codec_record.cpp
// has plans, rounds and the run record), and run.json's text.
#include "results/codec.h"

#include "results/codec_define.h"

namespace pts::model {

PTS_JSON_DEFINE(BlockSizeShare, bytes, percent)
PTS_JSON_DEFINE(AccessZone, io_pct, range_pct)
PTS_JSON_DEFINE(ArSegmentation, count, segment_bytes, align_bytes, seed)
namespace {
PTS_JSON_DEFINE_AS(AccessSpec, spec_to_json, spec_from_json, pattern, read_pct, block_bytes, bs_split,
                   threads, queue_depth, seconds, bytes_limit,
                   active_range_pct, zones, ar_segments, stream_start_bytes,
                   rate_iops, poll_budget_ns, seed, trim)
}  // namespace
// "arrival" only when the I/Os arrive at random (a curve's points): a fixed-rate or unpaced
// spec reads as before.
void to_json(nlohmann::json& j, const AccessSpec& s) {
  spec_to_json(j, s);
  if (s.arrival != Arrival::Fixed) j["arrival"] = arrival_name(s.arrival);
}
void from_json(const nlohmann::json& j, AccessSpec& s) {
  spec_from_json(j, s);
  s.arrival = Arrival::Fixed;
  if (auto it = j.find("arrival"); it != j.end() && it->is_string() && !parse_arrival(it->get<std::string>(), s.arrival))
    throw nlohmann::detail::type_error::create(302, "unknown arrival '" + it->get<std::string>() + "'", &j);
}
PTS_JSON_DEFINE(LatencySummary, samples, mean_ns, min_ns, max_ns, p50_ns,
                p99_ns, p99_9_ns, p99_99_ns, p99_999_ns,
                percentile_rel_error)
void to_json(nlohmann::json& j, const HistogramBucket& b) { j = nlohmann::json::array({b.index, b.count}); }
void from_json(const nlohmann::json& j, HistogramBucket& b) {
  b.index = j.at(0).get<uint32_t>();
  b.count = j.at(1).get<uint64_t>();
}
PTS_JSON_DEFINE(LatencyHistogramRecord, sub_bucket_bits, max_bit, samples,
                sum_ns, min_ns, max_ns, buckets)
PTS_JSON_DEFINE(ControllerIo, read_commands, write_commands, read_bytes, write_bytes)
namespace {
PTS_JSON_DEFINE_AS(SimulatedCell, sim_common_to_json, sim_common_from_json, virtual_time, sim_cpu_seconds, sim_wall_seconds,
                host_pages_written, nand_pages_written, gc_pages_copied, erases,
                write_amplification, free_superblocks)
}  // namespace
void to_json(nlohmann::json& j, const SimulatedCell& c) {
  sim_common_to_json(j, c);
  if (c.controller) j["controller"] = *c.controller;  // multi-job cells only
}
void from_json(const nlohmann::json& j, SimulatedCell& c) {
  sim_common_from_json(j, c);
  if (const auto it = j.find("controller"); it != j.end() && !it->is_null()) c.controller = it->get<ControllerIo>();
}
PTS_JSON_DEFINE(KernelCounters, device, read_ios, write_ios, read_merges,
                write_merges, read_bytes, write_bytes, host_ios, ticks_ms,
                weighted_ms, busy_ms, wall_ns, avg_in_flight,
                mean_device_time_ns, utilization, in_flight_limit, saturated)
PTS_JSON_DEFINE(CompletionStats, wait_min, reaps, completions_per_reap, submissions, ios_per_submission,
                poll_busy_ns, poll_expired, probe_sleep_ns, probe_poll_ns)
PTS_JSON_DEFINE(JobPlacement, id, target, target_index, offset_bytes, size_bytes)
namespace {
PTS_JSON_DEFINE_AS(CellResult, cell_common_to_json, cell_common_from_json, cell_id, spec, started_wall_ns, seconds,
                read_ios, write_ios, read_bytes, write_bytes, read_iops,
                write_iops, iops, mbps, read_mbps, write_mbps, latency,
                read_latency, write_latency, read_histogram,
                write_histogram, cpu_usr_pct, cpu_sys_pct, system_cpu_pct,
                littles_law_oio, completion_poll_ns, completion,
                latency_from, submission_latency, kernel, fidelity_flags,
                fidelity_not_judged,
                ios_per_second, stream_end_bytes, io_errors, error,
                simulated)
}  // namespace

// A multi-job cell's "job" and "jobs" are written only where they are set, so a single-job
// cell's record is as it was before multi-job cells existed.
void to_json(nlohmann::json& j, const CellResult& c) {
  cell_common_to_json(j, c);
  if (c.job) j["job"] = *c.job;
  if (!c.jobs.empty()) j["jobs"] = c.jobs;
}

void from_json(const nlohmann::json& j, CellResult& c) {
  cell_common_from_json(j, c);
  if (const auto it = j.find("job"); it != j.end() && !it->is_null()) c.job = it->get<JobPlacement>();
  if (const auto it = j.find("jobs"); it != j.end() && !it->is_null()) c.jobs = it->get<std::vector<CellResult>>();
}
PTS_JSON_DEFINE(DeviceCapabilities, format_nvm, namespace_management,
                crypto_erase_in_format, format_applies_to_all_namespaces,
                sanitize_crypto_erase, sanitize_block_erase,
                sanitize_overwrite, volatile_write_cache_present,
                deallocated_reads_zeroes, discard)
PTS_JSON_DEFINE(HealthSummary, temperature_c, percentage_used,
                media_errors, data_units_written, data_units_read,
                power_on_hours, critical_warning)
PTS_JSON_DEFINE(PcieLink, source, current_gt_s, current_width, max_gt_s,
                max_width)
PTS_JSON_DEFINE(DeviceIdentity, kind, path, manufacturer, model, serial,
                firmware, interface, nvme_version, namespace_id,
                capacity_bytes, lba_size, lba_metadata_bytes,
                lba_format_index, physical_block_bytes, capabilities,
                health, pcie_link, wwid, nguid, eui64, serial_made_up,
                subsystem_namespaces, subsystem_controllers)
PTS_JSON_DEFINE(Consent, method, value, exclusivity)
PTS_JSON_DEFINE(WriteCacheSetting, current, saved, saveable)
PTS_JSON_DEFINE(PurgeVerification, method, performed, passed, sampled_blocks,
                blocks_still_holding_pattern, expectation, detail)
PTS_JSON_DEFINE(PurgeRecord, method, chosen_automatically, reason, opcode,
                nsid, cdw, success, status_sct, status_sc, sys_errno,
                status_text, started_wall_ns, duration_ns, progress_polls,
                verification, is_snia_purge, accepted_by_operator)

}  // namespace pts::model

namespace pts::results {

std::string run_record_to_json_text(const model::RunRecord& record) {
  nlohmann::json j = record;
  return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace pts::results
