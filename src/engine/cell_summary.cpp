// engine/cell_summary.cpp — see cell_summary.h.
#include "engine/cell_summary.h"

#include <algorithm>

namespace pts::engine {

model::CellResult summarize_cell(const model::AccessSpec& spec, const std::vector<const WorkerStats*>& workers,
                                 uint64_t t0_ns, const CpuTimes& cpu) {
  model::CellResult r;
  r.spec = spec;
  LatencyHistogram reads, writes, submitted;
  uint64_t end_ns = t0_ns;
  std::vector<uint64_t> per_second;
  for (const WorkerStats* w : workers) {
    reads.merge(w->read_latency);
    writes.merge(w->write_latency);
    submitted.merge(w->submission_latency);
    r.read_ios += w->read_ios;
    r.write_ios += w->write_ios;
    r.read_bytes += w->read_bytes;
    r.write_bytes += w->write_bytes;
    r.io_errors += w->io_errors;
    if (r.error.empty() && !w->first_error.empty()) r.error = w->first_error;
    end_ns = std::max(end_ns, w->end_ns);
    if (spec.pattern == model::AccessPattern::Sequential) r.stream_end_bytes.push_back(w->stream_next_bytes);
    r.completion.wait_min = std::max(r.completion.wait_min, w->wait_min);
    r.completion.reaps += w->reaps;
    r.completion.submissions += w->submissions;
    r.completion.poll_busy_ns += w->poll_busy_ns;
    r.completion.poll_expired += w->poll_expired;
    r.completion_poll_ns = std::max(r.completion_poll_ns, w->completion_poll_ns);
    if (w->probe_sleep_ns && !r.completion.probe_sleep_ns) {  // the first worker that probed
      r.completion.probe_sleep_ns = w->probe_sleep_ns;
      r.completion.probe_poll_ns = w->probe_poll_ns;
    }
    if (w->completions_per_second.size() > per_second.size()) per_second.resize(w->completions_per_second.size(), 0);
    for (size_t s = 0; s < w->completions_per_second.size(); ++s) per_second[s] += w->completions_per_second[s];
  }
  r.seconds = static_cast<double>(end_ns - t0_ns) / 1e9;
  // Only whole seconds: the last, partial second would read low.
  per_second.resize(std::min(per_second.size(), static_cast<size_t>(r.seconds)));
  r.ios_per_second = std::move(per_second);

  if (r.seconds > 0) {
    r.read_iops = static_cast<double>(r.read_ios) / r.seconds;
    r.write_iops = static_cast<double>(r.write_ios) / r.seconds;
    r.read_mbps = static_cast<double>(r.read_bytes) / 1e6 / r.seconds;
    r.write_mbps = static_cast<double>(r.write_bytes) / 1e6 / r.seconds;
    const double wall = cpu.wall_seconds > 0 ? cpu.wall_seconds : r.seconds;
    r.cpu_usr_pct = cpu.user_seconds / wall * 100.0;
    r.cpu_sys_pct = cpu.system_seconds / wall * 100.0;
  }
  if (r.completion.reaps)
    r.completion.completions_per_reap =
        static_cast<double>(r.read_ios + r.write_ios) / static_cast<double>(r.completion.reaps);
  if (r.completion.submissions)
    r.completion.ios_per_submission =
        static_cast<double>(r.read_ios + r.write_ios) / static_cast<double>(r.completion.submissions);
  r.iops = r.read_iops + r.write_iops;
  r.mbps = r.read_mbps + r.write_mbps;
  r.read_latency = reads.summary();
  r.write_latency = writes.summary();
  r.read_histogram = reads.to_record();
  r.write_histogram = writes.to_record();
  LatencyHistogram all = reads;
  all.merge(writes);
  r.latency = all.summary();
  if (spec.rate_iops > 0) {
    r.latency_from = "schedule";
    r.submission_latency = submitted.summary();
  }
  r.littles_law_oio = r.iops * r.latency.mean_ns / 1e9;
  return r;
}

model::AccessSpec combined_spec(const std::vector<model::CellResult>& jobs) {
  model::AccessSpec c = jobs.empty() ? model::AccessSpec{} : jobs.front().spec;
  uint64_t threads = 0, oio = 0, reads = 0, rate = 0;
  for (const auto& j : jobs) {
    const uint64_t o = uint64_t{j.spec.threads} * j.spec.queue_depth;
    threads += j.spec.threads;
    oio += o;
    reads += o * j.spec.read_pct;
    rate += j.spec.rate_iops;
  }
  if (threads) {
    c.threads = static_cast<uint32_t>(threads);
    c.queue_depth = static_cast<uint32_t>(std::max<uint64_t>(1, oio / threads));
    c.read_pct = static_cast<uint32_t>(oio ? reads / oio : c.read_pct);
  }
  c.rate_iops = rate;
  c.stream_start_bytes.clear();
  return c;
}

model::CellResult combine_jobs(std::vector<model::CellResult> jobs, const std::vector<const WorkerStats*>& workers,
                               uint64_t t0_ns, const CpuTimes& cpu) {
  model::CellResult r = summarize_cell(combined_spec(jobs), workers, t0_ns, cpu);
  r.stream_end_bytes.clear();
  for (const auto& j : jobs) {
    for (const auto& f : j.fidelity_flags)
      if (std::find(r.fidelity_flags.begin(), r.fidelity_flags.end(), f) == r.fidelity_flags.end())
        r.fidelity_flags.push_back(f);
    if (r.error.empty() && !j.error.empty()) r.error = j.job ? j.job->id + ": " + j.error : j.error;
  }
  r.jobs = std::move(jobs);
  return r;
}

std::optional<IoPhase> merge_io_phases(const std::vector<const WorkerStats*>& workers) {
  std::optional<IoPhase> phase;
  for (const WorkerStats* w : workers) {
    if (w->first_submit_ns == UINT64_MAX) continue;  // submitted nothing
    if (!phase) phase = IoPhase{w->first_submit_ns, w->last_completion_ns};
    phase->first_submit_ns = std::min(phase->first_submit_ns, w->first_submit_ns);
    phase->last_completion_ns = std::max(phase->last_completion_ns, w->last_completion_ns);
  }
  // A worker whose submissions all failed at once completed nothing: the phase ends no
  // earlier than it began.
  if (phase) phase->last_completion_ns = std::max(phase->last_completion_ns, phase->first_submit_ns);
  return phase;
}

}  // namespace pts::engine
