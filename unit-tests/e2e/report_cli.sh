#!/usr/bin/env bash
# unit-tests/e2e/report_cli.sh — `ptsuite report` end to end: an interrupted run gives a
# partial workbook marked INCOMPLETE (checked with openpyxl); --format picks the files; bad
# input (no run.json, newer schema_version, unwritable output, bad flags, --meta without '=',
# a --lab file with a syntax error, --format pdf without LibreOffice) exits 2 with a clear
# message and leaves nothing half-written; --meta/--lab reach every sheet; --format pdf.
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
expect_rc 2 "bad flags" -- "$PTSUITE" report "$WORK/iops_tv6" --format xlsx,docx --colour --meta tested_by
grep -q -- "--format: 'xlsx,docx' names an unknown format 'docx'" <<<"$out" && grep -q -- "--colour: unknown option" <<<"$out" &&
  grep -q -- "--meta: 'tested_by' is not KEY=VALUE" <<<"$out" || fail "not every error reported: $out"
no_report_files "$WORK/iops_tv6" "bad flags"

# 7. Operator fields: a --lab file with a syntax error names file:line; a table is refused;
#    good ones reach every sheet and the JSON report, and run.json is left as it was.
d=$WORK/throughput
printf 'tested_by = "Acme Labs"\nnand_type = TLC\n' > "$WORK/bad-lab.toml"
expect_rc 2 "lab syntax error" -- "$PTSUITE" report "$d" --lab "$WORK/bad-lab.toml"
grep -q "bad-lab.toml:2:" <<<"$out" || fail "lab error without file:line: $out"
printf '[site]\nroom = 4\n' > "$WORK/table-lab.toml"
expect_rc 2 "lab table" -- "$PTSUITE" report "$d" --lab "$WORK/table-lab.toml"
grep -q "table-lab.toml:1: 'site' must be a plain value" <<<"$out" || fail "unclear lab message: $out"
no_report_files "$d" "bad lab"
printf 'tested_by = "Acme Labs, J. Doe"\nform_factor = "U.2"\nrack = 7\n' > "$WORK/lab.toml"
before=$(md5sum < "$d/run.json")
expect_rc 0 "operator fields" -- "$PTSUITE" report "$d" --format xlsx,json --lab "$WORK/lab.toml" \
  --meta nand_type=TLC --meta "notes=first sample"
[ "$(md5sum < "$d/run.json")" = "$before" ] || fail "report --meta changed run.json"
"$PY" - "$d/throughput.xlsx" "$d/throughput.json" <<'PYEOF' || fail "operator fields not on every sheet"
import json, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
want = ["Acme Labs, J. Doe", "U.2", "TLC", "first sample", "rack:", "7", "Test sponsor:", "not stated"]
for ws in wb.worksheets:
    text = [str(v) for row in ws.iter_rows(values_only=True) for v in row if v is not None]
    missing = [w for w in want if w not in text]
    if missing:
        sys.exit(f"sheet {ws.title}: lacks {missing}")
fields = {f["key"]: f["value"] for f in json.load(open(sys.argv[2]))["operator_fields"]}
assert fields == {"tested_by": "Acme Labs, J. Doe", "form_factor": "U.2", "rack": "7", "nand_type": "TLC",
                  "notes": "first sample"}, fields
PYEOF
rm -f "$d/throughput.xlsx" "$d/throughput.json"

# 8. --format pdf without LibreOffice: exit 2 before anything is written.
d=$WORK/throughput
expect_rc 2 "pdf without soffice" -- env PATH=/nonexistent PTSUITE_SOFFICE= "$PTSUITE" report "$d" --format xlsx,pdf
grep -q "soffice is not installed" <<<"$out" || fail "unclear message: $out"
no_report_files "$d" "pdf without soffice"
expect_rc 2 "PTSUITE_SOFFICE not executable" -- env PTSUITE_SOFFICE=/nonexistent/soffice "$PTSUITE" report "$d" --format pdf
no_report_files "$d" "bad PTSUITE_SOFFICE"

# 9. --format pdf with LibreOffice (when installed): the PDF, nothing else, no work dir left.
if command -v soffice >/dev/null; then
  expect_rc 0 "pdf" -- "$PTSUITE" report "$d" --format pdf
  [ -s "$d/throughput.pdf" ] || fail "no throughput.pdf"
  extra=$(cd "$d" && find . -mindepth 1 ! -name run.json ! -name expected.json ! -name throughput.pdf -print)
  [ -z "$extra" ] || fail "pdf left files behind: $extra"
  head -c 5 "$d/throughput.pdf" | grep -q "%PDF-" || fail "throughput.pdf is not a PDF"
fi
# 10. An older record without stored window results: upgraded by pts' window_results() (a
#     note says so), and the workbook's matrix equals the golden expectation.
d=$WORK/latency_old
cp -r "$WORK/iops_tv6" "$d" && rm -f "$d"/iops.* && rm -rf "$d/csv"
"$PY" - "$d/run.json" <<'PYEOF' || fail "could not strip window_results"
import json, sys
r = json.load(open(sys.argv[1]))
for st in r["subtests"]:
    st["window_results"] = []
json.dump(r, open(sys.argv[1], "w"))
PYEOF
expect_rc 0 "older record" -- "$PTSUITE" report "$d" --format xlsx,csv
grep -q "no stored window results (an older record)" <<<"$out" || fail "no upgrade note: $out"
"$PY" "$CHECK" "$d" --no-json >/dev/null || fail "upgraded record: $("$PY" "$CHECK" "$d" --no-json | head -5)"
echo "report_cli: all cases passed"
