"""unit-tests/e2e/histogram_audit.py — recomputes a Measurement Window's latency percentiles from
the per-cell histograms stored in run.json, in its own Python arithmetic, from the bucket
scheme written in the record (docs/run-record.md, "LatencyHistogram"), and compares them with
the window results ptsuite stored. Used by check_run.py; no ptsuite code is involved.

A stored histogram is {"sub_bucket_bits", "max_bit", "samples", "sum_ns", "min_ns", "max_ns",
"buckets": [[index, count], ...]}. With S = 2**sub_bucket_bits, bucket i covers
[low, low + width): i < 2S -> low = i, width = 1; else shift = i // S - 1,
low = (S + i % S) << shift, width = 1 << shift. The value reported for the sample of rank
r = max(1, ceil(p / 100 * N)) is the exact maximum when r = N, else the midpoint
low + width // 2 of the bucket holding it, clamped to [min, max].
"""
import math

PERCENTILES = (("p50_ns", 50.0), ("p99_ns", 99.0), ("p99_9_ns", 99.9), ("p99_99_ns", 99.99),
               ("p99_999_ns", 99.999))


def bucket_bounds(index, sub_bits):
    s = 1 << sub_bits
    if index < 2 * s:
        return index, 1
    shift = index // s - 1
    return (s + index % s) << shift, 1 << shift


class Merged:
    """Counts of several stored histograms of one bucket scheme, added up."""

    def __init__(self):
        self.scheme = None
        self.counts = {}
        self.samples = 0
        self.sum_ns = 0
        self.min_ns = None
        self.max_ns = 0
        self.errors = []

    def add(self, h, what):
        if not h or h.get("samples", 0) == 0:
            return
        scheme = (h["sub_bucket_bits"], h["max_bit"])
        if scheme[0] == 0:
            self.errors.append(f"{what}: {h['samples']} samples but no histogram")
            return
        if self.scheme is not None and scheme != self.scheme:
            self.errors.append(f"{what}: bucket scheme {scheme} differs from {self.scheme}")
            return
        self.scheme = scheme
        total = 0
        last = -1
        for index, count in h["buckets"]:
            if index <= last or count <= 0:
                self.errors.append(f"{what}: buckets not ascending and non-empty at index {index}")
            last = index
            self.counts[index] = self.counts.get(index, 0) + count
            total += count
        if total != h["samples"]:
            self.errors.append(f"{what}: bucket counts add to {total}, samples say {h['samples']}")
        self.samples += h["samples"]
        self.sum_ns += h["sum_ns"]
        self.min_ns = h["min_ns"] if self.min_ns is None else min(self.min_ns, h["min_ns"])
        self.max_ns = max(self.max_ns, h["max_ns"])

    def merged(self, other):
        out = Merged()
        for part in (self, other):
            out.errors += part.errors
            if part.samples == 0:
                continue
            out.scheme = part.scheme
            for i, c in part.counts.items():
                out.counts[i] = out.counts.get(i, 0) + c
            out.samples += part.samples
            out.sum_ns += part.sum_ns
            out.min_ns = part.min_ns if out.min_ns is None else min(out.min_ns, part.min_ns)
            out.max_ns = max(out.max_ns, part.max_ns)
        return out

    def percentile(self, pct):
        if self.samples == 0:
            return 0
        rank = max(1, math.ceil(pct / 100.0 * self.samples - 1e-9))
        if rank >= self.samples:
            return self.max_ns
        seen = 0
        for index in sorted(self.counts):
            seen += self.counts[index]
            if seen >= rank:
                low, width = bucket_bounds(index, self.scheme[0])
                return min(max(low + width // 2, self.min_ns), self.max_ns)
        return self.max_ns


def audit_window(name, cells, window_result):
    """Problems (strings) with one cell's stored window percentiles, given the cell's results
    in every Round of the window."""
    problems = []
    reads, writes = Merged(), Merged()
    for c in cells:
        reads.add(c.get("read_histogram"), f"{name} read histogram")
        writes.add(c.get("write_histogram"), f"{name} write histogram")
        # Each cell's histogram agrees with its own latency summary.
        n = c.get("read_histogram", {}).get("samples", 0) + c.get("write_histogram", {}).get("samples", 0)
        if n != c["latency"]["samples"]:
            problems.append(f"{name}: histograms hold {n} samples, the cell's latency {c['latency']['samples']}")
    both = reads.merged(writes)
    problems += both.errors
    if not window_result.get("percentiles_pooled"):
        problems.append(f"{name}: window percentiles not pooled from the histograms")
        return problems
    for key, part in (("latency", both), ("read_latency", reads), ("write_latency", writes)):
        stored = window_result[key]
        if stored["samples"] != part.samples:
            problems.append(f"{name} {key}: {stored['samples']} window samples stored, histograms hold {part.samples}")
            continue
        if part.samples == 0:
            continue
        if stored["max_ns"] != part.max_ns or stored["min_ns"] != part.min_ns:
            problems.append(f"{name} {key}: min/max {stored['min_ns']}/{stored['max_ns']} != {part.min_ns}/{part.max_ns}")
        if not math.isclose(stored["mean_ns"], part.sum_ns / part.samples, rel_tol=1e-12):
            problems.append(f"{name} {key}: pooled mean {stored['mean_ns']} != {part.sum_ns / part.samples}")
        for field, pct in PERCENTILES:
            want = part.percentile(pct)
            if stored[field] != want:
                problems.append(f"{name} {key}: {field} stored {stored[field]}, recomputed {want}")
    if window_result["p99_999_latency_ns"] != both.percentile(99.999):
        problems.append(f"{name}: p99_999_latency_ns {window_result['p99_999_latency_ns']} != {both.percentile(99.999)}")
    if both.samples and window_result["max_latency_ns"] != both.max_ns:
        problems.append(f"{name}: MRT {window_result['max_latency_ns']} != the histograms' maximum {both.max_ns}")
    return problems
