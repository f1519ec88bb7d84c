#!/usr/bin/env python3
"""bench/multijob_vs_fio.py — a four-target multi-job cell against fio with four jobs on the same
devices (a benchmark, not a test; the lead runs it on a quiet host).

Sets up four loop devices (direct-io=on) over /dev/shm files, fills them, then alternates (the
first tool rotating every repetition) `ptsuite spec L1 L2 L3 L4` (one job per device, all started
together and measured over one interval) with fio-peer: one fio process, four jobs, one per
device, io_uring with fio's default completion semantics plus --fixedbufs --registerfiles
--nonvectored (the same peer options as bench/spec_vs_fio.py). The case: 4 KiB random read,
QD 32 per device. Per repetition: total IOPS, whole-process CPU per I/O (user + system of the
child from getrusage), and each device's I/Os from /proc/diskstats beside each tool's own
per-job count. Prints the medians and the ratios ptsuite / fio-peer against issue #26's targets:
IOPS ratio >= 1.0, CPU per I/O <= 1.0x. Needs root, losetup, fio. Usage:
    sudo bench/multijob_vs_fio.py BUILD/ptsuite [--seconds 5] [--reps 5] [--size-mib 512] [--qd 32]
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


def diskstats(devs):
    """Reads + writes completed (plus merged) of each device in `devs` (loop3, ...)."""
    want = {os.path.basename(d): d for d in devs}
    out = {}
    with open("/proc/diskstats") as f:
        for line in f:
            x = line.split()
            if x[2] in want:
                out[want[x[2]]] = int(x[3]) + int(x[4]) + int(x[7]) + int(x[8])
    return out


def run_child(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:  # the tool's own words first (a guard refusal names its evidence)
        sys.exit("bench: %s exited %d:\n%s" % (" ".join(cmd), p.returncode, p.stderr[-2000:]))
    out = p.stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return out, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run_ptsuite(ptsuite, loops, backings, qd, seconds):
    out, cpu = run_child([ptsuite, "spec", *loops, "--confirm", ",".join(backings), "--rw", "randread", "--bs", "4k",
                          "--oio", str(qd), "--seconds", str(seconds), "--json"])
    j = json.loads(out)
    c = j["combined"]
    ios = c["read_ios"] + c["write_ios"]
    return {"iops": c["iops"], "cpu_us_per_io": cpu / ios * 1e6, "per_job": [x["read_ios"] for x in j["jobs"]]}


def run_fio(loops, qd, seconds):
    cmd = ["fio", "--ioengine=io_uring", "--direct=1", "--rw=randread", "--bs=4k", "--iodepth=" + str(qd),
           "--time_based", "--runtime=" + str(seconds), "--norandommap", "--randrepeat=0", "--output-format=json",
           "--fixedbufs=1", "--registerfiles=1", "--nonvectored=1"]
    for i, loop in enumerate(loops):
        cmd += ["--name=job%d" % (i + 1), "--filename=" + loop]
    out, cpu = run_child(cmd)
    jobs = json.loads(out)["jobs"]
    ios = sum(j["read"]["total_ios"] for j in jobs)
    return {"iops": sum(j["read"]["iops"] for j in jobs), "cpu_us_per_io": cpu / ios * 1e6,
            "per_job": [j["read"]["total_ios"] for j in jobs]}


@contextlib.contextmanager
def loop_targets(ptsuite, count, size_mib):
    if os.geteuid() != 0:
        sys.exit("bench needs root (losetup)")
    loops, backings = [], []
    try:
        for _ in range(count):
            b = tempfile.NamedTemporaryFile(dir="/dev/shm", prefix="ptsuite-mj-", delete=False).name
            backings.append(b)
            subprocess.run(["truncate", "-s", f"{size_mib}M", b], check=True)
            loops.append(subprocess.run(["losetup", "--find", "--show", "--direct-io=on", b], check=True,
                                        capture_output=True, text=True).stdout.strip())
            subprocess.run([ptsuite, "spec", loops[-1], "--confirm", b, "--rw", "write", "--bs", "1m", "--oio", "8",
                            "--seconds", "2"], check=True, capture_output=True)  # fill: data everywhere
        yield loops, backings
    finally:
        for loop in loops:
            subprocess.run(["losetup", "-d", loop])
        for b in backings:
            os.unlink(b)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ptsuite")
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--size-mib", type=int, default=512)
    ap.add_argument("--qd", type=int, default=32)
    a = ap.parse_args()
    print("load before:", open("/proc/loadavg").read().strip())
    with loop_targets(a.ptsuite, 4, a.size_mib) as (loops, backings):
        tools = {"ptsuite": lambda: run_ptsuite(a.ptsuite, loops, backings, a.qd, a.seconds),
                 "fio-peer": lambda: run_fio(loops, a.qd, a.seconds)}
        runs = {t: [] for t in tools}
        order = list(tools)
        for rep in range(a.reps):
            for t in order[rep % 2:] + order[:rep % 2]:
                k0 = diskstats(loops)
                r = tools[t]()
                k1 = diskstats(loops)
                r["kernel"] = [k1[l] - k0[l] for l in loops]
                runs[t].append(r)
                print("rep %d %-8s IOPS %10.0f  CPU %.2f us/I/O  per job %s  kernel %s" % (
                    rep + 1, t, r["iops"], r["cpu_us_per_io"], r["per_job"], r["kernel"]))
    med = {t: {k: statistics.median(r[k] for r in rs) for k in ("iops", "cpu_us_per_io")} for t, rs in runs.items()}
    ratios = [p["iops"] / f["iops"] for p, f in zip(runs["ptsuite"], runs["fio-peer"])]
    iops_ratio = med["ptsuite"]["iops"] / med["fio-peer"]["iops"]
    cpu_ratio = med["ptsuite"]["cpu_us_per_io"] / med["fio-peer"]["cpu_us_per_io"]
    print("median: ptsuite %.0f IOPS %.2f us/I/O; fio-peer %.0f IOPS %.2f us/I/O" % (
        med["ptsuite"]["iops"], med["ptsuite"]["cpu_us_per_io"], med["fio-peer"]["iops"], med["fio-peer"]["cpu_us_per_io"]))
    print("IOPS ratio %.3f (per repetition %s; target >= 1.0: %s); CPU per I/O ratio %.3f (target <= 1.0: %s)" % (
        iops_ratio, ["%.3f" % r for r in ratios], "met" if iops_ratio >= 1.0 else "NOT met", cpu_ratio,
        "met" if cpu_ratio <= 1.0 else "NOT met"))
    print("load after:", open("/proc/loadavg").read().strip())


if __name__ == "__main__":
    main()
