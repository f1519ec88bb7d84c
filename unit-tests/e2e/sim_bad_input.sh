#!/usr/bin/env bash
# unit-tests/e2e/sim_bad_input.sh PTSUITE — bad simulated-drive input: unknown profile or
# parameter, op <= 0, a capacity that is not a multiple of the page, a state file of another
# profile, of a newer format or corrupted: one clear message, exit 2, the state file untouched.
# A state file locked by another process is refused by the guard (exit 3).
source "$(dirname "$0")/sim_lib.sh"
S="$WORK/s.simdrive"
"$PTSUITE" spec "sim:tiny@$S" --rw randwrite --seconds 2 >/dev/null || fail "make the drive"
good=$(sum "$S")

expect() {  # expect CODE PATTERN CMD...: exit CODE, stderr matching PATTERN, state file untouched
  local code=$1 pattern=$2; shift 2
  local rc=0; "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
  [ "$rc" = "$code" ] || { cat "$WORK/err"; fail "'$*': exit $rc, expected $code"; }
  grep -q -- "$pattern" "$WORK/err" || { cat "$WORK/err"; fail "'$*': no message matching '$pattern'"; }
  [ "$(sum "$S")" = "$good" ] || fail "'$*' changed the state file"
}
for cmd in info "run iops" "spec"; do
  # shellcheck disable=SC2086
  expect 2 "unknown simulated-drive profile 'nope'" "$PTSUITE" $cmd "sim:nope@$S"
  expect 2 "unknown parameter 'speed'" "$PTSUITE" $cmd "sim:tiny,speed=9@$S"
  expect 2 "op=0%" "$PTSUITE" $cmd "sim:tiny,op=0%@$S"
  expect 2 "op=-3%" "$PTSUITE" $cmd "sim:tiny,op=-3%@$S"
  expect 2 "not a multiple of the 4096-byte page" "$PTSUITE" $cmd "sim:tiny,capacity=1000000001@$S"
  expect 2 "profile 'tiny'" "$PTSUITE" $cmd "sim:demo@$S"
  expect 2 "differs from the target" "$PTSUITE" $cmd "sim:tiny,op=28%@$S"
done
# Bad run input found after the drive is held (the plan needs its identity): exit 2, untouched.
serial=$(serial_of "sim:tiny@$S")
expect 2 "I/Os in flight" "$PTSUITE" run iops "sim:tiny@$S" --confirm "$serial" --threads 2 --oio 40000
expect 2 "no-such-test" "$PTSUITE" run no-such-test "sim:tiny@$S" --confirm "$serial"
expect 2 "bogus" "$PTSUITE" purge "sim:tiny@$S" --confirm "$serial" --purge bogus
expect 2 "longer than the" "$PTSUITE" spec "sim:tiny@$S" --confirm "$serial" --rw randwrite --seconds 1000000
cp "$S" "$WORK/keep"
printf '\x09' | dd of="$S" bs=1 seek=16 conv=notrunc status=none   # format version 9
good=$(sum "$S")
expect 2 "newer than this ptsuite" "$PTSUITE" run iops "sim:tiny@$S"
cp "$WORK/keep" "$S"
size=$(stat -c %s "$S")
python3 - "$S" "$((size / 2))" <<'PY'  # flip 4 bytes in the middle (0xFF over 0xFF would change nothing)
import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(int(sys.argv[2])); b = f.read(4); f.seek(int(sys.argv[2])); f.write(bytes(x ^ 0xFF for x in b))
PY
good=$(sum "$S")
expect 2 "corrupted" "$PTSUITE" info "sim:tiny@$S"
expect 2 "corrupted" "$PTSUITE" run iops "sim:tiny@$S"
cp "$WORK/keep" "$S"; good=$(sum "$S")
# Locked by another process: the guard refuses (exit 3), nothing written.
flock -x "$S" sleep 30 & BG_PID=$!
sleep 0.3
expect 3 "in use by another process" "$PTSUITE" spec "sim:tiny@$S" --rw randwrite --seconds 1
expect 3 "in use by another process" "$PTSUITE" purge "sim:tiny@$S" --confirm "$(serial_of "sim:tiny@$S")"
# The holder's sleep is flock's child, holding the lock and this test's output: end it, or
# ctest waits out its 30 s for the pipe to close.
pkill -P "$BG_PID" sleep 2>/dev/null || true; wait "$BG_PID" 2>/dev/null || true; BG_PID=""
echo "simulated drive bad input: ok"
