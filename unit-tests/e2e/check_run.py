#!/usr/bin/env python3
"""unit-tests/e2e/check_run.py — an independent audit of a finished ptsuite run directory.

usage: check_run.py RUNDIR [--cells N] [--resumed] [--resumes N] [--failed-cells N] [--repurged]
       (an older first argument PTSUITE is accepted and ignored: nothing here runs ptsuite)

Everything is recomputed here, in this file's own Python arithmetic, from journal.jsonl and
run.json; no ptsuite code (not `ptsuite analyze`) takes part. Checks (each failure printed;
exit 1 if any):
  * the journal replays (its own rules: a cell with io_errors > 0 is failed, never a result)
    to the record in run.json: cells per Round, failed cells, purges, verdict flags, state;
  * purge: every sub-test that plans one stands on a settled purge (succeeded and its LBA
    read-back check passed, or accepted by the operator with the purge-accepted deviation);
    nothing (WIPC, a cell) ran for it before that purge; earlier unsettled attempts are kept
    in failed_purges; a non-SNIA, accepted or unverified purge carries its deviation;
  * WIPC completed (bytes written >= target, no I/O error) before Round 1;
  * every Round holds every applicable cell of the plan once, in plan order, none failed;
  * every verdict from the Measurement-Window size on: per Tracking Variable the window
    values, average, data excursion (max - min), least-squares slope and intercept, slope
    excursion |b| x (rounds - 1), allowed excursions and steady flags, recomputed;
  * the stop rule: the last Round is the first whose window is steady for every variable,
    or the Round cap was reached without one;
  * the reported window results (IOPS, MB/s, ART, MRT) = the window's cells only, and the
    window percentiles = those of the window cells' latency histograms merged
    (histogram_audit.py, also plain Python);
  * cell gaps were measured in every Round that no resume cut (above 0 unless the times are
    virtual: a simulated drive);
  * --resumed / --resumes N: resume-gap deviations and Resume transitions (at least 1 / N);
    --failed-cells N: N failed cells on record; --repurged: a failed purge was repeated.
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import histogram_audit  # noqa: E402

problems = []
EPS = 1e-9  # relative slack for floating-point noise only, as the spec's comparisons are inclusive


def check(cond, msg):
    if not cond:
        problems.append(msg)
    return cond


def close(a, b, rel=1e-9):
    return math.isclose(a, b, rel_tol=rel, abs_tol=1e-9)


def within(measured, allowed, average):
    return measured <= allowed + EPS * max(abs(allowed), abs(average))


METRIC = {"iops": lambda c: c["iops"], "mbps": lambda c: c["mbps"],
          "mean_latency_ns": lambda c: c["latency"]["mean_ns"],
          "max_latency_ns": lambda c: float(c["latency"]["max_ns"])}


def assess(values, first_round, data_limit, slope_limit):
    """The Measurement Window test, from scratch: mean, range, least squares y = b*R + a."""
    n = len(values)
    rounds = [first_round + i for i in range(n)]
    avg = sum(values) / n
    rbar = sum(rounds) / n
    sxx = sum((r - rbar) ** 2 for r in rounds)
    sxy = sum((r - rbar) * (v - avg) for r, v in zip(rounds, values))
    b = sxy / sxx
    a = avg - b * rbar
    data_exc = max(values) - min(values)
    slope_exc = abs(b) * (rounds[-1] - rounds[0])
    allowed_data, allowed_slope = data_limit * avg, slope_limit * avg
    data_ok = within(data_exc, allowed_data, avg)
    slope_ok = within(slope_exc, allowed_slope, avg)
    return {"average": avg, "slope": b, "intercept": a, "data_excursion": data_exc,
            "slope_excursion": slope_exc, "allowed_data_excursion": allowed_data,
            "allowed_slope_excursion": allowed_slope, "data_ok": data_ok, "slope_ok": slope_ok,
            "steady": data_ok and slope_ok and avg > 0}


def settled(p):
    if p.get("accepted_by_operator"):
        return True
    if not p.get("success"):
        return False
    v = p.get("verification", {})
    return p.get("method") == "none" or (v.get("performed") and v.get("passed"))


def replay(path):
    """The journal, replayed by this file's own rules."""
    subs, order, deviations, transitions, state = None, [], [], [], "running"
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    if lines and lines[-1] != b"":
        lines = lines[:-1]  # a torn last line (kill -9) is not an event
    for no, raw in enumerate(lines, 1):
        if not raw:
            continue
        try:
            ev = json.loads(raw)
        except ValueError:
            check(no == len(lines), f"journal line {no}: not JSON (and not the last line)")
            continue
        kind = ev.get("event")
        if no == 1:
            check(kind == "header", "the journal does not start with a header")
        if kind == "header":
            rec = ev["record"]
            subs = [{"purges": [], "cells": {}, "failed": [], "wipc": None, "round_end": {}, "summary": None}
                    for _ in rec["plan"]["subtests"]]
            deviations = [(d["code"], d["text"]) for d in rec.get("deviations", [])]
            transitions = list(rec.get("transitions", []))
        elif kind == "purge":
            subs[ev["subtest"]]["purges"].append((no, ev["purge"]))
        elif kind == "precondition":
            subs[ev["subtest"]]["wipc"] = (no, ev["precondition"])
            subs[ev["subtest"]].setdefault("wipc_all", []).append((no, ev["precondition"]))
        elif kind == "cell":
            s = subs[ev["subtest"]]
            if ev["cell"].get("io_errors", 0) > 0:
                s["failed"].append((ev["round"], ev["cell"]))
            else:
                s["cells"].setdefault(ev["round"], []).append((no, ev["cell"]))
        elif kind == "round_end":
            subs[ev["subtest"]]["round_end"][ev["round"]["round"]] = ev["round"]
        elif kind == "subtest_end":
            subs[ev["subtest"]]["summary"] = ev["summary"]
        elif kind == "deviation":
            deviations.append((ev["deviation"]["code"], ev["deviation"]["text"]))
        elif kind == "transition":
            transitions.append(ev["transition"])
            if ev["transition"]["state"] == "Resume":
                state = "running"
        elif kind == "finish":
            state = ev["state"]
        order.append((no, kind))
    return subs, deviations, transitions, state


def check_purge(name, sp, plan, st, js, devs):
    wanted = sp["purge"] and (plan["purge_auto"] or plan["purge_method"] != "none")
    if not wanted:
        check(not js["purges"], f"{name}: purged although the plan skips the purge")
        return
    if not check(js["purges"], f"{name}: the plan purges, the journal holds no purge"):
        return
    line, last = js["purges"][-1]
    check(settled(last), f"{name}: ran on a purge that did not settle: {last.get('status_text')}")
    for _, p in js["purges"][:-1]:
        check(not settled(p), f"{name}: a settled purge was purged again")
    check(len(st.get("failed_purges", [])) == len(js["purges"]) - 1,
          f"{name}: {len(st.get('failed_purges', []))} failed purges on record, journal has {len(js['purges']) - 1}")
    check(st["purge"] is not None and st["purge"]["started_wall_ns"] == last["started_wall_ns"],
          f"{name}: run.json's purge is not the journal's last one")
    io_lines = [n for cells in js["cells"].values() for n, _ in cells] + [n for n, _ in js.get("wipc_all", [])]
    first_io = min(io_lines) if io_lines else 10 ** 9
    check(line < first_io, f"{name}: I/O ran (journal line {first_io}) before the settled purge (line {line})")
    codes = {c for c, t in devs if name in t or c == "purge-method"}
    if not last.get("is_snia_purge"):
        check("purge-method" in codes, f"{name}: a non-SNIA purge without its purge-method deviation")
    if last.get("accepted_by_operator"):
        check("purge-accepted" in codes, f"{name}: an accepted purge failure without its purge-accepted deviation")
    v = last.get("verification", {})
    if not (v.get("performed") and v.get("passed")) and last.get("method") != "none":
        check("purge-unverified" in codes, f"{name}: an unverified purge without its purge-unverified deviation")


def check_subtest(si, sp, st, js, plan, run, devs, want_cells):
    name = sp["id"]
    W = plan["window_rounds"]
    applicable = [c["id"] for c in sp["cells"] if c["applicable"]]
    if si == 0 and want_cells is not None:
        check(len(applicable) == want_cells, f"{name}: {len(applicable)} applicable cells, expected {want_cells}")
    check(st["complete"], f"{name}: not complete")
    check_purge(name, sp, plan, st, js, devs)
    if sp["wipc_enabled"]:
        w = js["wipc"][1] if js["wipc"] else None
        if check(w is not None, f"{name}: no WIPC in the journal"):
            check(w["completed"] and w["bytes_written"] >= w["target_bytes"] and w["result"].get("io_errors", 0) == 0,
                  f"{name}: WIPC incomplete ({w['bytes_written']} of {w['target_bytes']} bytes)")
            first_cell = min([n for cells in js["cells"].values() for n, _ in cells] or [10 ** 9])
            check(js["wipc"][0] < first_cell, f"{name}: a cell ran before WIPC completed")
    # failed cells: kept apart, never results, and each one ran again
    check([(f["round"], f["cell"]["cell_id"]) for f in st.get("failed_cells", [])] ==
          [(r, c["cell_id"]) for r, c in js["failed"]], f"{name}: run.json's failed cells differ from the journal's")
    for r, c in js["failed"]:
        check(c["cell_id"] in [x["cell_id"] for _, x in js["cells"].get(r, [])],
              f"{name}: failed cell {c['cell_id']} of Round {r} was never run again")

    rounds = st["rounds"]
    if not check(rounds, f"{name}: no rounds"):
        return
    check(sorted(js["cells"]) == [r["round"] for r in rounds], f"{name}: journal Rounds differ from run.json's")
    series = {tv["cell_id"] + "/" + tv["metric"]: [] for tv in sp["tracking"]}
    resumes = [t["wall_ns"] for t in run["transitions"] if t["state"] == "Resume"]
    joint = []
    for i, r in enumerate(rounds):
        rn = r["round"]
        check(rn == i + 1, f"{name}: round numbering {rn} at index {i}")
        cells = [c for _, c in js["cells"].get(rn, [])]
        ids = [c["cell_id"] for c in cells]
        check(ids == applicable, f"{name} round {rn}: {len(ids)} cells (plan {len(applicable)}) or out of order")
        check([c["cell_id"] for c in r["cells"]] == ids, f"{name} round {rn}: run.json cells differ from the journal")
        check(all(close(a["iops"], b["iops"]) and a["io_errors"] == 0 for a, b in zip(r["cells"], cells)),
              f"{name} round {rn}: run.json IOPS differ from the journal's, or a failed cell is in the Round")
        cut = any(r["started_wall_ns"] <= t <= r["ended_wall_ns"] for t in resumes)
        if not cut:
            # A simulated drive's clock only moves with its commands: its gaps are measured, and 0.
            check(len(r.get("cell_gaps_ns", [])) >= len(ids) - 1 and (r["max_cell_gap_ns"] > 0 or run.get("virtual_time")),
                  f"{name} round {rn}: {len(r.get('cell_gaps_ns', []))} cell gaps for {len(ids)} cells")
        for tv in sp["tracking"]:
            v = [c for c in cells if c["cell_id"] == tv["cell_id"]]
            series[tv["cell_id"] + "/" + tv["metric"]].append(METRIC[tv["metric"]](v[0]) if v else float("nan"))
        verdict = r.get("verdict")
        if not check(verdict is not None, f"{name} round {rn}: no verdict"):
            continue
        if rn < W:
            check(not verdict["steady"], f"{name} round {rn}: steady before a full Measurement Window")
            joint.append(False)
            continue
        all_steady = bool(sp["tracking"])
        for tv in sp["tracking"]:
            key = tv["cell_id"] + "/" + tv["metric"]
            vals = series[key][rn - W:rn]
            mine = assess(vals, rn - W + 1, plan["data_excursion_limit"], plan["slope_excursion_limit"])
            got = [x for x in verdict["variables"] if x["variable"]["cell_id"] == tv["cell_id"]
                   and x["variable"]["metric"] == tv["metric"]]
            if not check(len(got) == 1, f"{name} round {rn}: verdict lacks {tv['label']}"):
                continue
            g = got[0]["window"]
            check((g["first_round"], g["last_round"]) == (rn - W + 1, rn), f"{name} round {rn} {tv['label']}: window rounds")
            check(all(close(a, b) for a, b in zip(g["values"], vals)) and len(g["values"]) == W,
                  f"{name} round {rn} {tv['label']}: window values {g['values']} != journal {vals}")
            for k in ("average", "data_excursion", "allowed_data_excursion", "allowed_slope_excursion"):
                check(close(g[k], mine[k]), f"{name} round {rn} {tv['label']}: {k} {g[k]} != recomputed {mine[k]}")
            scale = max(abs(mine["average"]), 1.0)
            check(abs(g["slope"] - mine["slope"]) <= 1e-9 * scale and abs(g["intercept"] - mine["intercept"]) <= 1e-6 * scale * rn,
                  f"{name} round {rn} {tv['label']}: fit {g['slope']}, {g['intercept']} != recomputed {mine['slope']}, {mine['intercept']}")
            check(abs(g["slope_excursion"] - mine["slope_excursion"]) <= 1e-9 * scale * W,
                  f"{name} round {rn} {tv['label']}: slope excursion {g['slope_excursion']} != {mine['slope_excursion']}")
            check(g["steady"] == mine["steady"] and g["data_ok"] == mine["data_ok"] and g["slope_ok"] == mine["slope_ok"],
                  f"{name} round {rn} {tv['label']}: verdict {g['steady']} != recomputed {mine['steady']}")
            all_steady = all_steady and mine["steady"]
        check(verdict["steady"] == all_steady, f"{name} round {rn}: joint verdict {verdict['steady']} != {all_steady}")
        joint.append(all_steady)
    last = rounds[-1]["round"]
    first_steady = next((i + 1 for i, s in enumerate(joint) if s), None)
    if st["steady_state_reached"]:
        check(first_steady == last, f"{name}: first steady Round is {first_steady}, the run stopped at {last}")
    else:
        check(first_steady is None, f"{name}: steady in Round {first_steady} but reported not steady")
        check(last == plan["max_rounds"] or plan.get("continue_past_max"),
              f"{name}: stopped at {last} without steady state before the cap {plan['max_rounds']}")
    first = max(1, last - W + 1)
    check((st["window_first_round"], st["window_last_round"]) == (first, last),
          f"{name}: window {st['window_first_round']}-{st['window_last_round']}, expected {first}-{last}")
    wr = {w["cell_id"]: w for w in st["window_results"]}
    check(sorted(wr) == sorted(applicable), f"{name}: window results for {len(wr)} cells, plan has {len(applicable)}")
    for cid in applicable:
        vals = [c for rn in range(first, last + 1) for _, c in js["cells"].get(rn, []) if c["cell_id"] == cid]
        w = wr.get(cid)
        if not check(len(vals) == last - first + 1 and w, f"{name} {cid}: {len(vals)} window values"):
            continue
        check(w["rounds"] == len(vals), f"{name} {cid}: window of {w['rounds']} rounds, expected {len(vals)}")
        for key, get in (("iops", lambda c: c["iops"]), ("mbps", lambda c: c["mbps"]),
                         ("mean_latency_ns", lambda c: c["latency"]["mean_ns"])):
            mean = sum(get(c) for c in vals) / len(vals)
            check(close(w[key], mean), f"{name} {cid}: window {key} {w[key]} != journal mean {mean}")
        check(w["max_latency_ns"] == max(c["latency"]["max_ns"] for c in vals), f"{name} {cid}: window MRT")
        problems.extend(histogram_audit.audit_window(f"{name} {cid}", vals, w))
    print(f"{name}: {len(rounds)} rounds x {len(applicable)} cells, steady={st['steady_state_reached']}, "
          f"window {first}-{last}, {len(js['failed'])} failed cell(s), {len(js['purges'])} purge(s)")


def main():
    args = sys.argv[1:]
    if len(args) >= 2 and not os.path.isdir(args[0]) and os.path.isdir(args[1]):
        args = args[1:]  # an older caller's PTSUITE: not used
    rundir = args[0]
    opt = lambda flag: int(args[args.index(flag) + 1]) if flag in args else None
    want_cells, want_resumes, want_failed = opt("--cells"), opt("--resumes"), opt("--failed-cells")
    run = json.load(open(os.path.join(rundir, "run.json")))
    plan = run["plan"]
    subs, devs, transitions, state = replay(os.path.join(rundir, "journal.jsonl"))
    if not check(subs is not None, "the journal has no header"):
        return report()
    check(run["state"] == "complete", f"state is {run['state']}, not complete")
    check(state == run["state"], f"the journal ends {state}, run.json says {run['state']}")
    have = [(d["code"], d["text"]) for d in run["deviations"]]
    check(len(have) == len(set(have)), "run.json repeats a deviation")
    check(set(devs) <= set(have), f"journaled deviations missing from run.json: {sorted(set(devs) - set(have))}")
    check(len(transitions) == len(run["transitions"]), "run.json's transitions differ from the journal's")
    for si, (sp, st) in enumerate(zip(plan["subtests"], run["subtests"])):
        check_subtest(si, sp, st, subs[si], plan, run, [(d["code"], d["text"]) for d in run["deviations"]], want_cells)
    gaps = [d for d in run["deviations"] if d["code"] == "resume-gap"]
    resumes = [t for t in run["transitions"] if t["state"] == "Resume"]
    check(len(gaps) == len(resumes), f"{len(gaps)} resume-gap deviations for {len(resumes)} resumes")
    if "--resumed" in args:
        check(len(resumes) >= 1, "no Resume transition")
    if want_resumes is not None:
        check(len(resumes) == want_resumes, f"{len(resumes)} resumes, expected {want_resumes}")
    if want_failed is not None:
        n = sum(len(s.get("failed_cells", [])) for s in run["subtests"])
        check(n == want_failed, f"{n} failed cells on record, expected {want_failed}")
    if "--repurged" in args:
        check(any(s.get("failed_purges") for s in run["subtests"]), "no failed purge was repeated")
    return report()


def report():
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
