#!/usr/bin/env python3
"""bench/engine_ab.py — the engine's regression guard: this build against a previous one (a benchmark, not a test).

Builds a given git revision (default: the merge base of HEAD with main, i.e. the build this
branch started from; give a release tag once there are tags) into a scratch directory (default
build-ab/ in this checkout) from
`git archive` (the repository and its worktrees are not touched; ccache makes a rebuild
cheap), then runs bench/spec_vs_fio.py's cases on one loop device with the two binaries
alternating, REPS times each, rotating which goes first. Per case it prints each build's
medians (IOPS, CPU per I/O, mean latency, the kernel's in flight and device time per request)
and the ratios new / old within each repetition (median and range): the two ran back to back
there, so the host's drift cancels. A ratio below 1 for IOPS, or above 1 for CPU per I/O or
device time, is a regression to look at (this machine is noisy: judge the median over several
runs, and note the load, printed before and after). Needs root, losetup, fio (for the host
speed line), cmake and the project's build dependencies. Usage:
    sudo bench/engine_ab.py [NEW_PTSUITE] [--rev REV] [--scratch DIR] [--seconds 3] [--reps 5] [--cases 2,3,6]
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spec_vs_fio as bench  # noqa: E402  (the cases, the loop device, the runners)

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def git(*args):
    return subprocess.run(["git", "-C", REPO, *args], check=True, capture_output=True, text=True).stdout.strip()


def build_rev(rev, scratch):
    """Builds `rev`'s ptsuite into scratch/<short hash>/build (reused if already there); returns its path."""
    full = git("rev-parse", "--verify", rev + "^{commit}")
    # The source at scratch/<hash>, built in its build/: the layout of a checkout, so a ccache
    # with base_dir above both (and hash_dir off) serves the old build from the objects of any
    # checkout that built the same sources.
    root = os.path.join(scratch, full[:12])
    binary = os.path.join(root, "build", "ptsuite")
    if os.path.exists(binary):
        return full, binary
    src = root
    os.makedirs(src, exist_ok=True)
    archive = subprocess.Popen(["git", "-C", REPO, "archive", full], stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", src], stdin=archive.stdout, check=True)
    if archive.wait() != 0:
        sys.exit(f"git archive {full} failed")
    env = dict(os.environ, CMAKE_CXX_COMPILER_LAUNCHER="ccache", CMAKE_C_COMPILER_LAUNCHER="ccache")
    nice = ["nice", "-n", "19", "ionice", "-c3"]  # a shared machine: the build yields to everyone
    subprocess.run(nice + ["cmake", "-S", src, "-B", os.path.join(root, "build"), "-DCMAKE_BUILD_TYPE=RelWithDebInfo"],
                   check=True, env=env, stdout=subprocess.DEVNULL)
    subprocess.run(nice + ["cmake", "--build", os.path.join(root, "build"), "-j", str(os.cpu_count()), "--target",
                           "ptsuite"], check=True, env=env, stdout=subprocess.DEVNULL)
    return full, binary


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("new", nargs="?", default=os.path.join(REPO, "build", "ptsuite"))
    ap.add_argument("--rev", default="", help="the previous build's git revision (default: merge base with main)")
    ap.add_argument("--scratch", default=os.path.join(REPO, "build-ab"),
                    help="where the previous build is made (default: build-ab/ in this checkout, git-ignored)")
    ap.add_argument("--seconds", type=float, default=3)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--size-mib", type=int, default=1024)
    ap.add_argument("--cases", default="", help="comma-separated case numbers of spec_vs_fio.py (1-based)")
    args = ap.parse_args()
    rev = args.rev or git("merge-base", "HEAD", "main")
    full, old = build_rev(rev, args.scratch)
    head = git("rev-parse", "--short=12", "HEAD")
    dirty = " (with uncommitted changes)" if git("status", "--porcelain", "--untracked-files=no") else ""
    chosen = [bench.CASES[int(i) - 1] for i in args.cases.split(",")] if args.cases else bench.CASES
    with bench.loop_target(args.new, args.size_mib) as (loop, backing):
        dev = os.path.basename(loop)
        load0, qd1_0 = bench.host_state(loop, args.seconds)
        print(f"new: {args.new} (HEAD {head}{dirty}); old: {old} ({full[:12]}); {loop} over {backing}; "
              f"{args.reps} alternating runs of {args.seconds:g} s each; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
        print(f"host before: load average {load0} (of {os.cpu_count()} CPUs); fio-peer 4k randread QD 1 {qd1_0:.0f} IOPS")
        print(f"{'case':22} {'build':5} {'IOPS':>8} {'cpu us/IO':>9} {'lat us':>7} {'inflight':>8} {'dev us':>7} | "
              "new / old within each repetition: median (range)")
        for name, rw, bs, threads, qd in chosen:
            tools = {t: (lambda path=path: bench.run_ptsuite(path, loop, rw, bs, threads, qd, args.seconds, backing))
                     for t, path in (("new", args.new), ("old", old))}
            runs = bench.alternate(dev, tools, args.reps)
            med = bench.medians(runs)
            for t in tools:
                m = med[t]
                print(f"{name:22} {t:5} {m['iops']:8.0f} {m['cpu_us_per_io']:9.2f} {m['lat_us']:7.1f} {m['inflight']:8.2f}"
                      f" {m['dev_us']:7.1f} |")
            parts = []
            for k, label in (("iops", "IOPS"), ("cpu_us_per_io", "cpu/IO"), ("dev_us", "dev us")):
                r = sorted(a[k] / b[k] for a, b in zip(runs["new"], runs["old"]) if b[k])
                if r:
                    parts.append(f"{label} {statistics.median(r):.2f} ({r[0]:.2f}..{r[-1]:.2f})")
            print(f"{name:22} new/old: " + "; ".join(parts))
            sys.stdout.flush()
        load1, qd1_1 = bench.host_state(loop, args.seconds)
        print(f"host after: load average {load1}; fio-peer 4k randread QD 1 {qd1_1:.0f} IOPS. IOPS wants >= 1, "
              "cpu/IO and dev us want <= 1")


if __name__ == "__main__":
    main()
