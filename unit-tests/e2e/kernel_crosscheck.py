#!/usr/bin/env python3
"""unit-tests/e2e/kernel_crosscheck.py RUNDIR — audits run.json's kernel cross-check with its own
arithmetic (not ptsuite's): every cell of every Round, and WIPC, of a run on a block device
holds the kernel's counters; the engine's I/O count (read_ios + write_ios) and the kernel's
(host_ios: completed requests + merges, as the host issued them) differ by at most 1 %, and
so do the bytes; the kernel's average in flight is recomputed from weighted_ms / wall; no
cell carries the "io-count" fidelity flag; and the "in-flight" flag is recomputed from the
record: a cell of at least 0.5 s, unpaced, is flagged exactly when the kernel's average in
flight is below 0.9 x TC x QD x (kernel requests / host I/Os: the block layer merges sequential
I/Os), capped at the device's in_flight_limit; a shorter one lists the depth checks it was
not judged on in fidelity_not_judged instead. Prints one line per sub-test; exit 1 on a failure.
"""
import json
import os
import sys

MIN_JUDGED_SECONDS = 0.5  # docs/run-record.md: shorter cells are not judged on depth
DEPTH_FLOOR = 0.9


def expected_in_flight(c, k):
    """The kernel's average in flight a held cell reaches, in requests."""
    want = c["spec"]["threads"] * c["spec"]["queue_depth"]
    requests = k["read_ios"] + k["write_ios"]
    if k["host_ios"] > requests > 0:
        want = want * requests / k["host_ios"]
    if k["in_flight_limit"] and want > k["in_flight_limit"]:
        want = k["in_flight_limit"]
    return want


def main():
    run = json.load(open(os.path.join(sys.argv[1], "run.json")))
    problems, cells = [], 0
    worst = 0.0
    for si, st in enumerate(run["subtests"]):
        results = [(f"round {r['round']}", c) for r in st["rounds"] for c in r["cells"]]
        if st.get("wipc") and st["wipc"].get("result"):
            results.append(("WIPC", st["wipc"]["result"]))
        if not results:
            problems.append(f"sub-test {si}: no cells")
        for where, c in results:
            name = f"sub-test {si} {where} {c['cell_id']}"
            k = c.get("kernel")
            if not k:
                problems.append(f"{name}: no kernel counters")
                continue
            cells += 1
            engine_ios = c["read_ios"] + c["write_ios"]
            engine_bytes = c["read_bytes"] + c["write_bytes"]
            kernel_bytes = k["read_bytes"] + k["write_bytes"]
            if engine_ios == 0:
                problems.append(f"{name}: the engine did no I/O")
                continue
            d_ios = abs(k["host_ios"] - engine_ios) / engine_ios
            d_bytes = abs(kernel_bytes - engine_bytes) / engine_bytes
            worst = max(worst, d_ios)
            if d_ios > 0.01:
                problems.append(f"{name}: engine {engine_ios} I/Os, kernel {k['host_ios']} ({d_ios:.2%} apart)")
            if d_bytes > 0.01:
                problems.append(f"{name}: engine {engine_bytes} B, kernel {kernel_bytes} B ({d_bytes:.2%} apart)")
            if k["host_ios"] != k["read_ios"] + k["write_ios"] + k["read_merges"] + k["write_merges"]:
                problems.append(f"{name}: kernel host_ios is not requests + merges")
            if k["wall_ns"] > 0:
                inflight = k["weighted_ms"] * 1e6 / k["wall_ns"]
                if abs(inflight - k["avg_in_flight"]) > 1e-6 * max(1.0, inflight):
                    problems.append(f"{name}: avg_in_flight {k['avg_in_flight']} is not weighted/wall {inflight}")
            if "io-count" in c.get("fidelity_flags", []):
                problems.append(f"{name}: flagged io-count")
            paced = c["spec"].get("rate_iops", 0) > 0
            judged = not paced and c["seconds"] >= MIN_JUDGED_SECONDS
            short = not paced and not judged
            if short != ("in-flight" in c.get("fidelity_not_judged", [])):
                problems.append(f"{name}: {c['seconds']:.3f} s cell, fidelity_not_judged {c.get('fidelity_not_judged')}")
            if judged:
                low = k["avg_in_flight"] < DEPTH_FLOOR * expected_in_flight(c, k)
                if low != ("in-flight" in c.get("fidelity_flags", [])):
                    problems.append(f"{name}: in flight {k['avg_in_flight']:.2f} of {expected_in_flight(c, k):.2f}"
                                    f" but flags {c.get('fidelity_flags')}")
        print(f"sub-test {si}: {len(results)} results checked")
    print(f"{cells} cells with kernel counters; worst engine/kernel I/O count difference {worst:.3%}")
    for p in problems[:40]:
        print("FAIL:", p)
    sys.exit(1 if problems or cells == 0 else 0)


if __name__ == "__main__":
    main()
