#!/usr/bin/env bash
# unit-tests/e2e/pts_phase_tests.sh PTSUITE [TEST...] — WSAT, HIR, XSR, DIRTH and ECW run to the
# end on a small loop device, scaled down (--time-scale, tiny cells, and scaled copies of the
# definitions where a count or the TC × QD grid must shrink: every change is a recorded
# deviation). Each run directory is audited by phase_run_audit.py in its own arithmetic; HIR's
# idle periods and continuous Access C are checked against the kernel's own block counters,
# sampled by blockstat_sampler.py while the run goes. Each report workbook must open (openpyxl)
# with its sheets, and in LibreOffice, printing one page per report sheet (check_pdf.py).
source "$(dirname "$0")/lib.sh"
shift
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(wsat hir xsr dirth ecw)
make_target 64M
DEFS=$(cd "$HERE/../../tests-pts" && pwd)
common=(--cell-seconds 0.02 --max-rounds 5 --quiet)

# scaled DEF KEY VALUE...: a copy of tests-pts/DEF.toml with KEY = VALUE lines replaced.
scaled() {
  local def=$1 out=$WORK/$1-scaled.toml
  shift
  cp "$DEFS/$def.toml" "$out"
  while [ $# -gt 0 ]; do
    sed -i -E "s|^$1 = .*|$1 = $2|" "$out"
    grep -qxF "$1 = $2" "$out" || fail "could not set $1 in $out"
    shift 2
  done
  echo "$out"
}

run_test() {
  local t=$1 def=$1
  shift
  local start=$(date +%s%N)
  local extra=("$@")
  local sampler=""
  if [ "$t" = hir ] && [ -n "$LOOP" ]; then
    python3 "$HERE/blockstat_sampler.py" "$LOOP" "$WORK/hir-blockstat.txt" &
    sampler=$!
  fi
  case $t in
    # Access C as 4 samples of 75 s × 0.002 = 0.15 s: each sample long against the engine's
    # restart between samples, so the kernel counters can tell a restart from idling.
    hir) def=$(scaled hir repetitions 20 access_c_samples 4 access_c_sample_seconds 75) ;;
    dirth | ecw) def=$(scaled "$t" thread_counts "[4, 2, 1]" queue_depths "[8, 4, 1]" precondition_round_cells 10) ;;
  esac
  local rc=0
  "$PTSUITE" run "$def" "${TARGET_ARGS[@]}" --out "$WORK/$t" "${common[@]}" "${extra[@]}" \
    >"$WORK/$t.out" 2>"$WORK/$t.err" || rc=$?
  if [ -n "$sampler" ]; then kill -TERM "$sampler"; wait "$sampler" || true; fi
  [ $rc = 0 ] || { cat "$WORK/$t.err"; fail "$t: exit $rc"; }
  local audit=()
  [ -n "$sampler" ] && audit=(--blockstat "$WORK/hir-blockstat.txt")
  python3 "$HERE/phase_run_audit.py" "$t" "$WORK/$t" "${audit[@]}" || fail "$t: run directory audit"
  local tid
  tid=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["plan"]["test_id"])' "$WORK/$t/run.json")
  for f in "$tid.xlsx" "$tid.json" "csv/$tid.csv"; do [ -s "$WORK/$t/$f" ] || fail "$t: report file $f missing"; done
  /usr/bin/python3 - "$WORK/$t/$tid.xlsx" <<'EOF' || fail "$t: the workbook does not open"
import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
assert len(wb.sheetnames) >= 3, wb.sheetnames
print("  workbook: %d sheets: %s" % (len(wb.sheetnames), ", ".join(wb.sheetnames)))
EOF
  BOOKS+=("$WORK/$t/$tid.xlsx")
  SERIALS+=("$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["device"]["serial"])' "$WORK/$t/run.json")")
  echo "$t: ok in $(( ($(date +%s%N) - start) / 1000000 )) ms"
}
BOOKS=()
SERIALS=()

for t in "${tests[@]}"; do
  case $t in
    wsat) run_test wsat --time-scale 0.0001 ;;
    hir) run_test hir --time-scale 0.002 ;;
    xsr) run_test xsr --time-scale 0.00005 --cell-seconds 0.05 ;;
    dirth | ecw) run_test "$t" --time-scale 0.0002 --threads 4 --oio 8 ;;
    *) fail "unknown test $t" ;;
  esac
done

# Every workbook opens in LibreOffice and prints one page per report sheet (+ the Raw pages),
# the serial and the page's caption on each: one soffice call for all of them.
if command -v soffice >/dev/null && command -v pdftotext >/dev/null; then
  timeout 600 soffice --headless --norestore "-env:UserInstallation=file://$WORK/lo-profile" \
    --convert-to pdf --outdir "$WORK/pdf" "${BOOKS[@]}" >"$WORK/soffice.log" 2>&1 || fail "soffice: $(cat "$WORK/soffice.log")"
  for k in "${!BOOKS[@]}"; do
    pdf=$WORK/pdf/$(basename "${BOOKS[$k]}" .xlsx).pdf
    /usr/bin/python3 "$HERE/../report/check_pdf.py" "${BOOKS[$k]}" "$pdf" "${SERIALS[$k]}" ||
      fail "$(basename "${BOOKS[$k]}"): LibreOffice pages do not follow the workbook"
  done
elif [ -n "${CI:-}" ]; then
  fail "CI needs LibreOffice (libreoffice-calc-nogui) and poppler-utils to open the workbooks"
else
  echo "LibreOffice check skipped: soffice or pdftotext not installed"
fi
