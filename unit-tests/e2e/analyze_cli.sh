#!/usr/bin/env bash
# unit-tests/e2e/analyze_cli.sh — end-to-end checks of `ptsuite analyze`, `plan` and `list`
# (owner: steady). Usage: analyze_cli.sh PTSUITE CASE. Fixtures live in analyze_fixtures/.
# Every bad-input case must print a message naming the file:line or flag, exit 2 and leave
# the target untouched. Exit 77 = skipped (the 4Kn loop case without root/losetup).
set -uo pipefail
BIN=$1
CASE=$2
FIX=$(cd "$(dirname "$0")/analyze_fixtures" && pwd)
export PTSUITE_TESTS_DIR=$(cd "$(dirname "$0")/../../tests-pts" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() { echo "FAIL: $*"; echo "--- stdout"; cat "$TMP/out"; echo "--- stderr"; cat "$TMP/err"; exit 1; }
# run EXPECTED_RC ARGS... : runs ptsuite, checks the exit code
run() {
  local want=$1; shift
  "$BIN" "$@" >"$TMP/out" 2>"$TMP/err"
  local rc=$?
  [ "$rc" -eq "$want" ] || fail "ptsuite $* exited $rc, expected $want"
}
has() { grep -qF -- "$2" "$TMP/$1" || fail "$1 lacks: $2"; }
hasnt() { ! grep -qF -- "$2" "$TMP/$1" || fail "$1 should not contain: $2"; }

case "$CASE" in
analyze-table)
  run 0 analyze "$FIX/settles.csv"
  has out "9 Rounds; Measurement Window 5 Rounds"
  has out "First steady round: 7 (Measurement Window Rounds 3-7)"
  # window 3-7 = 900,1000,1000,1000,1000: average 980, slope 20, slope excursion 80
  grep -E '^3-7 +980 +20 +.*80 +98 +pass +pass +STEADY' "$TMP/out" >/dev/null || fail "window 3-7 row"
  grep -E '^2-6 .*FAIL' "$TMP/out" >/dev/null || fail "window 2-6 must fail"
  run 0 analyze "$FIX/ramp.csv" --window 5
  has out "Steady state not achieved in any window (last window Rounds 2-6)"
  run 0 analyze "$FIX/ramp.csv" --window 3
  # window 2-4 (950,1000,1050): slope excursion 100 = exactly 10 % of 1000, passes inclusively
  has out "First steady round: 4 (Measurement Window Rounds 2-4)"
  ;;
analyze-json)
  run 0 analyze "$FIX/at_limit.csv" --json
  python3 - "$TMP/out" <<'PY' || fail "JSON shape"
import json, sys
d = json.load(open(sys.argv[1]))
w = d["windows"]
assert len(w) == 1, w
w = w[0]
for k in ("first_round", "last_round", "average", "slope", "intercept", "data_excursion", "slope_excursion", "steady"):
    assert k in w, k
assert (w["first_round"], w["last_round"]) == (1, 5)
assert abs(w["average"] - 1000) < 1e-9 and abs(w["slope"] - 25) < 1e-9 and abs(w["intercept"] - 925) < 1e-9
assert abs(w["slope_excursion"] - 100) < 1e-9 and abs(w["allowed_slope_excursion"] - 100) < 1e-9
assert w["steady"] is True and d["first_steady_round"] == 5
PY
  run 0 analyze "$FIX/ramp.csv" --json
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["first_steady_round"] is None and len(d["windows"])==2' "$TMP/out" || fail "null first_steady_round"
  ;;
analyze-bad-input)
  run 2 analyze "$FIX/text.csv"
  has err "text.csv:4: '1OOO' is not a number"
  has err "text.csv:6: 'n/a' is not a number"
  [ ! -s "$TMP/out" ] || fail "nothing on stdout for bad input"
  run 2 analyze "$FIX/settles.csv" --window 1
  has err "--window: '1' is not a Round count"
  run 2 analyze "$FIX/settles.csv" --window 12
  has err "9 value(s); a Measurement Window of 12 Rounds needs at least 12"
  run 2 analyze "$FIX/missing.csv" --jsn
  has err "--jsn: unknown option"
  has err "missing.csv: cannot read the series file"
  run 2 analyze
  has err "SERIES.csv: missing"
  ;;
plan-nominal)
  run 0 plan iops
  has out "Plan: IOPS (iops), PTS 2.0.2 enterprise"
  has out "NOMINAL identity"
  has out "Cells in Round order (56; R/W mix outer, block size inner)"
  has out "RND 4 KiB 0/100 IOPS"
  has out "RND 64 KiB 65/35 IOPS"
  has out "RND 1024 KiB 100/0 IOPS"
  has out "= 2199023255552 bytes"
  has out "worst case 25 Rounds = 23 h 20 min"
  has out "at an assumed 1000 MB/s (--wipc-mbps; the drive decides)"
  has out "Deviations from the spec: none"
  run 0 plan lat --pts pts-e-1.1 --cell-seconds 2 --max-rounds 6 --lba-size 4096
  has out "TC 1 / QD 1"
  has out "[cell-seconds] cells last 2 s instead of the 60 s"
  has out "[max-rounds] at most 6 Rounds instead of the spec's 25"
  has out "[cells-not-applicable] main: 3 cell(s) not run on this 4096-byte LBA format"
  has out "NOT APPLICABLE: block size 0.5 KiB is smaller than the target's 4096-byte LBA size"
  run 0 plan tp --class client --json
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); p=d["plan"]; assert [s["id"] for s in p["subtests"]]==["bs1024k"] and p["active_range_pct"]==75 and p["write_cache_enabled"] is True and d["worst_case"]["rounds_seconds"]==3000' "$TMP/out" || fail "plan --json"
  ;;
plan-bad-input)
  printf 'precious' >"$TMP/target.img"; truncate -s 64M "$TMP/target.img"
  sum=$(md5sum <"$TMP/target.img")
  run 2 plan "$FIX/typo.toml" "$TMP/target.img"
  has err "typo.toml:8: [steady_state] cell_seconds = -60 must be greater than 0"
  has err "typo.toml:12: unknown key 'rw_mixx' in [matrix] (did you mean 'rw_mix'?)"
  has err "typo.toml:17: [[subtest]] block_sizes 'fourk' is not a block size"
  run 2 plan iops "$TMP/target.img" --cell-seconds -5 --oio 0 --pts pts-3 --frobnicate
  has err "--cell-seconds: '-5' is not a positive number of seconds"
  has err "--oio: '0' is not a queue depth"
  has err "--pts: 'pts-3' is not an edition"
  has err "--frobnicate: unknown option"
  run 2 plan iops --pts pts-e-1.1 --class client
  has err "PTS-E 1.1 is the enterprise edition"
  run 2 plan isw
  has err "unknown test 'isw' (known: "
  for part in " dirth ecw/cbw hir " " iops latency/lat " " throughput/tp wsat xsr)" " curve-sql " " sweep-qd "; do
    has err "$part"
  done
  run 2 plan iops --max-rounds 3
  has err "--max-rounds 3 is shorter than the Measurement Window of 5 Rounds"
  run 2 plan iops --lba-size 8192
  has err "Tracking Variable RND 4 KiB 0/100 IOPS cannot be measured"
  [ "$(md5sum <"$TMP/target.img")" = "$sum" ] || fail "target changed"
  ;;
plan-4kn-loop)
  [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null || { echo "SKIP: needs root and losetup"; exit 77; }
  truncate -s 256M "$TMP/4kn.img"
  LOOP=$(losetup --sector-size 4096 -f --show "$TMP/4kn.img") || { echo "SKIP: no loop device"; exit 77; }
  trap 'losetup -d "$LOOP"; rm -rf "$TMP"' EXIT
  run 0 plan iops "$LOOP"
  has out "Target: $LOOP"
  has out "268435456 bytes), 4096-byte LBAs"
  has out "= 536870912 bytes"
  has out "[cells-not-applicable] main: 7 cell(s) not run on this 4096-byte LBA format"
  run 0 plan tp "$LOOP" --active-range 50
  has out "SEQ 1024 KiB write over the 50 % ActiveRange, TC 1 / QD 32, 2 x user capacity = 536870912 bytes"
  has out "about 0.54 s at 1000 MB/s (assumed)"   # a duration, not "0.536871 s"
  has out "[active-range] ActiveRange 50 % instead of the 100 %"
  ;;
list)
  run 0 list
  has out "iops"
  has out "latency, lat"
  has out "throughput, tp"
  for t in wsat hir xsr dirth; do has out "  $t "; done
  has out "  ecw, cbw "
  has out "Enterprise Composite Workload"
  has out "sub-tests: bs1024k, bs128k"
  hasnt out "_template"
  mkdir "$TMP/defs" && cp "$FIX/typo.toml" "$TMP/defs/"
  PTSUITE_TESTS_DIR="$TMP/defs" run 2 list
  has err "typo.toml:12: unknown key 'rw_mixx'"
  ;;
*)
  echo "unknown case $CASE"; exit 1 ;;
esac
echo "ok: $CASE"
