#!/usr/bin/env python3
"""bench/sim_bench.py — the simulated drive's benches, through `ptsuite spec --json` (and `run iops`
for the demo: the same paths a user takes), each printing its measured figures beside the target.

usage: sim_bench.py PTSUITE wa [--capacity 16GiB]     WA vs the closed form (greedy, 4 KiB random)
       sim_bench.py PTSUITE calibration [--fills 6]   dc-tlc-2t vs the published figures (on a
                                                       1/16 scale model that keeps its parallelism)
       sim_bench.py PTSUITE qos                       4 KiB random read mean/99 %/99.99 % at QD 1, no
                                                       writes and under a 70/30 mix, with and without
                                                       read priority (suspend), dc-tlc-2t at 1/16; then
                                                       idle-time against foreground GC (BUILD/unit-tests/
                                                       test_sim, the test that measures it)
       sim_bench.py PTSUITE speed [--fills 4] [--no-demo]  the full-length IOPS test on sim:demo,
                                                       then 4 drive fills of 4 KiB random writes on
                                                       dc-tlc-2t: wall time, memory (/usr/bin/time),
                                                       ns per host write, WA, and the machine's
                                                       random-access floor under that time
                                                       (BUILD/bench/random_access_floor)
State files go to a private directory under /var/tmp (removed at the end). Exit 1 when a
figure misses its target (the tables say by how much).
"""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

PTSUITE = None
WORK = None


def closed_form_wa(rho):
    """WA = 1/(1-u), u = exp(-(1+rho)(1-u)): greedy GC, uniform random writes, many blocks."""
    u = 0.5
    for _ in range(100000):
        u = math.exp(-(1 + rho) * (1 - u))
    return 1 / (1 - u)


def spec(target, *args, timed=False):
    """One `ptsuite spec --json`; with timed, also /usr/bin/time's wall seconds and max RSS."""
    cmd = [PTSUITE, "spec", target, "--json", *args]
    if timed:
        cmd = ["/usr/bin/time", "-f", "TIME %e %M %U %S", *cmd]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"spec {target} {' '.join(args)} failed ({p.returncode}): {p.stderr.strip()}")
    out = json.loads(p.stdout)
    if timed:
        line = [l for l in p.stderr.splitlines() if l.startswith("TIME ")][-1].split()
        out["_wall_s"], out["_rss_kib"] = float(line[1]), int(line[2])
        out["_cpu_s"] = float(line[3]) + float(line[4])
    return out


def serial_of(target):
    p = subprocess.run([PTSUITE, "info", target, "--json"], capture_output=True, text=True, check=True)
    return json.loads(p.stdout)["serial"]


def within(got, want, tol):
    return abs(got - want) <= tol * want


def bench_wa(args):
    cap = args[args.index("--capacity") + 1] if "--capacity" in args else "16GiB"
    print(f"WA of uniform random 4 KiB writes, greedy GC, sim:tiny,capacity={cap} (768 pages per block),")
    print("after 6 drive fills from FOB (at rho 0.07 the WA still rises after 4), measured over the next 2")
    print("(NAND page writes / host page writes)")
    print(f"{'rho':>6} {'closed form':>12} {'simulated':>10} {'error':>8} {'target':>8}  verdict")
    ok = True
    for rho, tol in ((0.07, 0.10), (0.28, 0.05), (0.5, 0.05)):
        t = f"sim:tiny,capacity={cap},op={rho}@{WORK}/wa-{rho}.simdrive"
        spec(t, "--rw", "randwrite", "--bs", "4k", "--threads", "4", "--oio", "32", "--seed", "1",
             "--bytes", str(6 * parse_size(cap)))
        r = spec(t, "--confirm", serial_of(t), "--rw", "randwrite", "--bs", "4k", "--threads", "4", "--oio", "32",
                 "--seed", "2", "--bytes", str(2 * parse_size(cap)))
        wa = r["simulated"]["write_amplification"]
        cf = closed_form_wa(rho)
        good = within(wa, cf, tol)
        ok = ok and good
        ns = 1e9 * r["simulated"]["sim_cpu_seconds"] / r["simulated"]["host_pages_written"]
        print(f"{rho:>6} {cf:>12.3f} {wa:>10.3f} {100 * (wa - cf) / cf:>+7.1f}% {'±%d%%' % (tol * 100):>8}  "
              f"{'ok' if good else 'MISSED'}   ({ns:.0f} ns of simulator CPU per host write at steady state)")
    # A capacity override keeps its spare (issue 24): demo's blocks shrink with the capacity,
    # and the WA follows the closed form at the spare `info` reports after the GC reserve.
    t = f"sim:demo,capacity=4GiB,op=7%@{WORK}/wa-demo4g.simdrive"
    info = json.loads(subprocess.run([PTSUITE, "info", t, "--json"], capture_output=True, text=True, check=True).stdout)
    rho = info["spare_after_reserve"]
    spec(t, "--rw", "randwrite", "--bs", "4k", "--threads", "4", "--oio", "32", "--seed", "1", "--bytes", str(6 * 4 << 30))
    r = spec(t, "--confirm", serial_of(t), "--rw", "randwrite", "--bs", "4k", "--threads", "4", "--oio", "32",
             "--seed", "2", "--bytes", str(2 * 4 << 30))
    wa, cf = r["simulated"]["write_amplification"], closed_form_wa(rho)
    good = within(wa, cf, 0.05)
    print(f"sim:demo,capacity=4GiB,op=7% ({info['superblocks']} superblocks of {info['pages_per_superblock']} pages; "
          f"spare after the reserve {rho:.4f}): closed form {cf:.3f}, simulated {wa:.3f}, "
          f"{100 * (wa - cf) / cf:+.1f}% (target ±5%): {'ok' if good else 'MISSED'}")
    return ok and good


def parse_size(text):
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
    t = text.lower().replace("ib", "").replace("b", "")
    return int(float(t[:-1]) * units[t[-1]]) if t[-1] in units else int(t)


FULL_CAP_BYTES = 2000398934016  # dc-tlc-2t: IDEMA LBA1-03 count for 2000 GB
SCALE = 16  # the calibration drive: 1/16 of the capacity and of the superblock


def scaled_target(path):
    """dc-tlc-2t at 1/SCALE of its capacity with blocks 1/SCALE as tall (768 -> 48 pages), so
    it keeps every die, channel, plane and program unit (the parallelism), the number of
    superblocks and so the spare actually built (whole superblocks) and the share of it the GC
    reserve (gc_free superblocks) and the open frontiers hold. capacity= alone keeps the 3 GiB
    superblocks: at 128 GiB that is 46 of them, and the 3 kept free plus 2 open frontiers eat
    the whole spare. The erase per superblock is the one cost that grows (16x as many erases:
    0.5 us of a die per host write against 700 us of programming)."""
    cap = FULL_CAP_BYTES // SCALE // 4096 * 4096
    return f"sim:dc-tlc-2t,capacity={cap},pages_per_block={768 // SCALE}@{path}", cap


def info_json(target):
    p = subprocess.run([PTSUITE, "info", target, "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"info {target} failed ({p.returncode}): {p.stderr.strip()}")
    return json.loads(p.stdout)["simulated_drive"]


def equivalence(full, scaled):
    """Prints what the scaled drive keeps of dc-tlc-2t; False when it does not keep it."""
    fp, sp = full["parameters"], scaled["parameters"]
    print("The calibration drive against the full dc-tlc-2t (`ptsuite info --json`):")
    print(f"  {'':<34} {'dc-tlc-2t':>16} {'calibration':>16}")
    ok = True
    for k in ("channels", "dies", "planes", "flash_page", "bits_per_cell", "op", "gc_free", "prog_us", "read_us",
              "erase_us", "channel_mbps", "buffer"):
        same = fp[k] == sp[k]
        ok = ok and same
        print(f"  {k:<34} {fp[k]:>16} {sp[k]:>16}{'' if same else '  DIFFERS'}")
    print(f"  {'capacity':<34} {fp['capacity']:>16} {sp['capacity']:>16}  (1/{SCALE})")
    print(f"  {'pages_per_block':<34} {fp['pages_per_block']:>16} {sp['pages_per_block']:>16}  (1/{SCALE})")
    same_sbs = full["superblocks"] == scaled["superblocks"]
    print(f"  {'superblocks':<34} {full['superblocks']:>16} {scaled['superblocks']:>16}{'' if same_sbs else '  DIFFERS'}")
    d_op = abs(full["effective_op"] - scaled["effective_op"])
    print(f"  {'spare built (effective op)':<34} {full['effective_op']:>16.5f} {scaled['effective_op']:>16.5f}"
          f"{'' if d_op < 1e-4 else '  DIFFERS'}")
    ok = ok and same_sbs and d_op < 1e-4
    print("  so steady-state random-write IOPS (WA x program work / parallelism) are those of the full drive"
          if ok else "  NOT EQUIVALENT: the figures below do not stand for dc-tlc-2t")
    return ok


def bench_calibration(args):
    """Every published figure of dc-tlc-2t beside the sim's, on the scaled drive (see
    scaled_target); exit 1 when one is off by more than 15 %. --fills N: random-write fills
    before the steady-state sweep (default 6: at rho 0.07 the WA still rises after 4, see the
    wa bench); --fills 0 skips it."""
    fills = float(args[args.index("--fills") + 1]) if "--fills" in args else 6.0
    t, cap = scaled_target(f"{WORK}/cal.simdrive")
    print("dc-tlc-2t against the published figures of a 2 TB enterprise TLC NVMe drive (2018): the four it is")
    print("fitted to (15 % target), then the published figures it was not fitted to (checks, 25 % target)")
    t0 = time.time()
    ok = equivalence(info_json(f"sim:dc-tlc-2t@{WORK}/full-info.simdrive"), info_json(t))
    rows = []
    checks = []  # (figure, published or None, simulated, source)
    # Latency and read points on a drive whose every LBA is mapped (one sequential fill).
    r = spec(t, "--rw", "write", "--bs", "128k", "--threads", "1", "--oio", "32", "--bytes", str(cap))
    checks.append(("128 KiB sequential write from FOB, QD 32: MB/s", 1050, r["mbps"], SEQ_WRITE_SOURCE))
    serial = serial_of(t)
    c = ["--confirm", serial]
    r = spec(t, *c, "--rw", "randread", "--bs", "4k", "--threads", "1", "--oio", "1", "--seconds", "10", "--seed", "3")
    rows.append(("4 KiB random read, QD 1: mean latency (ms)", 0.079, r["lat_us"]["mean"] / 1000))
    r = spec(t, *c, "--rw", "randread", "--bs", "4k", "--threads", "16", "--oio", "16", "--seconds", "5", "--seed", "4")
    rows.append(("4 KiB random read, 16 x QD 16: IOPS", 657240, r["iops"]))
    rows.append(("4 KiB random read, 16 x QD 16: mean latency (ms)", 0.389, r["lat_us"]["mean"] / 1000))
    r = spec(t, *c, "--rw", "randwrite", "--bs", "4k", "--threads", "1", "--oio", "1", "--seconds", "10", "--seed", "5")
    rows.append(("4 KiB random write, QD 1: mean latency (ms)", 0.020, r["lat_us"]["mean"] / 1000))
    rows.append(("4 KiB random write, QD 1: IOPS", 47586, r["iops"]))
    sweep = []
    if fills > 0:
        # Steady state: purge, `fills` drive capacities of 4 KiB random writes, then the sweep.
        p = subprocess.run([PTSUITE, "purge", t, "--confirm", serial], capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"purge {t} failed ({p.returncode}): {p.stderr.strip()}")
        serial = serial_of(t)
        c = ["--confirm", serial]
        print(f"preconditioning: purge, then {fills:g} drive fills of 4 KiB random writes (TC 4 x QD 32), one spec each:")
        done = 0.0
        while done < fills:
            part = min(1.0, fills - done)
            r = spec(t, *c, "--rw", "randwrite", "--bs", "4k", "--threads", "4", "--oio", "32", "--seed", str(100 + int(done)),
                     "--bytes", str(int(part * cap)))
            done += part
            print(f"  fill {done:g}: {r['iops']:>9.0f} IOPS, WA {r['simulated']['write_amplification']:.3f}")
        for i, (tc, qd) in enumerate([(1, q) for q in (1, 4, 8, 16, 32, 64, 128, 256)] + [(4, 32)]):
            r = spec(t, *c, "--rw", "randwrite", "--bs", "4k", "--threads", str(tc), "--oio", str(qd),
                     "--seconds", "20", "--seed", str(20 + i))
            sweep.append((tc, qd, r["iops"], r["lat_us"]["mean"] / 1000, r["simulated"]["write_amplification"]))
        print("4 KiB random write at steady state (20 s each, in this order):")
        print(f"  {'TC x QD':>9} {'IOPS':>9} {'mean ms':>9} {'WA':>6}")
        for tc, qd, iops, lat, wa in sweep:
            print(f"  {f'{tc} x {qd}':>9} {iops:>9.0f} {lat:>9.3f} {wa:>6.2f}")
        for tc, qd, iops, _, _ in sweep:
            if tc * qd >= 16:
                rows.append((f"4 KiB random write, steady state, {tc} x QD {qd}: IOPS (87-89 k)", 88000, iops))
    print(f"{'figure':<66} {'published':>10} {'simulated':>10} {'error':>8}  verdict")
    for name, want, got in rows:
        good = within(got, want, 0.15)
        ok = ok and good
        print(f"{name:<66} {want:>10.4g} {got:>10.4g} {100 * (got - want) / want:>+7.1f}%  {'ok' if good else 'MISSED'}")
    plateau = [iops for tc, qd, iops, _, _ in sweep if tc == 1 and qd >= 16]
    if plateau:
        # Published: 87-89 k from QD 16 to QD 256, i.e. flat within about 2 %.
        spread = (max(plateau) - min(plateau)) / (sum(plateau) / len(plateau))
        flat = spread <= 0.05
        ok = ok and flat
        print(f"{'steady write IOPS, QD 16..256: (max - min) / mean (published ~2 %)':<66} {'<= 5 %':>10} "
              f"{100 * spread:>9.1f}% {'':>8}  {'ok' if flat else 'STILL CLIMBING'}")
    if fills > 0:
        # 70/30 mix at steady state, on the same drive: a check (the issue keeps it out of the fit).
        r = spec(t, *c, "--rw", "randrw", "--read-pct", "70", "--bs", "4k", "--threads", "4", "--oio", "32",
                 "--seconds", "20", "--seed", "40")
        checks.append(("4 KiB random 70/30 mix, steady state, 4 x QD 32: IOPS", None, r["iops"], MIX_SOURCE))
        r = spec(t, *c, "--rw", "randread", "--bs", "4k", "--threads", "1", "--oio", "1", "--seconds", "10", "--seed", "41")
        checks.append(("4 KiB random read QD 1 after steady state: 99 % (ms)", None, r["read_lat_us"]["p99"] / 1000, QOS_SOURCE))
        checks.append(("4 KiB random read QD 1 after steady state: 99.99 % (ms)", None, r["read_lat_us"]["p99_99"] / 1000,
                       QOS_SOURCE))
    print("Checks (published figures dc-tlc-2t was not fitted to, 25 % target):")
    print(f"{'figure':<66} {'published':>10} {'simulated':>10} {'error':>8}  verdict")
    for name, want, got, source in checks:
        if want is None:
            print(f"{name:<66} {'-':>10} {got:>10.4g} {'':>8}  NO PUBLISHED FIGURE FOUND ({source})")
            continue
        good = within(got, want, 0.25)
        ok = ok and good
        print(f"{name:<66} {want:>10.4g} {got:>10.4g} {100 * (got - want) / want:>+7.1f}%  {'ok' if good else 'MISSED'}"
              f"  ({source})")
    print(f"(bench wall time {time.time() - t0:.0f} s)")
    return ok


SEQ_WRITE_SOURCE = ("Intel SSD DC P4500 2.0 TB, sequential write 1.05 GBps: Lenovo product guide, "
                    "http://88.208.23.73:8080/en/manual/lenovo/4xb7a08539/202486?page=3 (a 2017 drive of the class)")
# No published figure was found for these (searches of 2026-12-05 in the stored vendor pages and
# reviews, listed in docs/simulator.md): the stored briefs of the class's drives (Intel DC P4500
# 2.0 TB, Samsung PM983 1.92 TB, Micron 9200) give pure 4 KiB random read and write IOPS and a
# typical QD 1 latency only; none of the P4510, 983 DCT, SN630 or CM5 is stored. The nearest
# figures are of other drive classes and are not compared: Intel DC P3500 2 TB "IOPS Rnd 70/30
# 4KB: up to 80K" (2014, 20 nm MLC, another NAND generation), Intel DC S4500 "Quality of Service
# read 300 us (99.9 %)" (a SATA drive).
MIX_SOURCE = ("no published 70/30 figure of a 2 TB 2018 enterprise TLC NVMe drive found (the Intel DC P4500, Samsung "
              "PM983 and Micron 9200 briefs list pure read/write IOPS only)")
QOS_SOURCE = ("no published 99 %/99.99 % read QoS of a 2 TB 2018 enterprise TLC NVMe drive found (the same briefs give "
              "a typical QD 1 latency only)")


def qos_drive(path, priority):
    """dc-tlc-2t at 1/SCALE (see scaled_target), with or without read priority."""
    t, cap = scaled_target(path)
    return t.replace("@", f",read_priority={1 if priority else 0}@"), cap


def bench_qos(args):
    """4 KiB random read at QD 1: mean, 99 % and 99.99 % latency with no writes and under a 70/30
    mix (reads at QD 1 while a writer keeps the dies programming), with and without read
    priority (suspend), on dc-tlc-2t at 1/16 after one sequential fill."""
    print("4 KiB random read latency on dc-tlc-2t (1/16 scale model, after one sequential fill), 10 s each")
    print(f"  {'case':<48} {'read_priority':>13} {'IOPS':>9} {'mean us':>9} {'99 % us':>9} {'99.99 % us':>10}")
    for priority in (True, False):
        t, cap = qos_drive(f"{WORK}/qos-{int(priority)}.simdrive", priority)
        spec(t, "--rw", "write", "--bs", "128k", "--threads", "1", "--oio", "32", "--bytes", str(cap))
        c = ["--confirm", serial_of(t)]
        for name, extra in (("reads only, QD 1", ["--rw", "randread", "--oio", "1"]),
                            ("70/30 mix, QD 1", ["--rw", "randrw", "--read-pct", "70", "--oio", "1"]),
                            ("70/30 mix, 4 x QD 32", ["--rw", "randrw", "--read-pct", "70", "--oio", "32",
                                                      "--threads", "4"])):
            r = spec(t, *c, "--bs", "4k", "--seconds", "10", "--seed", "7", *extra)
            lat = r["read_lat_us"]
            print(f"  {name:<48} {int(priority):>13} {r['iops']:>9.0f} {lat['mean']:>9.1f} {lat['p99']:>9.1f} "
                  f"{lat['p99_99']:>10.1f}")
    return idle_gc_rate()


def idle_gc_rate():
    """Idle-time GC against foreground GC on a many-die drive. The command line has no host idle
    (only the PTS tests' wait states idle the drive), so this runs the unit test that measures
    it on the drive model directly (SimPriority.AnIdleManyDieDriveCleansAtLeastAsFastAsABusyOne:
    16 dies on 4 channels, from steady state, 100 ms of idle against 4 x QD 32 random writes;
    it fails when idle cleans slower than 97 % of busy) and prints the rates it measured."""
    test = os.path.join(os.path.dirname(PTSUITE), "unit-tests", "test_sim")
    if not os.path.exists(test):
        print(f"idle GC: MISSED, no {test} (build the test_sim target)")
        return False
    p = subprocess.run([test, "--gtest_filter=SimPriority.AnIdleManyDieDriveCleansAtLeastAsFastAsABusyOne"],
                       capture_output=True, text=True)
    line = [l for l in p.stdout.splitlines() if l.startswith("GC pages copied per second")]
    print(f"idle-time GC against foreground GC ({os.path.basename(test)} SimPriority.AnIdleManyDie...): "
          f"{line[0] if line else 'no rate printed'}: {'ok' if p.returncode == 0 and line else 'MISSED'}")
    return p.returncode == 0 and bool(line)


def state_memory_bytes(target):
    """The drive's stated state memory (what `ptsuite plan` and `info` print for it)."""
    p = subprocess.run([PTSUITE, "info", target, "--json"], capture_output=True, text=True, check=True)
    return json.loads(p.stdout)["simulated_drive"]["state_memory_bytes"]


def bench_speed(args):
    fills = float(args[args.index("--fills") + 1]) if "--fills" in args else 4.0
    ok = True
    # 1. A full-length PTS 2.0.2 IOPS test (purge, WIPC, up to 25 Rounds of 56 one-minute
    # cells) on the demo drive: under 2 minutes wall, under 1 GiB.
    if "--no-demo" not in args:
        out = os.path.join(WORK, "demo")
        env = dict(os.environ, PTSUITE_DEMO_TARGET=f"sim:demo@{WORK}/demo.simdrive")
        p = subprocess.run(["/usr/bin/time", "-f", "TIME %e %M %U %S", PTSUITE, "run", "iops", "--out", out, "--seed", "5",
                            "--quiet"], capture_output=True, text=True, env=env)
        if p.returncode != 0:
            sys.exit(f"run iops on sim:demo failed ({p.returncode}): {p.stderr.strip()}")
        line = [l for l in p.stderr.splitlines() if l.startswith("TIME ")][-1].split()
        wall, rss, cpu = float(line[1]), int(line[2]) / 1048576, float(line[3]) + float(line[4])
        rec = json.load(open(os.path.join(out, "run.json")))
        st = rec["subtests"][0]
        cells = sum(len(r["cells"]) for r in st["rounds"])
        print(f"full-length IOPS test on sim:demo (purge, WIPC, {len(st['rounds'])} Rounds of 56 cells of "
              f"{rec['plan']['cell_seconds']} s, steady state {'reached' if st['steady_state_reached'] else 'NOT reached'}):")
        print(f"  wall {wall:.1f} s (target 120 s: {'ok' if wall < 120 else 'MISSED'}), CPU {cpu:.1f} s (user + sys), "
              f"max RSS {rss:.2f} GiB "
              f"(target 1 GiB: {'ok' if rss < 1 else 'MISSED'}), {cells} cells")
        ok = ok and wall < 120 and rss < 1
    # 2. Drive fills of 4 KiB random writes on dc-tlc-2t from FOB: under 2 minutes for 4, in
    # the memory the profile states (`ptsuite plan` prints it). --fills 0: the demo only.
    if fills <= 0:
        return ok
    t = f"sim:dc-tlc-2t@{WORK}/speed.simdrive"
    cap = 2000398934016
    stated = state_memory_bytes(t)
    r = spec(t, "--rw", "randwrite", "--bs", "4k", "--threads", "4", "--oio", "32", "--seed", "9",
             "--bytes", str(int(fills * cap) // 4096 * 4096), timed=True)
    s = r["simulated"]
    host, nand = s["host_pages_written"], s["nand_pages_written"]
    rss = r["_rss_kib"] * 1024
    target_s = 120 * fills / 4
    print(f"{fills:g} drive fills of 4 KiB random writes on dc-tlc-2t (TC 4 x QD 32, from FOB, seed 9):")
    print(f"  wall {r['_wall_s']:.1f} s, CPU {r['_cpu_s']:.1f} s (user + sys, both threads, spinning included) "
          f"(the old 2-minute target for 4 fills: {r['_wall_s'] / target_s:.2f}x, "
          f"not judged: below this machine's floor, see the ratio); max RSS {rss / 2**30:.2f} GiB (stated state memory "
          f"{stated / 2**30:.2f} GiB, `ptsuite plan` prints it: {'ok' if rss < 1.1 * stated + 2**28 else 'MISSED'})")
    print(f"  {host} host writes (pages), {nand} NAND page writes, {s['gc_pages_copied']} GC copies: "
          f"WA {s['write_amplification']:.3f} over the run")
    print(f"  simulator CPU {s['sim_cpu_seconds']:.1f} s: {1e9 * s['sim_cpu_seconds'] / host:.0f} ns per host write "
          f"({1e9 * s['sim_cpu_seconds'] / nand:.0f} ns per NAND page write; target {1e9 * target_s / host:.0f} ns "
          f"per host write); {r['seconds']:.0f} s of virtual time")
    floor = os.path.join(os.path.dirname(PTSUITE), "bench", "random_access_floor")
    if not os.path.exists(floor):
        print(f"  MISSED: no {floor} to judge the wall time against (build it: it is a CMake target)")
        return False
    # The floor no simulator code can go below: each host write updates one mapping entry
    # and clears one validity bit at random, each GC copy updates one mapping entry. The
    # target (issue 24): the wall time within 1.5x of those accesses at the two-thread rate
    # (the simulator's host loop and map thread), measured in the same run.
    accesses = 2 * host + s["gc_pages_copied"]
    f = subprocess.run([floor, str(cap // 4096), "50000000"], capture_output=True, text=True, check=True).stdout
    ns = {int(l.split()[1].rstrip(":")): float(l.split()[2]) for l in f.splitlines() if l.startswith("threads ")}
    floor_s = accesses * ns[2] / 1e9
    ratio = r["_wall_s"] / floor_s
    print(f"  memory floor ({floor} on a {cap // 4096}-entry table, huge pages advised as for the simulator's "
          f"tables, this run): {accesses} random accesses "
          f"x {ns[1]:.1f} ns on one thread = {accesses * ns[1] / 1e9:.0f} s, x {ns[2]:.1f} ns on two = "
          f"{floor_s:.0f} s, before any other work")
    print(f"  wall / floor (two threads) = {r['_wall_s']:.1f} / {floor_s:.1f} = {ratio:.2f}x "
          f"(target 1.5x: {'ok' if ratio <= 1.5 else 'MISSED'})")
    return ok and ratio <= 1.5


def main():
    global PTSUITE, WORK
    if len(sys.argv) < 3 or sys.argv[2] not in ("wa", "calibration", "speed", "qos"):
        sys.exit(__doc__)
    PTSUITE = os.path.abspath(sys.argv[1])
    WORK = tempfile.mkdtemp(prefix="ptsuite-sim-bench.", dir="/var/tmp")
    try:
        ok = {"wa": bench_wa, "calibration": bench_calibration, "speed": bench_speed, "qos": bench_qos}[sys.argv[2]](sys.argv[3:])
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
