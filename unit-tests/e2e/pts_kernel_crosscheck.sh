#!/usr/bin/env bash
# unit-tests/e2e/pts_kernel_crosscheck.sh PTSUITE — a scaled IOPS run on a loop device (root,
# losetup; else skipped, exit 77, and CI refuses the skip): run.json must hold the kernel
# cross-check for every cell, the engine's and the kernel's I/O counts within 1 % (checked by
# kernel_crosscheck.py reading run.json, not by ptsuite).
source "$(dirname "$0")/lib.sh"
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null || [ ! -e /dev/loop-control ]; then
  [ "${CI:-}" = "" ] || fail "CI must run this test on a loop device (root, losetup)"
  echo "SKIP: needs root and losetup"; exit 77
fi
export PTS_E2E_NO_LOOP=
make_target 64M
[ -n "$LOOP" ] || { echo "SKIP: no loop device"; exit 77; }
"$PTSUITE" run iops "${TARGET_ARGS[@]}" --out "$WORK/iops" --cell-seconds 0.05 --max-rounds 5 --quiet \
  >"$WORK/iops.out" 2>"$WORK/iops.err" || { cat "$WORK/iops.err"; fail "run: exit $?"; }
python3 "$HERE/kernel_crosscheck.py" "$WORK/iops" || fail "kernel cross-check"
echo "ok"
