#!/usr/bin/env bash
# unit-tests/e2e/report_interrupted_run.sh — a real interrupted run: `ptsuite run iops` on a
# small file in /dev/shm (0.05 s cells) gets SIGINT after a few seconds, exits 130, and
# `ptsuite report RUNDIR` then renders a partial workbook that says INCOMPLETE on every sheet.
#   usage: report_interrupted_run.sh PTSUITE WORKDIR
set -u
PTSUITE=$1 WORK=$2
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
fail() { echo "FAIL: $*"; exit 1; }
[ -d /dev/shm ] && [ -w /dev/shm ] || { echo "SKIP: no writable /dev/shm"; exit 77; }
rm -rf "$WORK" && mkdir -p "$WORK"
target=/dev/shm/ptsuite-report-e2e-$$.img
trap 'rm -f "$target"' EXIT
"$PTSUITE" run iops "$target" --size 32m --out "$WORK/run" --cell-seconds 0.05 --quiet > "$WORK/run.log" 2>&1 &
pid=$!
sleep 4
kill -INT "$pid"
wait "$pid"; rc=$?
[ "$rc" -eq 130 ] || fail "run exited $rc, expected 130 (interrupted): $(tail -5 "$WORK/run.log")"
rm -f "$WORK/run/iops.xlsx"  # the run wrote a partial report itself; render it again offline
out=$("$PTSUITE" report "$WORK/run" 2>&1) || fail "report exit $?: $out"
grep -q "INCOMPLETE RUN — partial results" <<<"$out" || fail "no INCOMPLETE line: $out"
[ -s "$WORK/run/iops.xlsx" ] || fail "no workbook"
"$PY" - "$WORK/run/iops.xlsx" <<'PYEOF' || fail "workbook check"
import sys
try:
    import openpyxl
except ImportError:
    print("note: openpyxl missing, sheets not checked"); sys.exit(0)
wb = openpyxl.load_workbook(sys.argv[1])
for ws in wb.worksheets:
    text = "\n".join(str(v) for row in ws.iter_rows(values_only=True) for v in row if v is not None)
    assert "INCOMPLETE RUN — partial results" in text, ws.title
    assert "Steady state NOT determined — partial" in text or "Steady state NOT achieved" in text, ws.title
print("every sheet of", sys.argv[1], "is marked INCOMPLETE:", ", ".join(wb.sheetnames))
PYEOF
echo "report_interrupted_run: passed"
