#!/usr/bin/env python3
"""bench/spec_vs_fio.py — `ptsuite spec` against fio on the same target (a benchmark, not a test).

Sets up a loop device over a /dev/shm file (`losetup --direct-io=on`), fills it, then for each
case runs ptsuite, fio-peer (io_uring with fio's default completion semantics plus --fixedbufs
--registerfiles --nonvectored: the fair peer, issue #9) and default fio alternately (rotating
which goes first; at TC x QD <= 4 also ptsuite with --poll-budget 1000 (always polling), and with
--poll-budget 0 (always sleeping), beside its auto budget, which on a loop device measures both
before each cell and takes the faster), REPS times each, and prints the median of: IOPS, whole-process CPU per I/O
(user + system from getrusage of the child, i.e. what /usr/bin/time reports: fio's own usr/sys
% count only its job thread), mean latency, and from the kernel's /proc/diskstats over the
run: the average requests in flight while busy (delta weighted time / delta io_ticks, so
neither tool's start-up counts) and the mean device time per
I/O (delta read+write ticks / delta I/Os). Ratios are ptsuite / fio-peer; per case a line also gives
the median and range of the IOPS ratios within each repetition (the tools ran back to back
there, so the machine's drift between repetitions cancels). The host's state is printed before
and after (the machine is shared): the load average, the share of CPU time that niced
processes (other users' builds) took over the run, and fio-peer's own 4k randread QD 1 IOPS as
the host's speed. The summary at the end states each case against issue #28's targets, each
ratio taken within a repetition (the tools ran back to back there) and the median over the
repetitions given with its range: IOPS >= 0.97, CPU per I/O <= 1.0x at QD >= 8, device time
per request within 10 % of fio-peer's (ptsuite / fio-peer <= 1.10). Device time per request
grows with the requests in flight at the same throughput (Little's law), and the engine holds
the queue depth it is given while fio-peer lets it drain at QD 128: where ptsuite held more in
flight, the device time is judged at equal in flight (the ratio divided by the in-flight
ratio; both are printed), never where it held fewer. Needs root, losetup, fio. Usage:
    sudo bench/spec_vs_fio.py BUILD/ptsuite [--seconds 3] [--reps 3] [--size-mib 1024] [--cases 1,3]
                              [--also NAME=OTHER/ptsuite ...] [--runs 3 --every 60]
--also adds another ptsuite build to the rotation (an A/B comparison of two engines in one run).
--runs N repeats the whole bench N times, each run starting --every minutes after the one before
(a host's speed drifts over the hours: one run is not a result), then prints each case's range
over the runs and how many runs met every target; it exits 1 unless every run did.
The loop device has 128 tags, so no case exceeds 128 outstanding I/Os per device.
"""
import argparse
import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

# name, rw, bs, threads, qd
CASES = [
    ("4k randread QD1", "randread", "4k", 1, 1),
    ("4k randread QD8", "randread", "4k", 1, 8),
    ("4k randread QD32", "randread", "4k", 1, 32),
    ("4k randread QD128", "randread", "4k", 1, 128),
    ("4k randread TC4xQD32", "randread", "4k", 4, 32),
    ("4k randwrite QD32", "randwrite", "4k", 1, 32),
]
METRICS = ("iops", "cpu_us_per_io", "lat_us", "inflight", "dev_us")


def diskstats(dev):
    """(I/Os read+written, read+write ticks ms, weighted time in queue ms, busy ms) of `dev` (e.g. loop3)."""
    with open("/proc/diskstats") as f:
        for line in f:
            x = line.split()
            if x[2] == dev:
                return int(x[3]) + int(x[7]), int(x[6]) + int(x[10]), int(x[13]), int(x[12])
    raise SystemExit(f"{dev} not in /proc/diskstats")


def with_kernel(dev, fn):
    """Runs fn(); adds the kernel's average in flight (over the time the device was busy, so
    neither tool's start-up counts) and mean device time over its run."""
    k0 = diskstats(dev)
    r = fn()
    k1 = diskstats(dev)
    ios, busy_ms = k1[0] - k0[0], k1[3] - k0[3]
    r["inflight"] = (k1[2] - k0[2]) / busy_ms if busy_ms else 0.0
    r["dev_us"] = (k1[1] - k0[1]) * 1000.0 / ios if ios else 0.0
    return r


def cpu_ticks():
    """(nice ticks, all ticks) from /proc/stat: niced processes' share of the machine."""
    x = [int(v) for v in open("/proc/stat").readline().split()[1:9]]
    return x[1], sum(x)


def host_state(target, seconds):
    """The load average and fio-peer's own 4k randread QD 1 IOPS on the target (the host's speed)."""
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    qd1 = run_fio(target, "randread", "4k", 1, 1, seconds, peer=True)["iops"]
    return load, qd1


def alternate(dev, tools, reps):
    """Runs each of `tools` (name -> fn) `reps` times, rotating which goes first, each under
    with_kernel(dev); returns name -> list of results in repetition order."""
    runs = {t: [] for t in tools}
    order = list(tools)
    for rep in range(reps):
        for tool in order[rep % len(order):] + order[:rep % len(order)]:
            runs[tool].append(with_kernel(dev, tools[tool]))
    return runs


def medians(runs):
    return {tool: {k: statistics.median(r[k] for r in rs) for k in METRICS} for tool, rs in runs.items()}


def run_child(cmd):
    """Runs cmd; returns (stdout, cpu seconds of the child: user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return out, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run_ptsuite(ptsuite, target, rw, bs, threads, qd, seconds, confirm, extra=()):
    # --confirm: what the guard takes for a loop device (its backing file); reads ignore it
    out, cpu = run_child([ptsuite, "spec", target, "--confirm", confirm, "--rw", rw, "--bs", bs, "--threads",
                          str(threads), "--oio", str(qd), "--seconds", str(seconds), "--json", *extra])
    j = json.loads(out)
    ios = j["read_ios"] + j["write_ios"]
    c = j["completion"]
    return {"iops": j["iops"], "cpu_us_per_io": cpu / ios * 1e6, "lat_us": j["lat_us"]["mean"],
            "polled": j["completion_poll_ns"] > 0, "probe": (c["probe_sleep_ns"], c["probe_poll_ns"])}


def fio_cmd(target, rw, bs, threads, qd, seconds, peer):
    cmd = ["fio", "--name=bench", "--filename=" + target, "--ioengine=io_uring", "--direct=1", "--rw=" + rw,
           "--bs=" + bs, "--numjobs=" + str(threads), "--iodepth=" + str(qd), "--time_based",
           "--runtime=" + str(seconds), "--norandommap", "--randrepeat=0", "--group_reporting",
           "--output-format=json"]
    if peer:  # fio's default completion semantics (wait for 1, refill) + registered file/buffers
        cmd += ["--fixedbufs=1", "--registerfiles=1", "--nonvectored=1"]
    return cmd


def run_fio(target, rw, bs, threads, qd, seconds, peer):
    out, cpu = run_child(fio_cmd(target, rw, bs, threads, qd, seconds, peer))
    job = json.loads(out)["jobs"][0]
    ios = job["read"]["total_ios"] + job["write"]["total_ios"]
    iops = job["read"]["iops"] + job["write"]["iops"]
    lat = job["read"] if job["read"]["total_ios"] else job["write"]
    return {"iops": iops, "cpu_us_per_io": cpu / ios * 1e6, "lat_us": lat["lat_ns"]["mean"] / 1000.0}


@contextlib.contextmanager
def loop_target(ptsuite, size_mib):
    """A loop device (direct-io=on) over a fresh /dev/shm file, filled with random data through
    `ptsuite`; yields (device, backing file), detaches and removes both afterwards."""
    if os.geteuid() != 0:
        sys.exit("bench needs root (losetup)")
    backing = tempfile.NamedTemporaryFile(dir="/dev/shm", prefix="ptsuite-bench-", delete=False).name
    loop = None
    try:
        subprocess.run(["truncate", "-s", f"{size_mib}M", backing], check=True)
        loop = subprocess.run(["losetup", "--find", "--show", "--direct-io=on", backing], check=True,
                              capture_output=True, text=True).stdout.strip()
        subprocess.run([ptsuite, "spec", loop, "--confirm", backing, "--rw", "write", "--bs", "1m", "--oio", "8",
                        "--seconds", "3"], check=True, capture_output=True)  # fill: random data everywhere
        yield loop, backing
    finally:
        if loop:
            subprocess.run(["losetup", "-d", loop])
        os.unlink(backing)


def bench_once(args):
    """One run of every chosen case; prints its tables and returns its summary rows
    (case, IOPS x, CPU x, device x at equal in flight, meets)."""
    rows = []
    with loop_target(args.ptsuite, args.size_mib) as (loop, backing):
        dev = os.path.basename(loop)
        started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        load0, qd1_0 = host_state(loop, args.seconds)
        nice0 = cpu_ticks()
        print(f"target {loop} (loop, direct-io=on) over {backing}, {args.size_mib} MiB; {args.reps} alternating "
              f"runs of {args.seconds:g} s per tool; started {started}")
        print(f"host before: load average {load0} (of {os.cpu_count()} CPUs); fio-peer 4k randread QD 1 "
              f"{qd1_0:.0f} IOPS")
        print("cpu = child user+sys / I/Os; inflight, dev us = /proc/diskstats (weighted time / io_ticks, ticks / I/Os)")
        chosen = [CASES[int(i) - 1] for i in args.cases.split(",")] if args.cases else CASES
        header = (f"{'case':22} {'tool':10} {'IOPS':>8} {'(min..max)':>15} {'cpu us/IO':>9} {'lat us':>7}"
                  f" {'inflight':>8} {'dev us':>6} | {'IOPS x':>6} {'cpu x':>6} {'lat x':>6} {'infl x':>6}")
        print(header)
        print("-" * len(header))
        summary = []
        for name, rw, bs, threads, qd in chosen:
            tools = {
                "ptsuite": lambda: run_ptsuite(args.ptsuite, loop, rw, bs, threads, qd, args.seconds, backing),
                "fio-peer": lambda: run_fio(loop, rw, bs, threads, qd, args.seconds, peer=True),
                "fio": lambda: run_fio(loop, rw, bs, threads, qd, args.seconds, peer=False),
            }
            for also in args.also:
                label, path = also.split("=", 1)
                tools[label] = (lambda path=path: run_ptsuite(path, loop, rw, bs, threads, qd, args.seconds, backing))
            if threads * qd <= 4:  # low depth: the auto budget probes on a loop device; show each way
                tools["pts-poll"] = lambda: run_ptsuite(args.ptsuite, loop, rw, bs, threads, qd, args.seconds,
                                                        backing, ("--poll-budget", "1000"))
                tools["pts-sleep"] = lambda: run_ptsuite(args.ptsuite, loop, rw, bs, threads, qd, args.seconds,
                                                         backing, ("--poll-budget", "0"))
            runs = alternate(dev, tools, args.reps)
            order = list(tools)
            med = medians(runs)
            p = med["ptsuite"]
            # Per repetition the tools ran back to back: the ratio within a repetition cancels the
            # machine's drift between repetitions (the tools' medians above come from different
            # minutes). Printed as the median of those ratios and their range.
            pairs = {tool: sorted(a["iops"] / b["iops"] for a, b in zip(runs["ptsuite"], runs[tool]))
                     for tool in order if tool.startswith("fio")}
            for tool in order:
                m = med[tool]
                ratios = ""
                if tool.startswith("fio"):
                    ratios = (f"{p['iops'] / m['iops']:6.2f} {p['cpu_us_per_io'] / m['cpu_us_per_io']:6.2f}"
                              f" {p['lat_us'] / m['lat_us']:6.2f} {p['inflight'] / m['inflight']:6.2f}")
                spread = f"({min(r['iops'] for r in runs[tool]):.0f}..{max(r['iops'] for r in runs[tool]):.0f})"
                print(f"{name:22} {tool:10} {m['iops']:8.0f} {spread:>15} {m['cpu_us_per_io']:9.2f} {m['lat_us']:7.1f}"
                      f" {m['inflight']:8.2f} {m['dev_us']:6.1f} | {ratios}")
            peer = med["fio-peer"]

            def within(key):  # ptsuite / fio-peer per repetition, sorted
                return sorted(a[key] / b[key] for a, b in zip(runs["ptsuite"], runs["fio-peer"]) if b[key])

            summary.append((name, threads * qd, pairs["fio-peer"], within("cpu_us_per_io"), within("dev_us"),
                            within("inflight"), p["inflight"], peer["inflight"]))
            print(f"{name:22} IOPS ratio within each repetition (median, range): " + "; ".join(
                f"vs {tool} {statistics.median(r):.2f} ({r[0]:.2f}..{r[-1]:.2f})" for tool, r in pairs.items()))
            probes = [r for r in runs["ptsuite"] if r["probe"][0]]
            if probes:  # the auto budget's choice on this loop device, run by run
                print(f"{name:22} ptsuite's auto budget polled in {sum(r['polled'] for r in probes)} of {len(probes)} "
                      "runs; its probe's mean read, sleeping/polling, us: " +
                      ", ".join(f"{r['probe'][0] / 1e3:.1f}/{r['probe'][1] / 1e3:.1f}" for r in probes))
            sys.stdout.flush()
        nice1 = cpu_ticks()
        load1, qd1_1 = host_state(loop, args.seconds)
        nice_share = (nice1[0] - nice0[0]) / max(1, nice1[1] - nice0[1])
        print(f"host after: load average {load1}; fio-peer 4k randread QD 1 {qd1_1:.0f} IOPS; niced processes "
              f"(others' builds) took {100 * nice_share:.0f} % of all CPU time during the cases")
        print("ratios are ptsuite / that tool: IOPS and in flight want >= 1, cpu per I/O and latency want <= 1")
        print()
        print(f"summary ({started}; load {load0} -> {load1}; fio-peer QD 1 {qd1_0 / 1e3:.1f}k -> {qd1_1 / 1e3:.1f}k "
              f"IOPS; niced CPU {100 * nice_share:.0f} %), ptsuite / fio-peer within each repetition, median "
              "(range); targets IOPS >= 0.97, CPU <= 1.0 at QD >= 8, device us <= 1.10 (at equal in flight "
              "where ptsuite held more):")
        print("| case | IOPS x | CPU/IO x | device us x | in flight x (pts vs peer) | device us x at equal in flight "
              "| meets |")
        print("|---|---|---|---|---|---|---|")

        def cell(r):
            return f"{statistics.median(r):.2f} ({r[0]:.2f}..{r[-1]:.2f})" if r else "-"

        for name, oio, iops_r, cpu_r, dev_r, infl_r, infl_p, infl_f in summary:
            iops_x, cpu_x = statistics.median(iops_r), statistics.median(cpu_r)
            dev_x = statistics.median(dev_r) if dev_r else 0.0
            infl_x = statistics.median(infl_r) if infl_r else 1.0
            dev_eq = dev_x / max(1.0, infl_x)  # divided only where ptsuite held more in flight
            ok = iops_x >= 0.97 and (oio < 8 or cpu_x <= 1.0) and dev_eq <= 1.10
            print(f"| {name} | {cell(iops_r)} | {cell(cpu_r)} | {cell(dev_r)} | {cell(infl_r)} ({infl_p:.1f} vs "
                  f"{infl_f:.1f}) | {dev_eq:.2f} | {'yes' if ok else 'NO'} |")
            rows.append((name, iops_x, cpu_x, dev_eq, ok))
        sys.stdout.flush()
    return started, rows


def print_ranges(results):
    """Over several runs: each case's range of the runs' medians and the runs that met every target."""
    print()
    print(f"ranges over {len(results)} runs ({', '.join(started for started, _ in results)}), each run's "
          "within-repetition median, ptsuite / fio-peer:")
    print("| case | IOPS x | CPU/IO x | device us x at equal in flight | runs meeting |")
    print("|---|---|---|---|---|")
    for i, first in enumerate(results[0][1]):
        name, col = first[0], [rows[i] for _, rows in results]
        span = lambda k: f"{min(r[k] for r in col):.2f}–{max(r[k] for r in col):.2f}"
        print(f"| {name} | {span(1)} | {span(2)} | {span(3)} | {sum(r[4] for r in col)} of {len(col)} |")
    every = sum(all(r[4] for r in rows) for _, rows in results)
    print(f"every case met in {every} of {len(results)} runs")
    return every == len(results)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ptsuite")
    ap.add_argument("--seconds", type=float, default=3)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--size-mib", type=int, default=1024)
    ap.add_argument("--cases", default="", help="comma-separated case numbers (1-based); default all")
    ap.add_argument("--also", action="append", default=[], metavar="NAME=PTSUITE",
                    help="another ptsuite binary to alternate with (A/B of two builds)")
    ap.add_argument("--runs", type=int, default=1, help="whole runs of the bench (default 1)")
    ap.add_argument("--every", type=float, default=60, metavar="MINUTES",
                    help="with --runs: each run starts this long after the previous one started (default 60)")
    args = ap.parse_args()
    if args.runs < 1 or args.every < 0:
        ap.error("--runs takes 1 or more, --every 0 or more minutes")  # exit 2
    results = []
    for run in range(args.runs):
        if run:
            wait = t_start + 60 * args.every - time.monotonic()
            if wait > 0:
                print(f"\nnext run in {wait / 60:.1f} min", flush=True)
                time.sleep(wait)
            print()
        t_start = time.monotonic()
        results.append(bench_once(args))
    if args.runs > 1:
        sys.exit(0 if print_ranges(results) else 1)


if __name__ == "__main__":
    main()
