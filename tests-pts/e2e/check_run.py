#!/usr/bin/env python3
"""tests-pts/e2e/check_run.py — audits a finished ptsuite run directory against its own journal.

usage: check_run.py PTSUITE RUNDIR [--cells N] [--resumed]

Checks (each failure is printed; exit 1 if any):
  * run.json is complete and equals the record replayed from journal.jsonl (cells, verdicts);
  * every Round of every sub-test holds every applicable cell of the plan, once, in plan order
    (--cells N: and the first sub-test has N applicable cells);
  * the stop rule: the last Round is the first steady one, or the cap was reached without one;
  * the reported window averages equal a recomputation from the journal's cell events over
    the Measurement Window only, and the window percentiles equal those of the journal cells'
    latency histograms merged (histogram_audit.py);
  * `ptsuite analyze` on each Tracking Variable's series (taken from the journal) agrees with
    the run's verdict: the first Round where every variable's window is steady;
  * cell gaps were measured in every Round (and are above 0 unless the times are virtual);
  * --resumed: exactly one resume-gap deviation and a Resume transition.
"""
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import histogram_audit  # noqa: E402

problems = []


def check(cond, msg):
    if not cond:
        problems.append(msg)
    return cond


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


METRIC = {"iops": lambda c: c["iops"], "mbps": lambda c: c["mbps"],
          "mean_latency_ns": lambda c: c["latency"]["mean_ns"],
          "max_latency_ns": lambda c: float(c["latency"]["max_ns"])}


def main():
    args = sys.argv[1:]
    ptsuite, rundir = args[0], args[1]
    want_cells = int(args[args.index("--cells") + 1]) if "--cells" in args else None
    resumed = "--resumed" in args

    run = json.load(open(os.path.join(rundir, "run.json")))
    plan = run["plan"]
    check(run["state"] == "complete", f"state is {run['state']}, not complete")

    # Replay the journal: cells per (subtest, round), in order.
    journal = {}
    events = 0
    with open(os.path.join(rundir, "journal.jsonl")) as f:
        for line in f:
            ev = json.loads(line)
            events += 1
            if ev["event"] == "cell":
                journal.setdefault(ev["subtest"], {}).setdefault(ev["round"], []).append(ev["cell"])
    check(events > 0, "empty journal")

    for si, (sp, st) in enumerate(zip(plan["subtests"], run["subtests"])):
        name = sp["id"]
        applicable = [c["id"] for c in sp["cells"] if c["applicable"]]
        if si == 0 and want_cells is not None:
            check(len(applicable) == want_cells, f"{name}: {len(applicable)} applicable cells, expected {want_cells}")
        check(st["complete"], f"{name}: not complete")
        rounds = st["rounds"]
        check(len(rounds) >= 1, f"{name}: no rounds")
        for i, r in enumerate(rounds):
            check(r["round"] == i + 1, f"{name}: round numbering {r['round']} at index {i}")
            ids = [c["cell_id"] for c in r["cells"]]
            check(ids == applicable, f"{name} round {r['round']}: cells {len(ids)} != plan {len(applicable)} or out of order")
            jcells = journal.get(si, {}).get(r["round"], [])
            check([c["cell_id"] for c in jcells] == ids, f"{name} round {r['round']}: journal cells differ from run.json")
            check(all(close(a["iops"], b["iops"]) for a, b in zip(jcells, r["cells"])),
                  f"{name} round {r['round']}: journal IOPS differ from run.json")
            # A simulated drive's clock only moves with its commands: its gaps are measured, and 0.
            check(len(r.get("cell_gaps_ns", [])) >= 1 and (r["max_cell_gap_ns"] > 0 or run.get("virtual_time")),
                  f"{name} round {r['round']}: no cell gap measured")
            check(r["verdict"] is not None, f"{name} round {r['round']}: no verdict")
        last = rounds[-1]["round"]
        # Stop rule.
        steady_rounds = [r["round"] for r in rounds if r["verdict"] and r["verdict"]["steady"]]
        if st["steady_state_reached"]:
            check(steady_rounds == [last], f"{name}: steady rounds {steady_rounds}, expected only the last ({last})")
        else:
            check(not steady_rounds, f"{name}: steady in {steady_rounds} but reported not steady")
            check(last == plan["max_rounds"], f"{name}: stopped at {last} without steady state before the cap {plan['max_rounds']}")
        W = plan["window_rounds"]
        first = max(1, last - W + 1)
        check((st["window_first_round"], st["window_last_round"]) == (first, last),
              f"{name}: window {st['window_first_round']}-{st['window_last_round']}, expected {first}-{last}")
        # Window averages from the journal.
        wr = {w["cell_id"]: w for w in st["window_results"]}
        check(sorted(wr) == sorted(applicable), f"{name}: window results for {len(wr)} cells, plan has {len(applicable)}")
        for cid in applicable:
            vals = [c for rn in range(first, last + 1) for c in journal.get(si, {}).get(rn, []) if c["cell_id"] == cid]
            if not check(len(vals) == last - first + 1, f"{name} {cid}: {len(vals)} window values in the journal"):
                continue
            w = wr.get(cid)
            if not w:
                continue
            for key, get in (("iops", lambda c: c["iops"]), ("mbps", lambda c: c["mbps"]),
                             ("mean_latency_ns", lambda c: c["latency"]["mean_ns"])):
                mean = sum(get(c) for c in vals) / len(vals)
                check(close(w[key], mean), f"{name} {cid}: window {key} {w[key]} != journal mean {mean}")
            check(w["max_latency_ns"] == max(c["latency"]["max_ns"] for c in vals), f"{name} {cid}: window MRT")
            problems.extend(histogram_audit.audit_window(f"{name} {cid}", vals, w))
        # analyze on the tracking series agrees with the verdict.
        per_var = []
        for tv in sp["tracking"]:
            series = []
            for rn in range(1, last + 1):
                vs = [c for c in journal.get(si, {}).get(rn, []) if c["cell_id"] == tv["cell_id"]]
                series.append(METRIC[tv["metric"]](vs[0]) if vs else float("nan"))
            with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
                f.write("".join(repr(v) + "\n" for v in series))
                csv = f.name
            out = subprocess.run([ptsuite, "analyze", csv, "--window", str(W), "--json"], capture_output=True, text=True)
            os.unlink(csv)
            if not check(out.returncode == 0, f"analyze exited {out.returncode}: {out.stderr.strip()}"):
                continue
            a = json.loads(out.stdout)
            per_var.append({w["last_round"]: w["steady"] for w in a["windows"]})
            # The run's last verdict for this variable equals analyze's window ending there.
            if last >= W:
                v = [x for x in rounds[-1]["verdict"]["variables"] if x["variable"]["cell_id"] == tv["cell_id"]][0]
                aw = [w for w in a["windows"] if w["last_round"] == last][0]
                check(close(v["window"]["average"], aw["average"]) and v["window"]["steady"] == aw["steady"],
                      f"{name} {tv['label']}: run verdict {v['window']['average']}/{v['window']['steady']} vs analyze {aw['average']}/{aw['steady']}")
        if per_var and len(per_var) == len(sp["tracking"]):
            joint = [x for x in range(W, last + 1) if all(p.get(x, False) for p in per_var)]
            expected = joint[0] if joint else None
            got = last if st["steady_state_reached"] else None
            check(expected == got, f"{name}: analyze says first steady round {expected}, run says {got}")
        print(f"{name}: {len(rounds)} rounds x {len(applicable)} cells, steady={st['steady_state_reached']}, "
              f"window {first}-{last}, max gap {max(r['max_cell_gap_ns'] for r in rounds) / 1e6:.3f} ms")

    gaps = [d for d in run["deviations"] if d["code"] == "resume-gap"]
    if resumed:
        check(len(gaps) == 1, f"{len(gaps)} resume-gap deviations, expected 1")
        check(any(t["state"] == "Resume" for t in run["transitions"]), "no Resume transition")
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
