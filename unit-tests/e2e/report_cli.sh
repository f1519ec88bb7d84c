#!/usr/bin/env bash
# unit-tests/e2e/report_cli.sh — `ptsuite report` end to end: an interrupted run gives a
# partial workbook marked INCOMPLETE (checked with openpyxl); --format picks the files; bad
# input (no run.json, newer schema_version, unwritable output, bad flags) exits 2 with a clear
# message and leaves nothing half-written.
#   usage: report_cli.sh PTSUITE FIXTURE_TOOL CHECK_WORKBOOK_PY WORKDIR
set -u
PTSUITE=$1 TOOL=$2 CHECK=$3 WORK=$4
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
fail() { echo "FAIL: $*"; exit 1; }
expect_rc() {  # expect_rc WANT DESCRIPTION -- command...
  local want=$1 what=$2; shift 3
  out=$("$@" 2>&1); rc=$?
  [ "$rc" -eq "$want" ] || fail "$what: exit $rc, expected $want; output: $out"
}
no_report_files() {  # nothing but run.json/expected.json (and no temporary files) in $1
  local extra
  extra=$(cd "$1" && find . -mindepth 1 ! -name run.json ! -name expected.json ! -name csv -print)
  [ -z "$extra" ] || fail "$2: left files behind: $extra"
}

rm -rf "$WORK" && mkdir -p "$WORK"
"$TOOL" "$WORK" --no-render >/dev/null || fail "fixture tool"

# 1. Interrupted run: exit 0, says INCOMPLETE, every sheet carries the banner.
d=$WORK/iops_interrupted
expect_rc 0 "interrupted run" -- "$PTSUITE" report "$d"
grep -q "INCOMPLETE RUN — partial results" <<<"$out" || fail "no INCOMPLETE line in: $out"
for f in iops.xlsx iops.json csv/iops.csv; do [ -s "$d/$f" ] || fail "missing $f"; done
cmp -s "$d/run.json" "$d/iops.json" || fail "the JSON report is not the run record"
"$PY" "$CHECK" "$d"; rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || fail "workbook check of the interrupted run"
[ "$rc" -eq 77 ] && echo "note: openpyxl missing, workbook contents not checked"

# 2. --format subset into --out: only those files.
out_dir=$WORK/subset
expect_rc 0 "--format xlsx,csv" -- "$PTSUITE" report "$WORK/throughput" --format csv,xlsx --out "$out_dir"
[ -s "$out_dir/throughput.xlsx" ] && [ -s "$out_dir/csv/throughput.csv" ] || fail "subset files missing"
[ -e "$out_dir/throughput.json" ] && fail "json written although not asked for"
rows=$(($(wc -l < "$out_dir/csv/throughput.csv") - 1))
[ "$rows" -eq 22 ] || fail "CSV has $rows rows, expected 22 (11 Rounds x 2 cells)"

# 3. No run.json.
mkdir -p "$WORK/empty"
expect_rc 2 "no run.json" -- "$PTSUITE" report "$WORK/empty"
grep -q "run.json" <<<"$out" || fail "message does not name run.json: $out"
[ -z "$(ls -A "$WORK/empty")" ] || fail "wrote into a directory without run.json"

# 4. A newer schema_version.
d=$WORK/latency
sed -i -E 's/"schema_version": *[0-9]+,/"schema_version": 999,/' "$d/run.json"
grep -q '"schema_version": 999' "$d/run.json" || fail "could not edit schema_version"
expect_rc 2 "newer schema" -- "$PTSUITE" report "$d"
grep -q "schema_version" <<<"$out" || fail "message does not name schema_version: $out"
no_report_files "$d" "newer schema"

# 5. Unwritable output: the out dir lies under a regular file; and csv/ is a file, so the
#    CSV fails after the workbook was rendered — the workbook must not appear either.
expect_rc 2 "out under a file" -- "$PTSUITE" report "$WORK/iops_tv6" --out "$WORK/iops_tv6/run.json/out"
grep -q "cannot create output directory" <<<"$out" || fail "unclear message: $out"
d=$WORK/iops_tv6
touch "$d/csv"
expect_rc 2 "csv/ is a file" -- "$PTSUITE" report "$d"
grep -q "csv" <<<"$out" || fail "message does not name csv: $out"
rm -f "$d/csv"
no_report_files "$d" "failed CSV"

# 6. Bad flags: every problem at once.
expect_rc 2 "bad flags" -- "$PTSUITE" report "$WORK/iops_tv6" --format xlsx,pdf --colour
grep -q "unknown format 'pdf'" <<<"$out" && grep -q "unknown option '--colour'" <<<"$out" ||
  fail "not every error reported: $out"
no_report_files "$WORK/iops_tv6" "bad flags"
echo "report_cli: all cases passed"
