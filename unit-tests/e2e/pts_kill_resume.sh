#!/usr/bin/env bash
# unit-tests/e2e/pts_kill_resume.sh PTSUITE — kill -9 in the middle of a run, then `resume`
# completes it (one resume-gap deviation, every cell of every round once); Ctrl-C stops after
# the current cell with exit 130 and a valid partial run.json, and `resume` completes that too.
source "$(dirname "$0")/lib.sh"
make_target 64M

wait_for_cells() {  # wait_for_cells DIR N: until the journal holds N cell events
  for _ in $(seq 1 600); do
    [ -f "$1/journal.jsonl" ] && [ "$(grep -c '"event":"cell"' "$1/journal.jsonl" || true)" -ge "$2" ] && return 0
    sleep 0.05
  done
  fail "the run never reached $2 cells"
}

# kill -9 in round 2 of Latency (9 cells a round)
"$PTSUITE" run latency "${TARGET_ARGS[@]}" --out "$WORK/killed" --cell-seconds 0.05 --max-rounds 6 --quiet \
  >"$WORK/killed.out" 2>&1 & BG_PID=$!
wait_for_cells "$WORK/killed" 13
kill -9 "$BG_PID"; wait "$BG_PID" 2>/dev/null || true; BG_PID=""
python3 - "$WORK/killed/run.json" <<'PY' || fail "run.json after kill -9 is not a valid partial run"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["state"] == "running", r["state"]
assert r["subtests"][0]["rounds"], "no round saved"
PY
"$PTSUITE" resume "$WORK/killed" "${CONFIRM_ARGS[@]}" --quiet >"$WORK/resume1.out" 2>&1 || { cat "$WORK/resume1.out"; fail "resume after kill -9"; }
python3 "$HERE/check_run.py" "$WORK/killed" --resumed || fail "audit after kill -9 + resume"
echo "kill -9 + resume: ok"

# Ctrl-C (SIGINT) in the middle: exit 130 after the current cell, partial run, then resume
[ -n "$LOOP" ] || { CONFIRM_ARGS=(--confirm "$(confirm_of "$TARGET")"); TARGET_ARGS=("$TARGET" "${CONFIRM_ARGS[@]}"); }
"$PTSUITE" run latency "${TARGET_ARGS[@]}" --out "$WORK/sigint" --cell-seconds 0.05 --max-rounds 6 --quiet \
  >"$WORK/sigint.out" 2>&1 & BG_PID=$!
wait_for_cells "$WORK/sigint" 5
kill -INT "$BG_PID"
rc=0; wait "$BG_PID" || rc=$?; BG_PID=""
[ "$rc" = 130 ] || { cat "$WORK/sigint.out"; fail "SIGINT: exit $rc, expected 130"; }
python3 - "$WORK/sigint/run.json" <<'PY' || fail "run.json after SIGINT"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["state"] == "interrupted", r["state"]
rounds = r["subtests"][0]["rounds"]
assert rounds and all(c["cell_id"] for rd in rounds for c in rd["cells"])
PY
[ -s "$WORK/sigint/latency.xlsx" ] || fail "no partial report after SIGINT"
"$PTSUITE" resume "$WORK/sigint" "${CONFIRM_ARGS[@]}" --quiet >"$WORK/resume2.out" 2>&1 || { cat "$WORK/resume2.out"; fail "resume after SIGINT"; }
python3 "$HERE/check_run.py" "$WORK/sigint" --resumed || fail "audit after SIGINT + resume"
"$PTSUITE" resume "$WORK/sigint" | grep -q "already complete" || fail "resume of a complete run"
echo "SIGINT + resume: ok"
