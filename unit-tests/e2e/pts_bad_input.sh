#!/usr/bin/env bash
# unit-tests/e2e/pts_bad_input.sh PTSUITE — `ptsuite run` refuses bad input with exit 2, one
# clear message per problem (all at once), and leaves the target untouched.
source "$(dirname "$0")/lib.sh"
T=$WORK/target.img
head -c $((16 * 1024 * 1024)) /dev/urandom >"$T"
before=$(sha256sum "$T")
mkdir -p "$WORK/full" && echo x >"$WORK/full/something"

expect2() {  # expect2 NAME PATTERN ARGS...: exit 2, stderr matches every |-separated pattern
  local name=$1 pattern=$2; shift 2
  local rc=0
  "$PTSUITE" run "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" || rc=$?
  [ "$rc" = 2 ] || { cat "$WORK/$name.err"; fail "$name: exit $rc, expected 2"; }
  IFS='|' read -ra pats <<<"$pattern"
  for p in "${pats[@]}"; do grep -q -- "$p" "$WORK/$name.err" || { cat "$WORK/$name.err"; fail "$name: no '$p' in the message"; }; done
  [ "$(sha256sum "$T")" = "$before" ] || fail "$name: the target changed"
  echo "$name: ok ($(head -1 "$WORK/$name.err"))"
}

expect2 out-not-empty "--out $WORK/full: exists and is not empty" iops "$T" --out "$WORK/full" --confirm whatever
expect2 unknown-test "nosuchtest" nosuchtest "$T" --out "$WORK/a"
expect2 bad-override "--cell-seconds|--max-rounds" iops "$T" --out "$WORK/b" --cell-seconds -1 --max-rounds zero
expect2 all-at-once "--out|nosuchtest|--bogus" nosuchtest "$T" --out "$WORK/full" --bogus
expect2 missing-target-size "--size" iops "$WORK/missing.img" --out "$WORK/c"
# Engine limits and the plan's fit to the target are checked when the plan is resolved, right
# after the guard (which runs first, so an in-use target is exit 3): with consent given, nothing
# is purged. A file is confirmed with its path (info's confirm_with), never its made-up serial.
serial=$(confirm_of "$T")
expect2 engine-ring "--oio 40000: the io_uring engine keeps at most 32768" iops "$T" --out "$WORK/e" --confirm "$serial" --oio 40000
expect2 engine-buffers "registers at most 1.0 GiB per region" throughput "$T" --out "$WORK/f" --confirm "$serial" --oio 2048
expect2 engine-cell "--cell-seconds 0.001: shorter than the 0.01 s" latency "$T" --out "$WORK/g" --confirm "$serial" --cell-seconds 0.001
expect2 wipc-oio-zero "--wipc-oio: '0' is not a WIPC queue depth" iops "$T" --out "$WORK/c" --wipc-oio 0
expect2 poll-budget-negative "--poll-budget: '-1' is not a poll budget" iops "$T" --out "$WORK/c" --poll-budget -1
expect2 ar-segments-do-not-fit "iops.toml:63: active_range_segments 2048|do not fit the ActiveRange" \
  iops "$T" --out "$WORK/c" --class client --confirm "$serial"
expect2 wipc-threads-zero "--wipc-threads: '0' is not a WIPC thread count" iops "$T" --out "$WORK/c" --wipc-threads 0
[ ! -e "$WORK/a" ] && [ ! -e "$WORK/b" ] && [ ! -e "$WORK/c" ] && [ ! -e "$WORK/e" ] && [ ! -e "$WORK/f" ] &&
  [ ! -e "$WORK/g" ] || fail "a run directory was created for bad input"
[ ! -e "$WORK/missing.img" ] || fail "a target was created for bad input"
# No consent: an existing target that ptsuite did not create needs --confirm (exit 3, untouched).
rc=0; "$PTSUITE" run iops "$T" --out "$WORK/d" --cell-seconds 0.05 </dev/null >/dev/null 2>"$WORK/noconfirm.err" || rc=$?
[ "$rc" = 3 ] || { cat "$WORK/noconfirm.err"; fail "no --confirm: exit $rc, expected 3"; }
[ "$(sha256sum "$T")" = "$before" ] || fail "no --confirm: the target changed"
echo "no-confirm: ok ($(head -1 "$WORK/noconfirm.err"))"
