#!/usr/bin/env bash
# unit-tests/e2e/pts_steady_tests.sh PTSUITE — IOPS (all 56 cells on a loop device), Throughput
# and Latency run to the end with tiny cells on a small target; each run directory is audited
# against its journal (check_run.py, independent of ptsuite: every cell of every round, verdicts, window averages).
source "$(dirname "$0")/lib.sh"
make_target 64M
common=(--cell-seconds 0.05 --max-rounds 6 --quiet)
for t in iops throughput latency; do
  start=$(date +%s%N)
  # a file target exists after the first run: later runs use it with --confirm
  "$PTSUITE" run "$t" "${TARGET_ARGS[@]}" --out "$WORK/$t" "${common[@]}" >"$WORK/$t.out" 2>"$WORK/$t.err" ||
    { cat "$WORK/$t.err"; fail "$t: exit $?"; }
  if [ -z "$LOOP" ]; then
    TARGET_ARGS=("$TARGET" --confirm "$(confirm_of "$TARGET")")
  fi
  cells=""; [ "$t" = iops ] && cells="--cells $IOPS_CELLS"
  python3 "$HERE/check_run.py" "$WORK/$t" $cells || fail "$t: run directory audit"
  for f in "$t.xlsx" "$t.json" "csv/$t.csv"; do [ -s "$WORK/$t/$f" ] || fail "$t: report file $f missing"; done
  grep -q "Measurement Window rounds" "$WORK/$t.out" || fail "$t: no summary on stdout"
  echo "$t: ok in $(( ($(date +%s%N) - start) / 1000000 )) ms"
done
