#!/usr/bin/env python3
"""bench/sim_ab.py — two ptsuite builds on the same simulated drive, alternating in one run:
the results must be the same bit for bit (a speed change must not change what the model
computes), and the simulator's CPU per host write of each is printed side by side (a ratio
measured in the same run, so it holds on a loaded machine).

usage: sim_ab.py PTSUITE_A PTSUITE_B [--target PROFILE] [--fills F] [--from STATE] [--repeat N]
                 [-- SPEC ARGS...]
  --target   the drive (default dc-tlc-2t,capacity=256GiB: dc-tlc-2t's 64 dies, an eighth
             of its capacity)
  --fills    drive capacities written by the cell (default 0.25)
  --from     start from a copy of this state file (e.g. a drive at steady state) instead of FOB
  --repeat   A/B pairs (default 2)
  --ignore   comma-separated result fields to leave out of the comparison as well (a field
             one build adds or changes on purpose, e.g. completion)
  SPEC ARGS  the cell (default: --rw randwrite --bs 4k --threads 4 --oio 32 --seed 9)
Every result field but the simulator's own CPU and wall time is compared. Exit 1 when the
results differ. State copies go to a private directory under /var/tmp (removed at the end).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

# Fields that measure the simulator (real CPU and wall time), not the drive.
VOLATILE = {"cpu", "sim_cpu_seconds", "sim_wall_seconds", "path"}


def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if k not in VOLATILE}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o


def run(ptsuite, target, state, args, confirm):
    cmd = [ptsuite, "spec", f"sim:{target}@{state}", "--json", *args]
    if confirm:
        info = subprocess.run([ptsuite, "info", f"sim:{target}@{state}", "--json"], capture_output=True,
                              text=True, check=True)
        cmd += ["--confirm", json.loads(info.stdout)["serial"]]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()}")
    return json.loads(p.stdout)


def main():
    argv = sys.argv[1:]
    spec_args = ["--rw", "randwrite", "--bs", "4k", "--threads", "4", "--oio", "32", "--seed", "9"]
    if "--" in argv:
        spec_args = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    if len(argv) < 2:
        sys.exit(__doc__)
    builds = [os.path.abspath(argv[0]), os.path.abspath(argv[1])]
    opt = dict(zip(argv[2::2], argv[3::2]))
    target = opt.get("--target", "dc-tlc-2t,capacity=256GiB")
    fills = float(opt.get("--fills", "0.25"))
    start = opt.get("--from")
    repeat = int(opt.get("--repeat", "2"))
    VOLATILE.update(f for f in opt.get("--ignore", "").split(",") if f)
    work = tempfile.mkdtemp(prefix="ptsuite-sim-ab.", dir="/var/tmp")
    info = subprocess.run([builds[0], "info", f"sim:{target}@{work}/none.simdrive", "--json"],
                          capture_output=True, text=True, check=True)
    cap = json.loads(info.stdout)["capacity_bytes"]
    if "--bytes" not in spec_args and "--seconds" not in spec_args:
        spec_args += ["--bytes", str(int(fills * cap) // 4096 * 4096)]
    try:
        results = {0: [], 1: []}
        for i in range(repeat):
            for b in (0, 1) if i % 2 == 0 else (1, 0):
                state = os.path.join(work, f"{b}.simdrive")
                if start:
                    shutil.copyfile(start, state)
                elif os.path.exists(state):
                    os.remove(state)
                results[b].append(run(builds[b], target, state, spec_args, confirm=bool(start)))
        same = all(strip(r) == strip(results[0][0]) for b in (0, 1) for r in results[b])
        print(f"sim:{target}, {' '.join(spec_args)}, from {'a copy of ' + start if start else 'FOB'}, "
              f"{repeat} A/B pairs")
        for b in (0, 1):
            ns = [1e9 * r["simulated"]["sim_cpu_seconds"] / max(1, r["simulated"]["host_pages_written"])
                  for r in results[b]]
            s = results[b][0]["simulated"]
            print(f"  {'AB'[b]} {builds[b]}: {' '.join(f'{x:.0f}' for x in ns)} ns of CPU per host write "
                  f"(best {min(ns):.0f}); {s['host_pages_written']} host pages, {s['gc_pages_copied']} GC copies, "
                  f"WA {s['write_amplification']:.3f}")
        best = [min(1e9 * r["simulated"]["sim_cpu_seconds"] / max(1, r["simulated"]["host_pages_written"])
                    for r in results[b]) for b in (0, 1)]
        print(f"  B/A CPU per host write: {best[1] / best[0]:.2f} (best of each)")
        print(f"  results {'identical bit for bit' if same else 'DIFFER'} (all fields but the simulator's CPU and wall time)")
        return 0 if same else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
