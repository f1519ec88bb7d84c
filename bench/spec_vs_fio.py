#!/usr/bin/env python3
"""bench/spec_vs_fio.py — `ptsuite spec` against fio on the same target (a benchmark, not a test).

Sets up a loop device over a /dev/shm file (`losetup --direct-io=on`), fills it, then for each
case runs ptsuite, fio with default io_uring options and fio tuned (fixedbufs, registerfiles,
nonvectored, batched submit/complete) alternately (rotating which goes first), REPS times each, and prints the median
IOPS, whole-process CPU per I/O (user + system from getrusage of the child, i.e. what
/usr/bin/time reports: fio's own usr/sys % count only its job thread), and mean latency, with
ratios ptsuite/fio. Needs root, losetup, fio. Usage:
    sudo bench/spec_vs_fio.py BUILD/ptsuite [--seconds 4] [--reps 5] [--size-mib 1024] [--cases 1,3]
The loop device has 128 tags (hw_queue_depth, read-only), so the "QD256" case runs as 2 threads x
QD 128 (256 outstanding: half wait for a tag inside the kernel) and, for comparison, as
2 threads x QD 64 (128 outstanding, the most the loop device can hold).
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile

# name, rw, bs, threads, qd
CASES = [
    ("4k randread QD1", "randread", "4k", 1, 1),
    ("4k randread QD32", "randread", "4k", 1, 32),
    ("4k randread QD256=2x128", "randread", "4k", 2, 128),
    ("4k randread QD128=2x64", "randread", "4k", 2, 64),
    ("4k randwrite QD32", "randwrite", "4k", 1, 32),
    ("128k read QD32", "read", "128k", 1, 32),
]


def run_child(cmd):
    """Runs cmd; returns (stdout, cpu seconds of the child: user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return out, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run_ptsuite(ptsuite, target, rw, bs, threads, qd, seconds, confirm):
    # --confirm: what the guard takes for a loop device (its backing file); reads ignore it
    out, cpu = run_child([ptsuite, "spec", target, "--confirm", confirm, "--rw", rw, "--bs", bs, "--threads",
                          str(threads), "--oio", str(qd), "--seconds", str(seconds), "--json"])
    j = json.loads(out)
    ios = j["read_ios"] + j["write_ios"]
    return {"iops": j["iops"], "cpu_us_per_io": cpu / ios * 1e6, "lat_us": j["lat_us"]["mean"]}


def fio_cmd(target, rw, bs, threads, qd, seconds, tuned):
    cmd = ["fio", "--name=bench", "--filename=" + target, "--ioengine=io_uring", "--direct=1", "--rw=" + rw,
           "--bs=" + bs, "--numjobs=" + str(threads), "--iodepth=" + str(qd), "--time_based",
           "--runtime=" + str(seconds), "--norandommap", "--randrepeat=0", "--group_reporting",
           "--output-format=json"]
    if tuned:
        batch = str(min(16, qd))
        cmd += ["--fixedbufs=1", "--registerfiles=1", "--nonvectored=1", "--iodepth_batch_submit=" + batch,
                "--iodepth_batch_complete_min=" + batch, "--iodepth_batch_complete_max=" + batch]
    return cmd


def run_fio(target, rw, bs, threads, qd, seconds, tuned):
    out, cpu = run_child(fio_cmd(target, rw, bs, threads, qd, seconds, tuned))
    job = json.loads(out)["jobs"][0]
    ios = job["read"]["total_ios"] + job["write"]["total_ios"]
    iops = job["read"]["iops"] + job["write"]["iops"]
    lat = job["read"] if job["read"]["total_ios"] else job["write"]
    return {"iops": iops, "cpu_us_per_io": cpu / ios * 1e6, "lat_us": lat["lat_ns"]["mean"] / 1000.0}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ptsuite")
    ap.add_argument("--seconds", type=float, default=4)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--size-mib", type=int, default=1024)
    ap.add_argument("--cases", default="", help="comma-separated case numbers (1-based); default all")
    args = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("bench needs root (losetup)")
    backing = tempfile.NamedTemporaryFile(dir="/dev/shm", prefix="ptsuite-bench-", delete=False).name
    loop = None
    try:
        subprocess.run(["truncate", "-s", f"{args.size_mib}M", backing], check=True)
        loop = subprocess.run(["losetup", "--find", "--show", "--direct-io=on", backing], check=True,
                              capture_output=True, text=True).stdout.strip()
        subprocess.run([args.ptsuite, "spec", loop, "--confirm", backing, "--rw", "write", "--bs", "1m", "--oio", "8",
                        "--seconds", "3"], check=True, capture_output=True)  # fill: random data everywhere
        print(f"target {loop} (loop, direct-io=on) over {backing}, {args.size_mib} MiB; "
              f"{args.reps} alternating runs of {args.seconds:g} s per tool; cpu = child user+sys / I/Os")
        chosen = [CASES[int(i) - 1] for i in args.cases.split(",")] if args.cases else CASES
        header = (f"{'case':26} {'tool':10} {'IOPS':>9} {'(min..max)':>17} {'cpu us/IO':>9} {'lat us':>8}"
                  f" | {'IOPS ratio':>10} {'cpu ratio':>9} {'lat ratio':>9}")
        print(header)
        print("-" * len(header))
        for name, rw, bs, threads, qd in chosen:
            runs = {"ptsuite": [], "fio": [], "fio-tuned": []}
            tools = {
                "ptsuite": lambda: run_ptsuite(args.ptsuite, loop, rw, bs, threads, qd, args.seconds, backing),
                "fio": lambda: run_fio(loop, rw, bs, threads, qd, args.seconds, tuned=False),
                "fio-tuned": lambda: run_fio(loop, rw, bs, threads, qd, args.seconds, tuned=True),
            }
            order = list(tools)
            for rep in range(args.reps):  # alternate, rotating which tool goes first
                for tool in order[rep % 3:] + order[:rep % 3]:
                    runs[tool].append(tools[tool]())
            med = {tool: {k: statistics.median(r[k] for r in rs) for k in ("iops", "cpu_us_per_io", "lat_us")}
                   for tool, rs in runs.items()}
            p = med["ptsuite"]
            for tool in ("ptsuite", "fio", "fio-tuned"):
                m = med[tool]
                ratios = ""
                if tool != "ptsuite":
                    ratios = (f"{p['iops'] / m['iops']:10.3f} {p['cpu_us_per_io'] / m['cpu_us_per_io']:9.3f}"
                              f" {p['lat_us'] / m['lat_us']:9.3f}")
                spread = f"({min(r['iops'] for r in runs[tool]):.0f}..{max(r['iops'] for r in runs[tool]):.0f})"
                print(f"{name:26} {tool:10} {m['iops']:9.0f} {spread:>17} {m['cpu_us_per_io']:9.2f} {m['lat_us']:8.1f}"
                      f" | {ratios}")
            sys.stdout.flush()
        print("ratios are ptsuite / that tool: IOPS want >= 1, cpu per I/O and latency want <= 1")
    finally:
        if loop:
            subprocess.run(["losetup", "-d", loop])
        os.unlink(backing)


if __name__ == "__main__":
    main()
