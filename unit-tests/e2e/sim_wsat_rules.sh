#!/usr/bin/env bash
# unit-tests/e2e/sim_wsat_rules.sh PTSUITE — WSAT's rules on the simulated drive (issue #23),
# judged from run.json and the workbook by this script's own arithmetic (never by ptsuite):
#  1. the optional steady-state stop on sim:tiny (the demo drive's die with 1 GiB; 1.5 s samples,
#     so a sample writes about the share of the drive a 60 s sample writes on the 32 GB sim:demo;
#     up to 8 × capacity, so the option gets to judge before the capacity stop): it judges Rounds of 31 samples on their
#     last sample (CloudHarmony / ADATA), so WSAT does not stop on the FOB plateau — its last
#     sample lies after the write cliff — although five samples of the plateau alone pass the
#     20 % / 10 % criteria; it stops at the first such Round whose window passes, not earlier;
#  2. with the option off (the default, a short scaled run on sim:tiny) the record has no
#     Tracking Variable or verdict and no workbook cell says "steady state";
#  3. PTS 2.0.2 takes the operator's test period (6 h) without a deviation, PTS-E 1.1 does not;
#     TGBW is in GiB; --class client runs under PTS 2.0.2 and is refused under PTS-E 1.1.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/sim_lib.sh"
"$PTSUITE" info "sim:tiny@$WORK/probe.simdrive" >/dev/null 2>&1 || { echo "SKIP: no sim: targets"; exit 77; }
rm -f "$WORK/probe.simdrive"
DEFS=$HERE/../../tests-pts

# 1. The steady-state option on sim:demo.
sed -E -e 's/^stop_at_steady = .*/stop_at_steady = true/' -e 's/^capacity_multiple = .*/capacity_multiple = 8/' \
  "$DEFS/wsat.toml" >"$WORK/wsat-ss.toml"
grep -qx 'stop_at_steady = true' "$WORK/wsat-ss.toml" || fail "could not turn the option on"
start=$SECONDS
"$PTSUITE" run "$WORK/wsat-ss.toml" "sim:tiny@$WORK/ss.simdrive" --cell-seconds 1.5 --out "$WORK/ss" \
  --quiet --format xlsx >"$WORK/ss.out" 2>"$WORK/ss.err" || { cat "$WORK/ss.err"; fail "WSAT with the option: exit $?"; }
echo "wsat with the steady-state option on sim:tiny: $((SECONDS - start)) s wall"
python3 "$HERE/phase_run_audit.py" wsat "$WORK/ss" || fail "run directory audit"
python3 - "$WORK/ss/run.json" <<'EOF' || fail "the steady-state option"
import json, sys
rec = json.load(open(sys.argv[1]))
plan, sub = rec["plan"], rec["subtests"][0]
w = plan["wsat"]
iops = [c["iops"] for r in sub["rounds"] for c in r["cells"]]
n, per, win = len(iops), w["ss_interval_samples"], plan["window_rounds"]
assert w["stop_at_steady"] and per == 31, w

def steady(y):
    avg = sum(y) / len(y)
    xs = range(len(y))
    mx = sum(xs) / len(y)
    b = sum((x - mx) * (v - avg) for x, v in zip(xs, y)) / sum((x - mx) ** 2 for x in xs)
    return max(y) - min(y) <= 0.2 * avg * (1 + 1e-9) and abs(b) * (len(y) - 1) <= 0.1 * avg * (1 + 1e-9)

fob = sum(iops[:5]) / 5
cliff = next((k for k, v in enumerate(iops) if v < 0.5 * fob), None)
old_rule = next((k + 5 for k in range(n - 4) if steady(iops[k:k + 5])), None)  # windows of 5 samples
windows = [(k, steady([iops[r * per - 1] for r in range(k - win + 1, k + 1)])) for k in range(win, n // per + 1)]
first = next((k for k, ok in windows if ok), None)
verdicts = [r["round"] for r in sub["rounds"] if r.get("verdict")]
print("samples %d, FOB plateau %.0f IOPS, cliff at sample %s, last sample %.0f IOPS; windows of five samples "
      "would have stopped at sample %s; Rounds of 31: first steady window ends at Round %s (sample %s); "
      "verdicts on samples %s…; steady_state_reached %s" % (
          n, fob, None if cliff is None else cliff + 1, iops[-1], old_rule, first,
          None if first is None else first * per, verdicts[:3], sub["steady_state_reached"]))
bad = []
if cliff is None: bad.append("no write cliff")
elif n <= cliff + 1: bad.append("stopped on or before the cliff (sample %d)" % (cliff + 1))
if old_rule is None or (cliff is not None and old_rule > cliff):
    bad.append("the FOB plateau does not pass in 5 samples: this run does not show the old rule's fault")
if first is not None and n != first * per: bad.append("stopped at sample %d, the first steady window ends at %d" % (n, first * per))
if first is None and sub["steady_state_reached"]: bad.append("steady without a steady window")
if first is not None and not sub["steady_state_reached"]: bad.append("steady window not recorded")
if any(v % per for v in verdicts): bad.append("a verdict off the Rounds of 31: %s" % verdicts)
if sub["window_last_round"] != (first or n // per) * per: bad.append("window_last_round %s" % sub["window_last_round"])
tgbw = next(f for f in sub["findings"] if f["key"] == "tgbw_gib")
written = sum(c["write_bytes"] for r in sub["rounds"] for c in r["cells"])
if abs(tgbw["value"] - written / 2**30) > 1e-9 * written or tgbw["unit"] != "GiB": bad.append("TGBW not in GiB")
for b in bad: print("FAIL: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
/usr/bin/python3 - "$WORK/ss/wsat.xlsx" <<'EOF' || fail "the workbook with the option"
import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
said = [c.value for ws in wb for row in ws.iter_rows() for c in row if isinstance(c.value, str) and "Steady state" in c.value]
assert said, "the option was on, yet no page states the steady-state outcome"
assert "IOPS vs Drive Fills" in wb.sheetnames, wb.sheetnames
print("with the option: pages say %r" % said[0])
EOF

# 2. The option off: no steady-state words anywhere.
"$PTSUITE" run wsat "sim:tiny@$WORK/tiny.simdrive" --out "$WORK/off" --quiet --format xlsx --cell-seconds 0.5 \
  --time-scale 0.0001 >"$WORK/off.out" 2>"$WORK/off.err" || { cat "$WORK/off.err"; fail "WSAT: exit $?"; }
/usr/bin/python3 - "$WORK/off/run.json" "$WORK/off/wsat.xlsx" <<'EOF' || fail "WSAT without the option"
import json, sys, openpyxl
rec = json.load(open(sys.argv[1]))
sub = rec["subtests"][0]
assert not rec["plan"]["subtests"][0]["tracking"], "a Tracking Variable without the option"
assert not sub.get("final_verdict") and not any(r.get("verdict") for r in sub["rounds"]), "a verdict without the option"
wb = openpyxl.load_workbook(sys.argv[2])
said = ["%s!%s: %s" % (ws.title, c.coordinate, c.value) for ws in wb for row in ws.iter_rows() for c in row
        if isinstance(c.value, str) and "steady state" in c.value.lower() and "no steady-state" not in c.value.lower()
        and "not a steady-state" not in c.value.lower()]
assert not said, said
print("without the option: %d sheets, no cell speaks of a steady state" % len(wb.sheetnames))
EOF

# 3. The test period, editions and the client class (plan only: nothing is written).
for ed in pts-2.0.2 pts-e-1.1; do
  sed -E 's/^max_hours = .*/max_hours = 6/' "$DEFS/wsat.toml" >"$WORK/wsat-6h.toml"
  "$PTSUITE" plan "$WORK/wsat-6h.toml" --pts "$ed" --json >"$WORK/plan-$ed.json" || fail "plan --pts $ed"
done
python3 - "$WORK/plan-pts-2.0.2.json" "$WORK/plan-pts-e-1.1.json" <<'EOF' || fail "the test period by edition"
import json, sys
def devs(p):
    j = json.load(open(p))
    return [d["code"] for d in j.get("deviations", [])]
assert "wsat-stop" not in devs(sys.argv[1]), devs(sys.argv[1])
assert "wsat-stop" in devs(sys.argv[2]), devs(sys.argv[2])
print("6 h: no deviation under PTS 2.0.2; wsat-stop under PTS-E 1.1")
EOF
for t in wsat hir xsr; do
  "$PTSUITE" plan "$t" --pts pts-2.0.2 --class client >"$WORK/$t-client.txt" || fail "$t: client plan"
  rc=0
  "$PTSUITE" plan "$t" --pts pts-e-1.1 --class client >/dev/null 2>"$WORK/$t-client.err" || rc=$?
  [ $rc = 2 ] || fail "$t: PTS-E 1.1 client: exit $rc, expected 2"
  grep -q "PTS-E 1.1 is the enterprise edition" "$WORK/$t-client.err" || fail "$t: $(cat "$WORK/$t-client.err")"
done
echo "client class: planned under PTS 2.0.2 for wsat, hir, xsr; refused under PTS-E 1.1 (exit 2)"
echo "WSAT rules on the simulated drive: ok"
