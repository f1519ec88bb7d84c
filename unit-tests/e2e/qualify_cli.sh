#!/usr/bin/env bash
# unit-tests/e2e/qualify_cli.sh PTSUITE — `compare` and `check` through the command line on
# simulated drives (IOPS runs with short cells, each drive on its own state file):
#   compare  sim:demo against sim:demo,op=28%: exit 0, one workbook with the drives side by
#            side; the higher-OP drive is ahead on every cell with writes (read back with
#            openpyxl, deltas recomputed here); an IOPS run against a Throughput run and two
#            IOPS runs with another TC × QD are refused (exit 2) naming each difference;
#            --allow-mismatch compares them and lists the differences on the first page
#   check    the review-lab sheet: one drive passes (exit 0), the other fails (exit 6); the page
#            and check.json hold measured value, limit and margin (margin recomputed here); the
#            OCP-style sheet on IOPS runs alone cannot be answered (exit 2, file:line)
#   bad input  an interrupted run, a run.json of another format version, a directory without
#            run.json, a sheet with an unknown key and a figure ptsuite does not record: exit 2,
#            each named with file:line, nothing written
source "$(dirname "$0")/sim_lib.sh"
REPO=$(cd "$HERE/../.." && pwd)
start=$(date +%s)
run() {  # run NAME TEST TARGET CELL_SECONDS [options]: a short-cell run on its own state file
  local name=$1 test=$2 target=$3 cell=$4
  shift 4
  "$PTSUITE" run "$test" "$target" --out "$WORK/$name" --seed 5 --cell-seconds "$cell" --quiet "$@" \
    >"$WORK/$name.out" 2>&1 || { cat "$WORK/$name.out"; fail "run $test on $target"; }
}
run demo iops "sim:demo@$WORK/demo.simdrive" 1 &
p1=$!
run demo-op28 iops "sim:demo,op=28%@$WORK/op28.simdrive" 1 &
p2=$!
wait $p1 || fail "the sim:demo run"
wait $p2 || fail "the sim:demo,op=28% run"
# The refusals only need complete runs: shorter cells still.
run tiny-tp throughput "sim:tiny@$WORK/tp.simdrive" 0.25 &
p1=$!
run tiny-2x16 iops "sim:tiny@$WORK/t1.simdrive" 0.25 --threads 2 --oio 16 &
p2=$!
run tiny-4x32 iops "sim:tiny@$WORK/t2.simdrive" 0.25 &
p3=$!
wait $p1 && wait $p2 && wait $p3 || fail "the sim:tiny runs"
echo "runs: $(( $(date +%s) - start )) s wall"

# ---- compare: side by side, the higher-OP drive ahead on write cells ------------------------
cd "$WORK"
"$PTSUITE" compare demo demo-op28 >compare.out 2>&1 || { cat compare.out; fail "compare demo demo-op28"; }
cat compare.out
[[ -s compare-iops.xlsx ]] || fail "no compare-iops.xlsx"
/usr/bin/python3 - compare-iops.xlsx demo/run.json demo-op28/run.json <<'PY' || fail "the comparison workbook"
import json, sys
import openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
runs = [json.load(open(p)) for p in sys.argv[2:]]
assert wb.sheetnames[:3] == ["Comparison", "Headlines", "Matrix"], wb.sheetnames
def table(ws, first_header):
    rows = [[c.value for c in r] for r in ws.iter_rows()]
    at = next(i for i, r in enumerate(rows) if r[0] == first_header)
    head = rows[at]
    out = []
    for r in rows[at + 1:]:
        if r[0] is None: break
        out.append(dict(zip(head, r)))
    return head, out
head, cells = table(wb["Matrix"], "Cell")
a_col = next(h for h in head if h and h.startswith("demo (baseline)"))
b_col = "demo-op28"
d_col = "Δ demo-op28 vs baseline"
stored = [{w["cell_id"]: w for w in r["subtests"][0]["window_results"]} for r in runs]
plan = {c["id"]: c for c in runs[0]["plan"]["subtests"][0]["cells"]}
assert len(cells) == sum(1 for c in plan.values() if c["applicable"]), len(cells)
ahead, writes = 0, 0
for row, cid in zip(cells, [c["id"] for c in runs[0]["plan"]["subtests"][0]["cells"] if c["applicable"]]):
    a, b = stored[0][cid]["iops"], stored[1][cid]["iops"]
    assert abs(row[a_col] - a) <= 1e-6 * a and abs(row[b_col] - b) <= 1e-6 * b, (cid, row)
    assert abs(row[d_col] - (b - a) / a) < 1e-9, (cid, row[d_col], (b - a) / a)
    if plan[cid]["spec"]["read_pct"] < 100:
        writes += 1
        ahead += b > a
assert ahead == writes, f"the op=28% drive is ahead on {ahead} of {writes} cells with writes"
first = " ".join(str(c.value) for r in wb["Comparison"].iter_rows() for c in r if c.value is not None)
assert "Comparable" in first and "TC × QD split" in first, "the first page names what was matched"
w4 = [stored[i]["rw0-bs4096"]["iops"] for i in (0, 1)]
print(f"compare: the op=28% drive ahead on all {writes} cells with writes; RND 4 KiB 0/100 "
      f"{w4[0]:.0f} -> {w4[1]:.0f} IOPS ({(w4[1] - w4[0]) / w4[0] * 100:+.1f} %)")
PY

# ---- compare refuses what does not compare ----------------------------------------------
for pair in "demo tiny-tp" "tiny-4x32 tiny-2x16"; do
  set +e
  "$PTSUITE" compare $pair --out refused.xlsx >refused.out 2>&1
  rc=$?
  set -e
  cat refused.out
  [[ $rc -eq 2 ]] || fail "compare $pair: exit $rc, want 2"
  [[ ! -e refused.xlsx ]] || fail "compare $pair wrote a workbook"
done
grep -q "test: demo iops (IOPS); tiny-tp throughput (Throughput)" <("$PTSUITE" compare demo tiny-tp 2>&1) ||
  fail "the test difference is not named"
out=$("$PTSUITE" compare tiny-4x32 tiny-2x16 2>&1 || true)
grep -q "total outstanding I/O (TC × QD): tiny-4x32 128; tiny-2x16 32" <<<"$out" || fail "total OIO not named: $out"
grep -q "TC × QD split: tiny-4x32 4 × 32; tiny-2x16 2 × 16" <<<"$out" || fail "TC × QD split not named: $out"
"$PTSUITE" compare tiny-4x32 tiny-2x16 --allow-mismatch --out mismatch.xlsx >/dev/null || fail "--allow-mismatch"
/usr/bin/python3 - mismatch.xlsx <<'PY' || fail "the differences on the first page"
import sys, openpyxl
ws = openpyxl.load_workbook(sys.argv[1])["Comparison"]
text = " ".join(str(c.value) for r in ws.iter_rows() for c in r if c.value is not None)
assert "NOT COMPARABLE" in text and "TC × QD split" in text and "2 × 16" in text and "4 × 32" in text, text[:400]
PY

# ---- check: pass on one drive, fail on the other -------------------------------------------
SHEET=$REPO/tests-pts/requirements/review-lab-shortlist.toml
codes=()
for d in demo demo-op28; do
  set +e
  "$PTSUITE" check "$d" --spec "$SHEET" --out "check-$d" >"check-$d.out" 2>&1
  codes+=($?)
  set -e
  cat "check-$d.out"
done
echo "check exit codes: demo ${codes[0]}, demo-op28 ${codes[1]}"
[[ ${codes[0]} -eq 6 && ${codes[1]} -eq 0 ]] || fail "check: want 6 (demo) and 0 (demo-op28)"
/usr/bin/python3 - check-demo check-demo-op28 <<'PY' || fail "the check pages"
import json, sys, openpyxl
for d in sys.argv[1:]:
    j = json.load(open(f"{d}/check.json"))
    (drive,) = j["drives"]
    for r in drive["requirements"]:
        m = r["measured"] - r["limit"] if r["limit_kind"] == "floor" else r["limit"] - r["measured"]
        assert abs(r["margin"] - m) < 1e-9 * max(1, abs(m)), r
        assert r["pass"] == (m >= 0), r
    ws = openpyxl.load_workbook(f"{d}/check.xlsx")["Drive 1"]
    rows = [[c.value for c in r] for r in ws.iter_rows()]
    at = next(i for i, r in enumerate(rows) if r[0] == "Req.")
    head = rows[at]
    for k in ("Measured", "Limit", "Margin", "Verdict"): assert k in head, head
    got = {r[0]: dict(zip(head, r)) for r in rows[at + 1:at + 1 + len(drive["requirements"])]}
    for r in drive["requirements"]:
        g = got[r["id"]]
        assert abs(g["Measured"] - r["measured"]) < 1e-9 * max(1, r["measured"]) and g["Limit"] == r["limit"], (g, r)
        assert g["Verdict"] == ("PASS" if r["pass"] else "FAIL")
    print(f"{d}: {'PASS' if drive['pass'] else 'FAIL'} — " + "; ".join(
        f'{r["id"]} {r["measured"]:.4g} vs {r["limit"]:g} ({r["margin_pct"]:+.1f} %)' for r in drive["requirements"]))
PY
set +e
"$PTSUITE" check demo --spec "$REPO/tests-pts/requirements/ocp-datacenter-style.toml" --out ocp >ocp.out 2>&1
rc=$?
set -e
head -3 ocp.out
[[ $rc -eq 2 && ! -e ocp/check.json ]] || fail "check with test points no run holds: exit $rc, want 2, nothing written"
grep -q "ocp-datacenter-style.toml:[0-9]*: \[\[requirement\]\] PERF-1 (at 'seq-128k-read'.*no run of test 'throughput'" ocp.out ||
  fail "the unanswered requirement is not named with file:line"

# ---- bad input: named with file:line, exit 2, nothing written ------------------------------
cp -r demo interrupted
cp -r demo oldformat
/usr/bin/python3 - interrupted/run.json oldformat/run.json <<'PY'
import json, sys
for path, key, value in ((sys.argv[1], "state", "interrupted"), (sys.argv[2], "schema_version", 4)):
    j = json.load(open(path))
    j[key] = value
    json.dump(j, open(path, "w"), indent=1, ensure_ascii=False)  # run.json's own layout
PY
mkdir empty
state_line=$(grep -n '^ "state":' interrupted/run.json | cut -d: -f1)
ver_line=$(grep -n '^ "schema_version":' oldformat/run.json | cut -d: -f1)
set +e
"$PTSUITE" compare interrupted oldformat empty --out bad.xlsx >bad.out 2>&1
rc=$?
set -e
cat bad.out
[[ $rc -eq 2 && ! -e bad.xlsx ]] || fail "compare of bad run directories: exit $rc"
grep -q "interrupted/run.json:$state_line: the run is interrupted, not complete" bad.out || fail "interrupted run not named"
grep -q "oldformat/run.json:$ver_line: schema_version 4 is another format version" bad.out || fail "format version not named"
grep -q "empty: holds no run.json" bad.out || fail "directory without run.json not named"
sed -e 's/^source = /sorce = /' -e 's/^figure = "write_iops"/figure = "write_iopz"/' "$SHEET" >bad-sheet.toml
set +e
"$PTSUITE" check demo --spec bad-sheet.toml --out badcheck >badcheck.out 2>&1
rc=$?
set -e
cat badcheck.out
[[ $rc -eq 2 && ! -e badcheck ]] || fail "check with a bad sheet: exit $rc"
grep -q "bad-sheet.toml:[0-9]*: unknown key 'sorce' in \[sheet\] (did you mean 'source'?)" badcheck.out || fail "unknown key not named"
grep -q "bad-sheet.toml:[0-9]*: \[\[requirement\]\] [A-Z0-9-]*: figure 'write_iopz' is not one ptsuite records" badcheck.out ||
  fail "unknown figure not named"
echo "compare and check: ok ($(( $(date +%s) - start )) s wall)"
