#!/usr/bin/env bash
# unit-tests/e2e/pts_crash_matrix.sh PTSUITE [SEED] — a crash never becomes a wrong result.
# Part 1: kill -9 at 20 random points of a real run on a loop device (during the purge, WIPC,
# a Round, the report), then `ptsuite resume`: every run must either complete with a record
# that check_run.py (independent Python, no ptsuite code) accepts, or be refused with a clear
# reason — never a silent wrong record. run.json must be valid JSON at every kill.
# Part 2: honest device faults on a loop device whose backing file lives on a small tmpfs
# that the test fills: the purge's writes fail (exit 4) and resume purges again; a cell's
# writes fail (exit 5), the cell is recorded as failed and resume runs it again.
# CI-sized: a 32 MiB target, 20 ms cells, 5 Rounds. SEED makes the kill points reproducible.
source "$(dirname "$0")/lib.sh"
SEED=${2:-$(( $(date +%s) % 100000 ))}
RANDOM=$SEED
echo "seed $SEED (re-run with: $0 PTSUITE $SEED)"
[ "$(id -u)" = 0 ] && command -v losetup >/dev/null || { echo "needs root and losetup"; exit 77; }
make_target 32M
[ -n "$LOOP" ] || { echo "needs a loop device"; exit 77; }
RUN=(latency "${TARGET_ARGS[@]}" --cell-seconds 0.02 --max-rounds 5 --quiet)

events() { local n; n=$(grep -c "$2" "$1/journal.jsonl" 2>/dev/null) || true; echo "${n:-0}"; }
wait_for() {  # wait_for DIR PATTERN COUNT: until the journal holds COUNT lines matching PATTERN
  for _ in $(seq 1 4000); do
    [ "$(events "$1" "$2")" -ge "$3" ] && return 0
    kill -0 "$BG_PID" 2>/dev/null || return 1
    sleep 0.002
  done
  return 1
}
valid_json_or_absent() {
  [ ! -e "$1/run.json" ] || python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1/run.json"
}

completed=0; refused=0; phases=""
# 20 kill points: 3 in the purge, 4 in WIPC, 10 in Rounds, 3 while the report is written.
plan=(purge purge purge wipc wipc wipc wipc round round round round round round round round round round report report report)
for i in "${!plan[@]}"; do
  phase=${plan[$i]}; dir=$WORK/crash-$i
  "$PTSUITE" run "${RUN[@]}" --out "$dir" >"$dir.out" 2>&1 & BG_PID=$!
  case $phase in
    purge) wait_for "$dir" '"state":"Purge"' 1 || true; sleep "0.00$((RANDOM % 3))" ;;
    wipc) wait_for "$dir" '"state":"WIPC"' 1 || true; sleep "0.0$((RANDOM % 8))" ;;
    round) wait_for "$dir" '"event":"cell"' $((1 + RANDOM % 40)) || true ;;
    report) wait_for "$dir" '"event":"finish"' 1 || true; sleep "0.0$((RANDOM % 5))" ;;
  esac
  kill -9 "$BG_PID" 2>/dev/null || true; wait "$BG_PID" 2>/dev/null || true; BG_PID=""
  where="$(events "$dir" '"event":"cell"') cells, $(events "$dir" '"event":"finish"') finish"
  valid_json_or_absent "$dir" || fail "kill $i ($phase, $where): run.json is not valid JSON"
  rc=0; "$PTSUITE" resume "$dir" "${CONFIRM_ARGS[@]}" --quiet >"$dir.resume" 2>&1 || rc=$?  # resume asks again
  if [ "$rc" = 0 ]; then
    args=(); grep -q '"state":"Resume"' "$dir/journal.jsonl" && args=(--resumed)
    python3 "$HERE/check_run.py" "$dir" "${args[@]}" >"$dir.check" ||
      { cat "$dir.check" "$dir.resume"; fail "kill $i ($phase, $where): resumed record rejected by check_run.py"; }
    for f in latency.xlsx latency.json csv/latency.csv; do
      [ -s "$dir/$f" ] || fail "kill $i ($phase): report file $f missing after resume"
    done
    completed=$((completed + 1))
  else
    # A refusal must say why (nothing journaled yet: no run directory or journal to continue).
    grep -qE "no journal|not a run directory|no such run directory|holds no complete event" "$dir.resume" ||
      { cat "$dir.resume"; fail "kill $i ($phase, $where): resume exit $rc without a clear reason"; }
    [ ! -s "$dir/run.json" ] || fail "kill $i ($phase): refused, yet a run.json was left"
    refused=$((refused + 1))
  fi
  phases="$phases $phase:$where"
  echo "kill $i during $phase ($where): resume exit $rc"
done
echo "crash matrix: 20 kills, $completed completed after resume and passed check_run.py, $refused refused with a reason"

# Part 2: device faults from a full backing store.
MNT=$WORK/mnt; mkdir -p "$MNT"
mount -t tmpfs -o size=40m tmpfs "$MNT" || { echo "cannot mount a tmpfs: fault part skipped"; exit 77; }
FLOOP=""
cleanup_faults() { [ -n "$FLOOP" ] && losetup -d "$FLOOP" 2>/dev/null; umount "$MNT" 2>/dev/null || true; }
trap 'cleanup_faults; cleanup' EXIT
truncate -s 32M "$MNT/backing.img"                # sparse: every block written needs tmpfs space
FLOOP=$(losetup -f --show --direct-io=on "$MNT/backing.img")
fserial=$(confirm_of "$FLOOP")  # a loop device: its backing file, never the made-up LOOP- serial
fill() { dd if=/dev/zero of="$MNT/filler" bs=1M status=none 2>/dev/null || true; }  # until ENOSPC
FRUN=(latency "$FLOOP" --confirm "$fserial" --cell-seconds 0.02 --max-rounds 5 --quiet)

# a) the purge cannot write its LBA read-back pattern: exit 4; resume purges again and completes.
fill
rc=0; "$PTSUITE" run "${FRUN[@]}" --out "$WORK/purge-fault" >"$WORK/pf.out" 2>&1 || rc=$?
[ "$rc" = 4 ] || { cat "$WORK/pf.out"; fail "purge on a full backing store: exit $rc, expected 4"; }
grep -q "purge" "$WORK/pf.out" || { cat "$WORK/pf.out"; fail "purge failure not named"; }
rm -f "$MNT/filler"
"$PTSUITE" resume "$WORK/purge-fault" --confirm "$fserial" --quiet >"$WORK/pf.resume" 2>&1 || { cat "$WORK/pf.resume"; fail "resume after the failed purge"; }
[ "$(events "$WORK/purge-fault" '"state":"Purge"')" -ge 2 ] || fail "resume did not purge again"
python3 "$HERE/check_run.py" "$WORK/purge-fault" --resumes 1 || fail "audit after the purge fault"
echo "failed purge (backing store full): exit 4, resume purged again: ok"

# b) a cell's writes fail mid-Round: exit 5, recorded as failed; resume runs it again.
dir=$WORK/cell-fault
"$PTSUITE" run "${FRUN[@]}" --out "$dir" >"$WORK/cf.out" 2>&1 & BG_PID=$!
wait_for "$dir" '"event":"cell"' 3 || fail "the fault run never reached Round 1"
fallocate -p -o 0 -l 24M "$MNT/backing.img"       # free the pages the next writes will need,
fill                                               # and let nothing else have them
rc=0; wait "$BG_PID" || rc=$?; BG_PID=""
[ "$rc" = 5 ] || { cat "$WORK/cf.out"; fail "cell on a full backing store: exit $rc, expected 5"; }
grep -q "recorded as failed" "$WORK/cf.out" || { cat "$WORK/cf.out"; fail "the failed cell is not named"; }
rm -f "$MNT/filler"
"$PTSUITE" resume "$dir" --confirm "$fserial" --quiet >"$WORK/cf.resume" 2>&1 || { cat "$WORK/cf.resume"; fail "resume after the failed cell"; }
python3 "$HERE/check_run.py" "$dir" --resumes 1 || fail "audit after the cell fault"
python3 - "$dir/run.json" <<'PY' || fail "the failed cell is not on record"
import json, sys
s = json.load(open(sys.argv[1]))["subtests"][0]
assert s["failed_cells"] and all(f["cell"]["io_errors"] > 0 for f in s["failed_cells"]), s["failed_cells"]
print(f"failed cell on record: round {s['failed_cells'][0]['round']} {s['failed_cells'][0]['cell']['cell_id']}, "
      f"{s['failed_cells'][0]['cell']['io_errors']} I/O errors; re-run and not in any window")
PY
echo "failed cell (backing store full): exit 5, resume ran it again: ok"
