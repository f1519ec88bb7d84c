#!/usr/bin/env bash
# unit-tests/e2e/multi_drive.sh PTSUITE — `run TEST T1 T2 ...`: several drives in lockstep
# (docs/multi-drive.md), through the command line, time-scaled:
#   lockstep  sim:demo and sim:demo,op=28% in one `run iops` (1 s cells): two records and two
#             reports under ROOT/LABEL, each cell in both records ran in the same lockstep interval
#             (the log's job → target mapping and the records' job placement agree), the drive that
#             reached steady state first served as load (LockstepLoad transition, role "load" in the
#             log), the aggregate's sums and spreads recomputed here from the two drives' figures;
#             then `compare` on the two run directories: the op=28% drive ahead on every write cell
#   failure   sim:tiny beside sim:tiny,fail_after_writes=3GiB: the faulty drive's record is Failed
#             with the Write Fault named, the other completes; exit 5
#   bad input the same drive twice, --confirm missing, one too many, one that confirms the wrong
#             drive, on existing simulated drives and on two files: exit 2, the message names it,
#             no run directory, every state file and file byte for byte unchanged
#   resume    kill -9 in the middle of a two-drive run, `resume ROOT`: both records complete with a
#             resume-gap deviation, the aggregate written again
#   files     `run lat` on two files (the io_uring engine's multi-job cell over both held descriptors): both
#             records hold each cell's placement on its own target
source "$(dirname "$0")/sim_lib.sh"
start=$(date +%s)
cd "$WORK"
A="sim:demo@$WORK/a.simdrive"
B="sim:demo,op=28%@$WORK/b.simdrive"

# ---- lockstep: two drives of different profiles in one run ---------------------------------
"$PTSUITE" run iops "$A" "$B" --out "$WORK/two" --seed 5 --cell-seconds 1 --quiet >two.out 2>&1 ||
  { cat two.out; fail "run iops on two drives"; }
grep -v "round .* done" two.out | grep -E "run complete|steady state|aggregate|IOPS sum" | head -8
for d in sim-demo sim-demo-op28; do
  [[ -s two/$d/run.json && -s two/$d/iops.xlsx && -s two/$d/csv/iops.csv ]] || fail "no record or report in two/$d"
done
[[ -s two/aggregate.json && -s two/aggregate.xlsx && -s two/lockstep.jsonl ]] || fail "no aggregate in two/"
/usr/bin/python3 - two <<'PY' || fail "the lockstep records and aggregate"
import json, sys, openpyxl
root = sys.argv[1]
labels = ["sim-demo", "sim-demo-op28"]
runs = {l: json.load(open(f"{root}/{l}/run.json")) for l in labels}
log = [json.loads(l) for l in open(f"{root}/lockstep.jsonl")]
for l, r in runs.items():
    assert r["state"] == "complete", (l, r["state"])
    ls = r["lockstep"]
    assert ls["label"] == l and [d["label"] for d in ls["drives"]] == labels, ls
    assert [d["job_target"] for d in ls["drives"]] == [0, 1]
    assert ls["drives"][labels.index(l)]["serial"] == r["device"]["serial"]
# Every cell of a record is its drive's job of one lockstep interval: same figures, same placement.
for l, r in runs.items():
    cells = [(c, rd["round"]) for rd in r["subtests"][0]["rounds"] for c in rd["cells"]]
    measured = [d for iv in log for d in iv["drives"] if d["label"] == l and d["role"] == "measured"
                and d["cell_id"] != "WIPC"]
    assert len(cells) == len(measured), (l, len(cells), len(measured))
    for (c, rnd), d in zip(cells, measured):
        assert c["job"]["id"] == l and c["job"]["target_index"] == labels.index(l), c["job"]
        assert c["cell_id"] == d["cell_id"] and rnd == d["round"], (c["cell_id"], d)
        assert abs(c["iops"] - d["iops"]) <= 1e-9 * max(1, c["iops"]), (c["iops"], d["iops"])
rounds = {l: len(r["subtests"][0]["rounds"]) for l, r in runs.items()}
early = min(rounds, key=rounds.get)
assert rounds[early] < max(rounds.values()), f"both drives took {rounds} rounds: nothing to serve as load"
load = [t for t in runs[early]["transitions"] if t["state"] == "LockstepLoad"]
assert load, "the drive steady first records no LockstepLoad"
n_load = sum(1 for iv in log for d in iv["drives"] if d["label"] == early and d["role"] == "load")
assert f"in {n_load} lockstep cell(s)" in load[0]["detail"], (n_load, load[0]["detail"])
# In every interval both drives ran until the end: the measured one and the load one.
assert all(len(iv["drives"]) == 2 for iv in log), "an interval without both drives"
agg = json.load(open(f"{root}/aggregate.json"))
assert len(agg["intervals"]) == len(log)
for iv, a in zip(log, agg["intervals"]):
    v = [d["iops"] for d in iv["drives"]]
    m = [d["mbps"] for d in iv["drives"]]
    assert abs(a["iops_sum"] - sum(v)) <= 1e-9 * sum(v) + 1e-9
    assert abs(a["mbps_sum"] - sum(m)) <= 1e-9 * sum(m) + 1e-9
    mean = sum(v) / len(v)
    assert a["iops"]["min"] == min(v) and a["iops"]["max"] == max(v)
    assert abs(a["iops"]["relative_spread"] - (max(v) - min(v)) / mean) < 1e-12
wb = openpyxl.load_workbook(f"{root}/aggregate.xlsx")
assert wb.sheetnames == ["By cell", "Intervals"], wb.sheetnames
w = next(c for c in agg["by_cell"] if c["cell_id"] == "rw0-bs4096")
print(f"lockstep: rounds {rounds}; {early} served as load in {n_load} cells; {len(log)} intervals; "
      f"RND 4 KiB 0/100 last interval: IOPS sum {w['iops_sum']:.0f} "
      f"(min {w['iops']['min']:.0f}, max {w['iops']['max']:.0f}, spread {w['iops']['relative_spread']*100:.1f} %)")
PY
"$PTSUITE" compare two/sim-demo two/sim-demo-op28 --out "$WORK/cmp.xlsx" >compare.out 2>&1 || { cat compare.out; fail "compare"; }
/usr/bin/python3 - cmp.xlsx two/sim-demo/run.json two/sim-demo-op28/run.json <<'PY' || fail "compare: op=28% ahead"
import json, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
runs = [json.load(open(p)) for p in sys.argv[2:]]
rows = [[c.value for c in r] for r in wb["Matrix"].iter_rows()]
at = next(i for i, r in enumerate(rows) if r[0] == "Cell")
head = rows[at]
a_col = next(i for i, h in enumerate(head) if h and str(h).startswith("sim-demo (baseline)"))
b_col = head.index("sim-demo-op28")
plan = [c for c in runs[0]["plan"]["subtests"][0]["cells"] if c["applicable"]]
ahead = writes = 0
for row, c in zip(rows[at + 1:], plan):
    if c["spec"]["read_pct"] < 100:
        writes += 1
        ahead += row[b_col] > row[a_col]
assert writes and ahead == writes, f"op=28% ahead on {ahead} of {writes} write cells"
w = [next(x for x in r["subtests"][0]["window_results"] if x["cell_id"] == "rw0-bs4096")["iops"] for r in runs]
print(f"compare: the op=28% drive ahead on all {writes} cells with writes; RND 4 KiB 0/100 "
      f"{w[0]:.0f} -> {w[1]:.0f} IOPS")
PY

# ---- one drive fails mid-run: only its record stops -----------------------------------------
set +e
"$PTSUITE" run iops "sim:tiny@$WORK/t1.simdrive" "sim:tiny,fail_after_writes=3GiB@$WORK/t2.simdrive" \
  --out "$WORK/fault" --seed 5 --cell-seconds 0.25 --quiet >fault.out 2>&1
rc=$?
set -e
[[ $rc == 5 ]] || { cat fault.out; fail "a failed drive: exit $rc, expected 5"; }
/usr/bin/python3 - fault <<'PY' || fail "the failed drive's record"
import json, sys
ok = json.load(open(f"{sys.argv[1]}/sim-tiny/run.json"))
bad = json.load(open(f"{sys.argv[1]}/sim-tiny-fail_after_writes3GiB/run.json"))
assert ok["state"] == "complete" and ok["subtests"][0]["complete"], ok["state"]
assert bad["state"] == "failed" and "Write Fault" in bad["failure"], (bad["state"], bad["failure"])
assert "fail_after_writes=3GiB" in bad["device"]["path"], bad["device"]["path"]
print(f"failure: faulty drive Failed after {len(bad['subtests'][0]['rounds'])} round(s) ({bad['failure'][:90]}...); "
      f"the other Complete after {len(ok['subtests'][0]['rounds'])} rounds")
PY

# ---- bad input: exit 2, nothing written on any drive ----------------------------------------
SA=$(serial_of "$A")
SB=$(serial_of "$B")
head -c 16M /dev/urandom >fa.img
head -c 16M /dev/urandom >fb.img
before=$(sha256sum a.simdrive b.simdrive fa.img fb.img)
bad() {  # bad EXPECTED-TEXT ARGS...: exit 2, the text in the message, no run directory
  local want=$1
  shift
  set +e
  "$PTSUITE" run iops "$@" --out "$WORK/bad" --cell-seconds 0.1 >bad.out 2>&1
  local rc=$?
  set -e
  [[ $rc == 2 ]] || { cat bad.out; fail "$* : exit $rc, expected 2"; }
  grep -qF -- "$want" bad.out || { cat bad.out; fail "$* : no '$want' in the message"; }
  [[ ! -e "$WORK/bad" ]] || fail "$* : a run directory was made"
  echo "bad input: exit 2: $(head -1 bad.out)"
}
bad "the same drive as TARGET" "$A" "$A"
bad "not confirmed: give --confirm once per TARGET" "$A" "$B"
bad "3 value(s) for 2 targets" "$A" "$B" --confirm "$SA" --confirm "$SB" --confirm "$SB"
bad "does not confirm TARGET $B" "$A" "$B" --confirm "$SA" --confirm "$SA"
bad "1 value(s) for 2 targets" "$WORK/fa.img" "$WORK/fb.img" --confirm "$WORK/fa.img"
bad "does not confirm TARGET $WORK/fb.img" "$WORK/fa.img" "$WORK/fb.img" --confirm "$WORK/fa.img,$WORK/fa.img"
[[ "$(sha256sum a.simdrive b.simdrive fa.img fb.img)" == "$before" ]] || fail "a drive changed on bad input"
echo "bad input: both state files and both files byte for byte unchanged"

# ---- kill -9 mid-run, resume ROOT -----------------------------------------------------------
"$PTSUITE" run iops "sim:tiny@$WORK/k1.simdrive" "sim:tiny,op=28%@$WORK/k2.simdrive" --out "$WORK/k" --seed 5 \
  --cell-seconds 0.25 --quiet >k.out 2>&1 &
BG_PID=$!
for _ in $(seq 1 200); do  # until both drives are in their Rounds
  n=$(cat k/*/journal.jsonl 2>/dev/null | grep -c '"round":2' || true)
  [[ $n -ge 4 ]] && break
  sleep 0.1
done
kill -9 $BG_PID
wait $BG_PID 2>/dev/null || true
BG_PID=""
"$PTSUITE" resume "$WORK/k" --quiet >kr.out 2>&1 || { cat kr.out; fail "resume ROOT"; }
/usr/bin/python3 - k <<'PY' || fail "the resumed drives"
import json, sys
for l in ("sim-tiny", "sim-tiny-op28"):
    r = json.load(open(f"{sys.argv[1]}/{l}/run.json"))
    assert r["state"] == "complete", (l, r["state"])
    gap = [d for d in r["deviations"] if d["code"] == "resume-gap"]
    assert gap, f"{l}: no resume-gap deviation"
    print(f"resume: {l} Complete after {len(r['subtests'][0]['rounds'])} rounds; {gap[0]['text'][:70]}...")
agg = json.load(open(f"{sys.argv[1]}/aggregate.json"))
assert agg["intervals"], "no aggregate after resume"
PY

# ---- files: the io_uring multi-job cell over both held descriptors ---------------------------
"$PTSUITE" run lat "$WORK/fa.img" "$WORK/fb.img" --confirm "$WORK/fa.img" --confirm "$WORK/fb.img" --out "$WORK/files" \
  --seed 5 --cell-seconds 0.1 --max-rounds 5 --quiet >files.out 2>&1 || { cat files.out; fail "run on two files"; }
/usr/bin/python3 - files "$WORK" <<'PY' || fail "the file runs"
import json, sys
for i, l in enumerate(("fa.img", "fb.img")):
    r = json.load(open(f"{sys.argv[1]}/{l}/run.json"))
    assert r["state"] == "complete", r["state"]
    cells = [c for rd in r["subtests"][0]["rounds"] for c in rd["cells"]]
    assert all(c["job"]["target"] == f"{sys.argv[2]}/{l}" and c["job"]["target_index"] == i for c in cells)
    assert r["lockstep"]["label"] == l and r["lockstep"]["drives"][i]["job_target"] == i
print(f"files: two records, each cell's job on its own file ({len(cells)} cells each)")
PY
echo "multi_drive: $(( $(date +%s) - start )) s wall"
